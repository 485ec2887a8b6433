import Foundation
import KeyCatalog
import Testing

/// A real UserDefaults suite with a unique name, removed (with its file) when released.
final class TemporarySuite: @unchecked Sendable {
    let name: String
    let defaults: UserDefaults
    let store: AnyPersistentKeyValueStore

    init(_ label: String = #function) {
        let sanitized = label.filter { $0.isLetter || $0.isNumber }
        name = "keycatalog.goldens.\(sanitized).\(UUID().uuidString)"
        defaults = UserDefaults(suiteName: name)!
        store = AnyPersistentKeyValueStore(defaults)
    }

    deinit {
        // Writes first: KeyCatalog may still hold some, or have a synchronization scheduled that,
        // run after the removal, would write the file again.
        try? defaults.flushPersistentValues()
        defaults.removePersistentDomain(forName: name)
        defaults.synchronize()
        // Where Foundation writes the suite on Linux: `$XDG_CONFIG_HOME` (else `~/.config`).
        let configuration = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? NSHomeDirectory() + "/.config"
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: configuration).appendingPathComponent("\(name).plist"))
    }
}

/// Where a golden catalog's tests put its stores: fresh in-memory stores (`Stores.inMemory()`)
/// or a real UserDefaults suite per store.
enum StoreSetup: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory
    case userDefaults

    var testDescription: String { rawValue }
}

/// Checks one key through a catalog member: a fresh store gives the default; a set value reads
/// back; after `reset` (when given) the default is back.
func checkRoundTrip<Value: Equatable>(
    _ name: String,
    get: () -> Value,
    set: (Value) -> Void,
    default expected: Value,
    sample: Value,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(get() == expected, "\(name): default", sourceLocation: sourceLocation)
    #expect(sample != expected, "\(name): the sample must differ from the default", sourceLocation: sourceLocation)
    set(sample)
    #expect(get() == sample, "\(name): round trip", sourceLocation: sourceLocation)
}

/// Collects the failures reported while `body` runs, in this task only.
func recordFailures<R>(_ body: () throws -> R) rethrows -> (R, [PersistentKeyValueFailure]) {
    let box = FailureBox()
    let result = try PersistentKeyValueFailure.withTaskHandler({ box.append($0) }, operation: body)
    return (result, box.failures)
}

final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [PersistentKeyValueFailure] = []
    func append(_ failure: PersistentKeyValueFailure) { lock.withLock { recorded.append(failure) } }
    var failures: [PersistentKeyValueFailure] { lock.withLock { recorded } }
}

/// Checks what every generated catalog's table promises: names in manifest order, a declared
/// store for every entry, and parameterized entries without operations.
func checkEntries(
    _ entries: [KeyCatalogEntry],
    names: [String],
    store: (String) -> AnyPersistentKeyValueStore?,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(entries.map(\.name) == names, sourceLocation: sourceLocation)
    for entry in entries {
        #expect(store(entry.store) != nil, "\(entry.name): store '\(entry.store)' is declared", sourceLocation: sourceLocation)
        #expect(entry.isParameterized == !entry.parameters.isEmpty, "\(entry.name)", sourceLocation: sourceLocation)
    }
    #expect(store("no such store") == nil, sourceLocation: sourceLocation)
}

extension Trait where Self == ConditionTrait {
    /// For a test of what a Debug build does (debug keys' defaults and writes): CI also runs the
    /// suite optimized, where `BuildConfiguration.current` is `.release`.
    static var debugBuildsOnly: Self {
        .enabled(if: BuildConfiguration.current == .debug, "asserts what a Debug build does")
    }
}

/// Points this process's home folder (`HOME`) and UserDefaults' configuration folder
/// (`XDG_CONFIG_HOME`) at a new temporary folder, and returns it. Only in a child process (an exit
/// test): the environment is process-wide.
func useTemporaryHome() throws -> URL {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("keycatalog.goldens.home.\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    setenv("HOME", home.path, 1)
    setenv("XDG_CONFIG_HOME", home.appendingPathComponent(".config").path, 1)
    unsetenv("XDG_DATA_HOME")
    return home
}
