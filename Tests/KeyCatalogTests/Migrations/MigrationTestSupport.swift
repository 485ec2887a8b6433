import Foundation
import KeyCatalog
import Testing

/// The kinds of real store a migration reads from or writes to.
enum MigrationStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case userDefaults
    case secondSuite
    case file
    case memory

    var testDescription: String { rawValue }
}

/// One real store of each kind, by name: two UserDefaults suites with unique names, a file in a
/// temporary folder, and memory. Everything is removed when the set is released.
final class MigrationStores: @unchecked Sendable {
    let suite = TemporarySuite("migrations")
    let secondSuite = TemporarySuite("migrations2")
    let directory = TemporaryDirectory()
    let memory = InMemoryKeyValueStore()
    let file: FileKeyValueStore

    init() {
        file = FileKeyValueStore(url: directory.file("settings.plist"))
    }

    func store(_ kind: MigrationStoreKind) -> any PersistentKeyValueStore {
        switch kind {
        case .userDefaults: suite.defaults
        case .secondSuite: secondSuite.defaults
        case .file: file
        case .memory: memory
        }
    }

    /// The store lookup `KeyMigrator.run` takes: store names are the kinds' raw values.
    func lookup(_ name: String) -> (any PersistentKeyValueStore)? {
        MigrationStoreKind(rawValue: name).map(store)
    }

    /// Runs the migrations on these stores. The failures they report are captured, not printed,
    /// and must be exactly the report's failed entries.
    func run(_ migrations: [KeyMigration]) -> KeyMigrationReport {
        Self.runCapturingFailures { KeyMigrator.run(migrations, stores: lookup) }
    }

    /// Runs `body`, capturing the failures reported meanwhile, and expects one per failed entry
    /// of the report it returns. Inside a test's own `FailureRecorder`, the failures go there.
    static func runCapturingFailures(
        _ body: () -> KeyMigrationReport,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> KeyMigrationReport {
        if PersistentKeyValueFailure.taskHandler != nil { return body() }
        let recorder = FailureRecorder()
        let report = recorder.record(body)
        #expect(
            recorder.failures.map(\.key) == report.failed.map(\.storageKey),
            "each failed migration is reported once, and nothing else: \(recorder.failures)",
            sourceLocation: sourceLocation
        )
        return report
    }

    /// What each store holds (the persistent domain for UserDefaults, so registered defaults are
    /// left out).
    func contents(_ kind: MigrationStoreKind) -> [String: PropertyListValue] {
        switch kind {
        case .userDefaults: Self.domain(suite)
        case .secondSuite: Self.domain(secondSuite)
        case .file: file.storedValues
        case .memory: memory.storedValues
        }
    }

    /// Every store's contents, by kind.
    var snapshot: [MigrationStoreKind: [String: PropertyListValue]] {
        Dictionary(uniqueKeysWithValues: MigrationStoreKind.allCases.map { ($0, contents($0)) })
    }

    func set(_ value: PropertyListValue, _ key: String, in kind: MigrationStoreKind) throws {
        try store(kind).setPersistentValue(value, forKey: key)
    }

    /// The suite's persistent domain. On Linux `persistentDomain(forName:)` reflects only what was
    /// synchronized, so this synchronizes first (as the exit hook would).
    private static func domain(_ suite: TemporarySuite) -> [String: PropertyListValue] {
        // KeyCatalog's flush: it hands over writes kept while another suite synchronizes.
        try? suite.defaults.flushPersistentValues()
        let domain = suite.defaults.persistentDomain(forName: suite.name) ?? [:]
        // On Linux the domain's values come boxed as `Optional<Any>`, which
        // `PropertyListValue(foundationObject:)` does not unwrap (Bool and Double would be lost).
        return domain.compactMapValues { value in unwrapped(value).flatMap(PropertyListValue.init(foundationObject:)) }
    }

    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.flatMap { unwrapped($0.value) }
    }
}

/// A real store that fails on demand: its throwing operations (set, remove, flush) count
/// themselves, shared across every store wrapping the same counter, and the one numbered
/// `failAt` throws; in `crash` mode every later one throws too, as if the process had died.
final class FailingStore: PersistentKeyValueStore, @unchecked Sendable {
    enum Timing: String, Sendable, CaseIterable {
        /// The operation throws before reaching the real store.
        case before
        /// The operation reaches the real store, then throws (a crash right after a write).
        case after
    }

    struct Injection: Sendable, CustomTestStringConvertible {
        var timing: Timing
        /// Whether every operation after the failing one fails too.
        var crash: Bool

        var testDescription: String { "\(timing)\(crash ? ", then dead" : ", once")" }

        static let all: [Injection] = Timing.allCases.flatMap { [Injection(timing: $0, crash: false), Injection(timing: $0, crash: true)] }
    }

    /// The operation count shared by every wrapper of one run.
    final class Counter: @unchecked Sendable {
        let failAt: Int?
        let injection: Injection
        private let lock = NSLock()
        private var count = 0
        private(set) var operations: [String] = []

        init(failAt: Int?, injection: Injection = Injection(timing: .before, crash: false)) {
            self.failAt = failAt
            self.injection = injection
        }

        var operationCount: Int { lock.withLock { count } }

        /// Counts one operation; returns whether it fails, and whether the real store sees it first.
        func next(_ description: String) -> (fails: Bool, applyFirst: Bool) {
            lock.withLock {
                count += 1
                operations.append(description)
                guard let failAt else { return (false, true) }
                if count == failAt { return (true, injection.timing == .after) }
                if count > failAt && injection.crash { return (true, false) }
                return (false, true)
            }
        }
    }

    struct InjectedFailure: Error, CustomStringConvertible {
        let operation: String
        var description: String { "injected failure of \(operation)" }
    }

    let base: any PersistentKeyValueStore
    let counter: Counter
    let name: String

    init(_ base: any PersistentKeyValueStore, name: String, counter: Counter) {
        self.base = base
        self.name = name
        self.counter = counter
    }

    private func perform(_ description: String, _ operation: () throws -> Void) throws {
        let (fails, applyFirst) = counter.next("\(name).\(description)")
        if applyFirst { try operation() }
        if fails { throw InjectedFailure(operation: "\(name).\(description)") }
    }

    func persistentValue(forKey key: String) -> PropertyListValue? { base.persistentValue(forKey: key) }
    func hasPersistentValue(forKey key: String) -> Bool { base.hasPersistentValue(forKey: key) }

    func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        try perform("set(\(key))") { try base.setPersistentValue(value, forKey: key) }
    }

    func removePersistentValue(forKey key: String) throws {
        try perform("remove(\(key))") { try base.removePersistentValue(forKey: key) }
    }

    func flushPersistentValues() throws {
        try perform("flush") { try base.flushPersistentValues() }
    }

    func registerPersistentValues(_ values: [String: PropertyListValue]) { base.registerPersistentValues(values) }
    var keyValueChanges: KeyValueChangeCenter { base.keyValueChanges }
    var persistentStoreDescription: String { "failing \(base.persistentStoreDescription)" }
}

/// The migration helper executable, built beside the test bundle.
enum MigrationHelperExecutable {
    static var url: URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent("KeyCatalogMigrationHelper")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// Starts the helper with standard output and standard error on pipes; `environment` is
    /// added to this process's.
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        guard let url else {
            throw PersistentKeyValueEncodingError("KeyCatalogMigrationHelper not found beside \(CommandLine.arguments[0])")
        }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        killIfStillRunning(process)
        return process
    }

    /// Runs the helper to completion; returns its exit status, standard output and standard error.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String, errors: String) {
        let process = try start(arguments, environment: environment)
        // Standard error is read on another thread, so that neither pipe can fill and block the child.
        let errorHandle = (process.standardError as! Pipe).fileHandleForReading
        let errors = HandedOver<Data>()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errors.value = errorHandle.readDataToEndOfFile()
            done.signal()
        }
        let output = (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors.value ?? Data(), as: UTF8.self))
    }
}

/// A value written by one thread before a semaphore is signalled, and read by another after it.
private final class HandedOver<Value>: @unchecked Sendable {
    var value: Value?
}

/// Writes a property-list file directly, without opening a `FileKeyValueStore` (whose contents
/// this process would then cache while a child changes the file).
func writeMigrationPropertyList(_ values: [String: PropertyListValue], to url: URL) throws {
    let data = try PropertyListSerialization.data(
        fromPropertyList: PropertyListValue.dictionary(values).foundationObject, format: .xml, options: 0
    )
    try data.write(to: url)
}

/// Reads a file store's files directly (the property list and its journal); an absent store is
/// empty.
func readMigrationPropertyList(_ url: URL) throws -> [String: PropertyListValue] {
    try FileStoreOnDisk.read(url)
}
