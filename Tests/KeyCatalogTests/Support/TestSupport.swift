import Foundation
import KeyCatalog
import Testing

/// A real UserDefaults suite with a unique name, removed (with its file) when released.
final class TemporarySuite: @unchecked Sendable {
    let name: String
    let defaults: UserDefaults

    init(_ label: String = #function) {
        let sanitized = label.filter { $0.isLetter || $0.isNumber }
        name = "keycatalog.tests.\(sanitized).\(UUID().uuidString)"
        defaults = UserDefaultsPersistence.suite(named: name)!
    }

    /// The plist Foundation writes on Linux.
    var fileURL: URL { suiteFileURL(named: name) }

    deinit {
        // Writes first: KeyCatalog may still hold some (kept during a synchronization) or have a
        // synchronization scheduled, which, run after the removal, would write the file again
        // (found: a test's last writes left its suite's file in ~/.config).
        try? defaults.flushPersistentValues()
        defaults.removePersistentDomain(forName: name)
        defaults.synchronize()
        try? FileManager.default.removeItem(at: fileURL)
    }
}

/// An instance of a suite made with `UserDefaults(suiteName:)`, not opened by name through
/// KeyCatalog: on Linux its center has no watch of the suite's file. (`@unchecked Sendable`:
/// UserDefaults is thread-safe, but not marked so on Linux.)
final class UnopenedSuiteInstance: @unchecked Sendable {
    let defaults: UserDefaults

    init(_ suite: TemporarySuite) {
        defaults = UserDefaults(suiteName: suite.name)!
    }
}

/// The plist Foundation writes the suite `name` to on Linux: `$XDG_CONFIG_HOME` (else
/// `~/.config`) `/<name>.plist`, as the library finds it.
func suiteFileURL(named name: String) -> URL {
    let configuration = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? NSHomeDirectory() + "/.config"
    return URL(fileURLWithPath: configuration).appendingPathComponent("\(name).plist")
}

/// A temporary folder, removed when released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("keycatalog-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Collects the failures reported while `body` runs (in this task only).
final class FailureRecorder: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var recorded: [PersistentKeyValueFailure] = []

    var failures: [PersistentKeyValueFailure] {
        lock.withLock { recorded }
    }

    func record<R>(_ body: () throws -> R) rethrows -> R {
        try PersistentKeyValueFailure.withTaskHandler(
            { failure in
                self.lock.withLock { self.recorded.append(failure) }
            }, operation: body)
    }

    func record<R>(_ body: () async throws -> R) async rethrows -> R {
        try await PersistentKeyValueFailure.withTaskHandler(
            { failure in
                self.lock.withLock { self.recorded.append(failure) }
            }, operation: body)
    }
}

extension Trait where Self == ConditionTrait {
    /// For a test of what a Debug build does (debug keys' defaults and writes): CI also runs the
    /// suite optimized, where `BuildConfiguration.current` is `.release`.
    static var debugBuildsOnly: Self {
        .enabled(if: BuildConfiguration.current == .debug, "asserts what a Debug build does")
    }
}
