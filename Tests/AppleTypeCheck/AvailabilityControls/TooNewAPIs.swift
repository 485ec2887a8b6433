// Availability controls: availability.py must report exactly the lines marked `// too new`,
// checked at macOS 12 / iOS 15, and nothing that @available or #available guards.
import Foundation
import Observation

func unguarded() -> URL {
    URL(filePath: "/tmp")  // too new
}

func guardedByIf() -> URL {
    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
        return URL(filePath: "/tmp")
    }
    return URL(fileURLWithPath: "/tmp")
}

func guardedByGuard() -> String {
    guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return "" }
    return URL(fileURLWithPath: "/tmp").path(percentEncoded: false)
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable final class Model {  // macro-expanded code is covered by the declaration's @available
    var value = 0
}

func afterTheGuardedBlock() -> String {
    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {}
    return "a b".replacing(" ", with: "")  // too new
}

func tooNewType() async throws {
    try await Task.sleep(for: .seconds(1))  // too new
}
