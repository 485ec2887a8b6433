import Foundation
import Testing

@testable import KeyCatalog

/// Runs `body` while the file monitor's one thread is held (the process's, or `monitor`), so
/// that file changes made in it are reported only after it returns.
func holdingFileWatches(in folder: TemporaryDirectory, monitor: FileChangeMonitor = .shared, _ body: () throws -> Void) throws {
    let (entered, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let isFirstCall = _Locked(true)
    let blocker = folder.url.appendingPathComponent("blocker")
    let hold = monitor.watch(blocker) {
        // The file's creation may be reported more than once: only the first call holds.
        let isFirst = isFirstCall.withLock { isFirst in
            defer { isFirst = false }
            return isFirst
        }
        guard isFirst else { return }
        entered.signal()
        _ = release.wait(timeout: .now() + 30)
    }
    defer { hold?.cancel() }
    #expect(FileManager.default.createFile(atPath: blocker.path, contents: Data("x".utf8)))
    #expect(entered.wait(timeout: .now() + 30) == .success)
    defer { release.signal() }
    try body()
}

/// `path` with each scalar past ASCII written as its code (`caf\u{E9}`, `cafe\u{301}`): equal
/// only for the same bytes, as the file system compares names, where `String`s are equal when
/// canonically equivalent.
func spelled(_ path: String) -> String {
    path.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
}
