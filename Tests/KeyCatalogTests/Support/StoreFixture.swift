import Foundation
import KeyCatalog
import Testing

/// The built-in stores, for tests parameterized over every one of them.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case userDefaults
    case inMemory
    case file

    var testDescription: String { rawValue }

    /// A new, empty store of this kind, cleaned up when the fixture is released.
    ///
    /// `watchingOtherProcesses: false` gives a UserDefaults suite as `UserDefaults(suiteName:)`
    /// makes it, not opened by name through KeyCatalog: on Linux such an instance has no watch of
    /// the suite's file. A test that checks the exact sequence its own writes deliver needs that:
    /// the watch checks observed keys whenever the file changes (any test's synchronization can
    /// rewrite it), and a write made while the watch delivers a key is handed to that delivery,
    /// which may coalesce it, as the change center documents.
    func makeFixture(_ label: String = #function, watchingOtherProcesses: Bool = true) -> StoreFixture {
        StoreFixture(kind: self, label: label, watchingOtherProcesses: watchingOtherProcesses)
    }
}

/// A real store of one kind (a UserDefaults suite with a unique name, a file in a temporary
/// folder, or memory), and ways to look at it from outside: a second instance, and what is on disk.
final class StoreFixture: @unchecked Sendable {
    let kind: StoreKind
    let store: any PersistentKeyValueStore
    let suite: TemporarySuite?
    let directory: TemporaryDirectory?
    let fileURL: URL?

    init(kind: StoreKind, label: String, watchingOtherProcesses: Bool = true) {
        self.kind = kind
        switch kind {
        case .userDefaults:
            let suite = TemporarySuite(label)
            self.suite = suite
            directory = nil
            fileURL = suite.fileURL
            store = watchingOtherProcesses ? suite.defaults : UserDefaults(suiteName: suite.name)!
        case .inMemory:
            suite = nil
            directory = nil
            fileURL = nil
            store = InMemoryKeyValueStore()
        case .file:
            let directory = TemporaryDirectory()
            let url = directory.file("settings.plist")
            suite = nil
            self.directory = directory
            fileURL = url
            store = FileKeyValueStore(url: url)
        }
    }

    /// Another instance of the same store: a new `UserDefaults` object for the suite, a new
    /// `FileKeyValueStore` on the file; for memory, the store itself.
    func freshInstance() -> any PersistentKeyValueStore {
        switch kind {
        case .userDefaults: UserDefaults(suiteName: suite!.name)!
        case .inMemory: store
        case .file: FileKeyValueStore(url: fileURL!)
        }
    }

    /// What is on disk now, parsed independently of the store and put into an in-memory store,
    /// so that typed keys can read it; `nil` for the in-memory store, which has no disk.
    ///
    /// For UserDefaults this synchronizes first (as the exit hook would); for a file store it is
    /// the property list with its journal's records applied.
    func persistedStore() throws -> InMemoryKeyValueStore? {
        guard let fileURL else { return nil }
        // KeyCatalog's flush: it hands over writes kept while another suite synchronizes.
        if let suite { try suite.defaults.flushPersistentValues() }
        if kind == .file { return InMemoryKeyValueStore(try FileStoreOnDisk.read(fileURL)) }
        guard FileManager.default.fileExists(atPath: fileURL.path) else {
            return InMemoryKeyValueStore()
        }
        return InMemoryKeyValueStore(try Self.readPropertyListFile(fileURL))
    }

    /// Parses a property-list file whose top level is a dictionary.
    static func readPropertyListFile(_ url: URL) throws -> [String: PropertyListValue] {
        let data = try Data(contentsOf: url)
        let object = try PropertyListSerialization.propertyList(from: data, format: nil)
        guard case .dictionary(let values)? = PropertyListValue(foundationObject: object) else {
            throw PersistentKeyValueEncodingError("\(url.path) is not a dictionary of property-list values")
        }
        return values
    }
}

/// Where the test helper executable was built: beside the test bundle.
enum TestHelperExecutable {
    static var url: URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent("KeyCatalogTestHelper")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// This process's environment with UserDefaults' configuration folder (`XDG_CONFIG_HOME`) in
    /// `home`: a child's suites are written there, never in the real home folder.
    static func environment(configurationIn home: TemporaryDirectory) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = home.url.path
        return environment
    }

    /// Runs the helper to completion; returns its exit status, its standard output, and, with
    /// `capturingErrors`, its standard error (so that failures it reports are asserted rather
    /// than printed; without, they reach this process's standard error and `errors` is empty).
    static func run(
        _ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil, capturingErrors: Bool = false
    ) throws -> (status: Int32, output: String, errors: String) {
        let process = try start(arguments, environment: environment, in: folder, capturingErrors: capturingErrors)
        // Standard error is read on another thread: a child blocked on a full pipe would never
        // close the other one.
        let read = DispatchGroup(), errors = Locked(Data())
        if let pipe = process.standardError as? Pipe {
            DispatchQueue.global().async(group: read) {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                errors.withLock { $0 = data }
            }
        }
        let output = (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        read.wait()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors.current, as: UTF8.self))
    }

    /// Starts the helper with standard output on a pipe (and standard error too, with
    /// `capturingErrors`, so that failures it reports are asserted rather than printed), working
    /// in `folder` (else this process's working folder).
    static func start(_ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil, capturingErrors: Bool = false) throws -> Process {
        guard let url else {
            throw PersistentKeyValueEncodingError("KeyCatalogTestHelper not found beside \(CommandLine.arguments[0])")
        }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let folder { process.currentDirectoryURL = folder }
        process.standardOutput = Pipe()
        if capturingErrors { process.standardError = Pipe() }
        try process.run()
        killIfStillRunning(process)
        return process
    }

    /// Runs the helper as an unprivileged user (through `setpriv` when the tests run as root, for
    /// whom permissions stop nothing); returns its status and standard error, where the default
    /// failure handler prints.
    static func runUnprivileged(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        guard let url else {
            throw PersistentKeyValueEncodingError("KeyCatalogTestHelper not found beside \(CommandLine.arguments[0])")
        }
        let process = Process()
        if geteuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", url.path] + arguments
        } else {
            process.executableURL = url
            process.arguments = arguments
        }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        killIfStillRunning(process)
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// Kills `process` if it still runs after `seconds` (10 minutes, far beyond any child's work on a
/// loaded machine): a hung child then fails its test, its output ended and its status a signal,
/// instead of hanging the whole run.
func killIfStillRunning(_ process: Process, after seconds: Double = 600) {
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
