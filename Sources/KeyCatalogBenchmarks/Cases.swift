import Foundation
import KeyCatalog

#if !canImport(Darwin)
import Synchronization
#endif

struct BenchmarkProfile: Codable, Equatable, KeyValuePersistible {
    var name: String
    var age: Int
    var tags: [String]

    static var persistentKeyValueRepresentation: some PersistentKeyValueRepresentation<Self> {
        CodablePersistentKeyValueRepresentation()
    }

    static let sample = BenchmarkProfile(name: "Ann", age: 41, tags: ["a", "b"])
}

enum BenchmarkKeys {
    static let int = PersistentKey<Int>("bench.int", defaultValue: 0)
    static let string = PersistentKey<String>("bench.string", defaultValue: "")
    static let strings = PersistentKey<[String]>("bench.strings", defaultValue: [])
    /// A key nothing is stored under: it reads its default.
    static let absent = PersistentKey<Int>("bench.absent", defaultValue: 0)
    static let profile = PersistentKey<BenchmarkProfile>("bench.profile", defaultValue: BenchmarkProfile(name: "", age: 0, tags: []))

    static let stringValue = "hello, world"
    static let stringsValue = ["alpha", "beta", "gamma", "delta"]
}

/// Keys declared as the generator declares them: a static computed property constrained on `Self`,
/// which builds the key on every access.
extension PersistentKeyProtocol where Self == PersistentKey<Int> {
    static var benchCatalogInt: Self { Self("bench.int", defaultValue: 0) }
}

extension PersistentKeyProtocol where Self == PersistentKey<[String]> {
    static var benchCatalogStrings: Self { Self("bench.strings", defaultValue: []) }
}

extension PersistentKeyProtocol where Self == PersistentKey<Int> {
    static var benchCatalogAbsent: Self { Self("bench.absent", defaultValue: 0) }
}

extension PersistentKeyProtocol where Self == PersistentKey<Int> {
    static func benchCatalogCount(list: String) -> Self { Self("bench.count.\(list)", defaultValue: 0) }
}

/// A catalog as the generator writes one (compare Tests/Fixtures/Goldens/basic/Expected.swift):
/// each key a `CatalogKey` property bound to its store, held as `AnyPersistentKeyValueStore`.
struct BenchmarkCatalog: Sendable {
    @CatalogKey var int: Int
    @CatalogKey var strings: [String]
    /// A key nothing is stored under: it reads its default.
    @CatalogKey var absent: Int

    let store: AnyPersistentKeyValueStore

    init(store: AnyPersistentKeyValueStore) {
        self.store = store
        _int = CatalogKey(PersistentKey<Int>.benchCatalogInt, name: "int", store: store, storeName: "bench")
        _strings = CatalogKey(PersistentKey<[String]>.benchCatalogStrings, name: "strings", store: store, storeName: "bench")
        _absent = CatalogKey(PersistentKey<Int>.benchCatalogAbsent, name: "absent", store: store, storeName: "bench")
    }

    /// A parameterized key's accessor, as generated: a key bound for each call.
    func count(for list: String) -> Int {
        CatalogKey(parameterized: PersistentKey<Int>.benchCatalogCount(list: list), name: "count", store: store, storeName: "bench").value
    }
}

/// Set once a case's setup is done (in its warm-up call, which is not measured).
final class Flag {
    var value = false
}

/// A function returning what `make` makes, made at its first call (a case's warm-up, which is not
/// measured) and the same object after.
func madeOnFirstUse<Made: AnyObject>(_ make: @escaping () -> Made) -> () -> Made {
    var made: Made?
    return {
        if let made { return made }
        let new = make()
        made = new
        return new
    }
}

/// One measured operation: typed through KeyCatalog, and the raw API doing the same work.
struct BenchmarkCase {
    let store: String
    let operation: String
    let type: String
    let typed: (Int) -> Void
    let raw: (Int) -> Void
    /// Cheap reads can run many more iterations than file writes.
    var maxIterations = 2_000_000

    var id: String { "\(store)/\(operation)/\(type)" }
}

/// A raw store: what the typed side of a case is compared with.
protocol RawKeyValueStore {
    func get(_ key: String) -> Any?
}

extension BenchmarkCase {
    /// Reads of keys never read before, one a read (a list's first display): through a catalog of
    /// `store`, and from `raw`. (Generic, so that each raw side is specialized for its store.)
    static func newKeys<Raw: RawKeyValueStore>(store: String, catalog: BenchmarkCatalog, raw: Raw) -> BenchmarkCase {
        BenchmarkCase(
            store: store, operation: "get", type: "Int (parameterized, new keys)",
            typed: { n in
                let list = opaque("inbox")
                for _ in 0..<n { blackHole(catalog.count(for: "\(list)\(freshNumber())")) }
            },
            raw: { n in
                let list = opaque("inbox")
                for _ in 0..<n { blackHole(raw.get("bench.count.\(list)\(freshNumber())") as? Int ?? 0) }
            },
            // Every key read stays registered (Observation): a bounded number of them.
            maxIterations: 20_000
        )
    }
}

/// A dictionary behind a lock: the raw in-memory store the typed one is compared with. On Linux
/// a `Synchronization.Mutex<[String: Any]>`, as issue 13 asks; on Apple platforms, where `Mutex`
/// needs macOS 15, an `NSLock`.
final class LockedDictionary: RawKeyValueStore, @unchecked Sendable {
    #if canImport(Darwin)
    let lock = NSLock()
    var values: [String: Any] = [:]

    @inline(__always)
    func get(_ key: String) -> Any? {
        lock.lock()
        defer { lock.unlock() }
        return values[key]
    }

    @inline(__always)
    func set(_ value: Any, _ key: String) {
        lock.lock()
        defer { lock.unlock() }
        values[key] = value
    }
    #else
    /// `Any` as the dictionary holds it: a struct of one `Any` (the same layout), `Sendable` so
    /// that the mutex can take it; the benchmark stores immutable values.
    struct Stored: @unchecked Sendable {
        let value: Any
    }

    let values = Mutex<[String: Stored]>([:])

    @inline(__always)
    func get(_ key: String) -> Any? {
        values.withLock { $0[key] }?.value
    }

    @inline(__always)
    func set(_ value: Any, _ key: String) {
        let stored = Stored(value: value)
        values.withLock { $0[key] = stored }
    }
    #endif
}

/// The raw file store: a locked dictionary, written with PropertyListSerialization and the same
/// atomic replacement as FileKeyValueStore (temporary file, fsync, rename, fsync the folder).
final class RawPropertyListFile: RawKeyValueStore, @unchecked Sendable {
    let url: URL
    let lock = NSLock()
    var values: [String: Any] = [:]

    init(url: URL) {
        self.url = url
        if let data = try? Data(contentsOf: url),
            let object = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        {
            values = object
        }
    }

    func get(_ key: String) -> Any? {
        lock.lock()
        defer { lock.unlock() }
        return values[key]
    }

    func set(_ value: Any, _ key: String) {
        lock.lock()
        defer { lock.unlock() }
        values[key] = value
        let data = try! PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
        let directory = url.deletingLastPathComponent().path
        let temporary = "\(directory)/.\(url.lastPathComponent).\(UUID().uuidString).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        precondition(descriptor >= 0)
        data.withUnsafeBytes { _ = write(descriptor, $0.baseAddress!, $0.count) }
        fsync(descriptor)
        close(descriptor)
        rename(temporary, url.path)
        let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
        fsync(directoryDescriptor)
        close(directoryDescriptor)
    }
}

/// The stores under test, created once, and the cases over them.
final class BenchmarkFixture {
    let suiteName = "keycatalog.benchmarks.\(getpid())"
    let defaults: UserDefaults
    let memory = InMemoryKeyValueStore()
    let rawMemory = LockedDictionary()
    let directory: URL
    let file: FileKeyValueStore
    let rawFile: RawPropertyListFile
    let encoder: JSONEncoder
    let decoder = JSONDecoder()

    init() {
        // Opened as catalogs open their suites (by name, so that KeyCatalog knows it); the raw
        // side calls the same instance's Foundation methods.
        defaults = UserDefaultsPersistence.suite(named: suiteName)!
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("keycatalog-benchmarks-\(getpid())")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        file = FileKeyValueStore(url: directory.appendingPathComponent("typed.plist"))
        rawFile = RawPropertyListFile(url: directory.appendingPathComponent("raw.plist"))
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        seed()
    }

    /// Stores every benchmark value, so reads find one.
    ///
    /// The raw side reads and writes the very keys the typed side does: dictionary lookups cost
    /// differently for different key strings (CoreFoundation's linear probing, Swift's hashing),
    /// and that difference, not KeyCatalog, decided earlier ratios of a few percent.
    ///
    /// On Linux the suite's record in CoreFoundation is made under KeyCatalog's name for it, when
    /// `init` opens it (see `PreferencesDomain.open()`), so the raw side runs as in an app that
    /// uses KeyCatalog: Foundation's own calls cost differently there than in an app without it
    /// (see BENCHMARKS.md).
    func seed() {
        let profile = try! encoder.encode(BenchmarkProfile.sample)
        defaults.set(42, forKey: "bench.int")
        defaults.set(BenchmarkKeys.stringValue, forKey: "bench.string")
        defaults.set(BenchmarkKeys.stringsValue, forKey: "bench.strings")
        defaults.set(profile, forKey: "bench.profile")
        for store in [defaults, memory, file] as [any PersistentKeyValueStore] {
            store.set(BenchmarkKeys.int, to: 42)
            store.set(BenchmarkKeys.string, to: BenchmarkKeys.stringValue)
            store.set(BenchmarkKeys.strings, to: BenchmarkKeys.stringsValue)
            store.set(BenchmarkKeys.profile, to: .sample)
        }
        for raw in [rawMemory] {
            raw.set(42, "bench.int")
            raw.set(BenchmarkKeys.stringValue, "bench.string")
            raw.set(BenchmarkKeys.stringsValue, "bench.strings")
            raw.set(profile, "bench.profile")
        }
        rawFile.set(42, "bench.int")
        rawFile.set(BenchmarkKeys.stringValue, "bench.string")
        rawFile.set(BenchmarkKeys.stringsValue, "bench.strings")
        rawFile.set(profile, "bench.profile")
        // Written as a property list alone, by no store: none of it is open.
        RawPropertyListFile(url: closedFileURL).set(42, "bench.int")
    }

    /// A file store's file that no store holds open (the "open, get" rows).
    var closedFileURL: URL { directory.appendingPathComponent("closed.plist") }

    /// Whether the suite holds the 500 other keys of the "500 other keys" cases.
    private let isSuiteFilled = Flag()

    /// Stores 500 other keys in the suite, once: a suite of an app that keeps many values (or
    /// values of many parameterized keys).
    func fillSuite() {
        guard !isSuiteFilled.value else { return }
        isSuiteFilled.value = true
        // Through KeyCatalog, whose keys are CoreFoundation's own strings, as those read from the
        // suite's file in a later launch are. (Keys set with Foundation's `set(_:forKey:)` are
        // bridged Swift strings, which CoreFoundation hashes and compares several times slower.)
        for index in 0..<500 { defaults.set(PersistentKey<Int>("bench.other.\(index)", defaultValue: 0), to: index) }
        // On disk: until a synchronization, CoreFoundation lists each key written as unsaved, and
        // every later write searches that list.
        try? defaults.flushPersistentValues()
    }

    func cleanUp() {
        removeScratchSuite(named: suiteName)
        for keyCount in Self.syncedKeyCounts { removeScratchSuite(named: syncedSuiteName(keyCount: keyCount)) }
        try? FileManager.default.removeItem(at: directory)
    }

    var cases: [BenchmarkCase] { userDefaultsCases + largeSuiteCases + syncedWriteCases + ubiquitousCases + memoryCases + fileCases }

    /// A suite holding 500 other keys (``fillSuite()``): a write, then a write followed by a read.
    var largeSuiteCases: [BenchmarkCase] {
        let defaults = defaults
        let write = BenchmarkCase(
            store: "UserDefaults", operation: "set", type: "Int (500 other keys)",
            typed: { [self] n in
                fillSuite()
                for i in 0..<n { defaults.set(BenchmarkKeys.int, to: i) }
            },
            raw: { [self] n in
                fillSuite()
                for i in 0..<n { defaults.set(i, forKey: "bench.int") }
            },
            maxIterations: 20_000
        )
        // A write, then a read of the key written, or of a key at its default: on Linux,
        // CoreFoundation answers a read from a merged copy of the suite, which each write discards.
        let writeThenRead = [("Int (500 other keys)", BenchmarkKeys.int), ("Int (500 other keys, absent)", BenchmarkKeys.absent)].map { type, read in
            BenchmarkCase(
                store: "UserDefaults", operation: "set, get", type: type,
                typed: { [self] n in
                    fillSuite()
                    for i in 0..<n {
                        defaults.set(BenchmarkKeys.int, to: i)
                        blackHole(defaults.get(read))
                    }
                },
                raw: { [self] n in
                    fillSuite()
                    for i in 0..<n {
                        defaults.set(i, forKey: "bench.int")
                        blackHole(defaults.integer(forKey: read.id))
                    }
                },
                maxIterations: 200
            )
        }
        return [write] + writeThenRead
    }

    var userDefaultsCases: [BenchmarkCase] {
        let defaults = defaults, encoder = encoder, decoder = decoder
        let catalog = BenchmarkCatalog(store: AnyPersistentKeyValueStore(defaults))
        // An instance the app made and keeps (`UserDefaults(suiteName:)`), not opened through
        // KeyCatalog: its change center is held with the instance weak, and found under a lock.
        let appMade = UserDefaults(suiteName: suiteName)!
        return [
            BenchmarkCase(
                store: "UserDefaults", operation: "get", type: "Int (catalog)",
                typed: { n in for _ in 0..<n { blackHole(catalog.int) } },
                raw: { n in for _ in 0..<n { blackHole(defaults.integer(forKey: "bench.int")) } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "get", type: "[String] (catalog)",
                typed: { n in for _ in 0..<n { blackHole(catalog.strings) } },
                raw: { n in for _ in 0..<n { blackHole(defaults.stringArray(forKey: "bench.strings") ?? []) } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "get", type: "Int (absent)",
                typed: { n in for _ in 0..<n { blackHole(defaults.get(BenchmarkKeys.absent)) } },
                raw: { n in for _ in 0..<n { blackHole(defaults.integer(forKey: "bench.absent")) } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "get", type: "Int (catalog, absent)",
                typed: { n in for _ in 0..<n { blackHole(catalog.absent) } },
                raw: { n in for _ in 0..<n { blackHole(defaults.integer(forKey: "bench.absent")) } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "get", type: "Int (parameterized)",
                // Both sides build the storage key "bench.count.inbox" (17 bytes: a string with
                // storage) on every call, from a parameter known at run time only.
                typed: { n in
                    let list = opaque("inbox")
                    for _ in 0..<n { blackHole(catalog.count(for: list)) }
                },
                raw: { n in
                    let list = opaque("inbox")
                    for _ in 0..<n { blackHole(defaults.integer(forKey: "bench.count.\(list)")) }
                }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "get", type: "Int (parameterized, new keys)",
                // Each read of a key never read before (a list's first display): a key read
                // through a catalog is registered with Observation on its first read.
                typed: { n in
                    let list = opaque("inbox")
                    for _ in 0..<n { blackHole(catalog.count(for: "\(list)\(freshNumber())")) }
                },
                raw: { n in
                    let list = opaque("inbox")
                    for _ in 0..<n { blackHole(defaults.integer(forKey: "bench.count.\(list)\(freshNumber())")) }
                },
                // Every key read stays registered (Observation): a bounded number of them.
                maxIterations: 20_000
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "set", type: "Int (catalog)",
                typed: { n in for i in 0..<n { catalog.int = i } },
                raw: { n in for i in 0..<n { defaults.set(i, forKey: "bench.int") } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "set", type: "Int (catalog, read before)",
                typed: { n in
                    // A catalog read is tracked for Observation: the key's changes then wake trackers.
                    blackHole(catalog.int)
                    for i in 0..<n { catalog.int = i }
                },
                raw: { n in for i in 0..<n { defaults.set(i, forKey: "bench.int") } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "get", type: "Int",
                typed: { n in for _ in 0..<n { blackHole(defaults.get(BenchmarkKeys.int)) } },
                raw: { n in for _ in 0..<n { blackHole(defaults.integer(forKey: "bench.int")) } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "get", type: "String",
                typed: { n in for _ in 0..<n { blackHole(defaults.get(BenchmarkKeys.string)) } },
                raw: { n in for _ in 0..<n { blackHole(defaults.string(forKey: "bench.string") ?? "") } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "get", type: "[String]",
                typed: { n in for _ in 0..<n { blackHole(defaults.get(BenchmarkKeys.strings)) } },
                raw: { n in for _ in 0..<n { blackHole(defaults.stringArray(forKey: "bench.strings") ?? []) } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "get", type: "Codable",
                typed: { n in for _ in 0..<n { blackHole(defaults.get(BenchmarkKeys.profile)) } },
                raw: { n in
                    for _ in 0..<n {
                        blackHole(defaults.data(forKey: "bench.profile").flatMap { try? decoder.decode(BenchmarkProfile.self, from: $0) })
                    }
                }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "set", type: "Int",
                typed: { n in for i in 0..<n { defaults.set(BenchmarkKeys.int, to: i) } },
                raw: { n in for i in 0..<n { defaults.set(i, forKey: "bench.int") } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "get", type: "Int (an instance the app made)",
                typed: { n in for _ in 0..<n { blackHole(appMade.get(BenchmarkKeys.int)) } },
                raw: { n in for _ in 0..<n { blackHole(appMade.integer(forKey: "bench.int")) } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "set", type: "Int (an instance the app made)",
                typed: { n in for i in 0..<n { appMade.set(BenchmarkKeys.int, to: i) } },
                raw: { n in for i in 0..<n { appMade.set(i, forKey: "bench.int") } }
            ),
            BenchmarkCase(
                // Whether the suite itself stores a value (a registered default does not count):
                // what Foundation's API offers for that is the persistent domain, copied.
                store: "UserDefaults", operation: "contains", type: "Int",
                typed: { n in for _ in 0..<n { blackHole(defaults.contains(BenchmarkKeys.int)) } },
                raw: { [suiteName] n in for _ in 0..<n { blackHole(defaults.persistentDomain(forName: suiteName)?["bench.int"] != nil) } }
            ),
            BenchmarkCase(
                // Every write kept by KeyCatalog, handed to Foundation by the coalesced
                // synchronization (goal 4's writes that call nothing), against Foundation's `set`.
                store: "UserDefaults", operation: "set", type: "Int (defersEveryWrite)",
                typed: { n in
                    UserDefaultsPersistence.defersEveryWrite = true
                    defer { UserDefaultsPersistence.defersEveryWrite = false }
                    for i in 0..<n { defaults.set(BenchmarkKeys.int, to: i) }
                },
                raw: { n in for i in 0..<n { defaults.set(i, forKey: "bench.int") } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "set", type: "String",
                typed: { n in for _ in 0..<n { defaults.set(BenchmarkKeys.string, to: BenchmarkKeys.stringValue) } },
                raw: { n in for _ in 0..<n { defaults.set(BenchmarkKeys.stringValue, forKey: "bench.string") } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "set", type: "[String]",
                typed: { n in for _ in 0..<n { defaults.set(BenchmarkKeys.strings, to: BenchmarkKeys.stringsValue) } },
                raw: { n in for _ in 0..<n { defaults.set(BenchmarkKeys.stringsValue, forKey: "bench.strings") } }
            ),
            BenchmarkCase(
                store: "UserDefaults", operation: "set", type: "Codable",
                typed: { n in for _ in 0..<n { defaults.set(BenchmarkKeys.profile, to: .sample) } },
                raw: { n in for _ in 0..<n { defaults.set(try! encoder.encode(BenchmarkProfile.sample), forKey: "bench.profile") } }
            ),
        ]
    }

    var memoryCases: [BenchmarkCase] {
        let memory = memory, raw = rawMemory, encoder = encoder, decoder = decoder
        let catalog = BenchmarkCatalog(store: AnyPersistentKeyValueStore(memory))
        let unobserved = InMemoryKeyValueStore()
        let otherKeysRead = Flag()
        return [
            .newKeys(store: "in-memory", catalog: catalog, raw: raw),
            BenchmarkCase(
                store: "in-memory", operation: "get", type: "Int (catalog)",
                typed: { n in for _ in 0..<n { blackHole(catalog.int) } },
                raw: { n in for _ in 0..<n { blackHole(raw.get("bench.int") as? Int ?? 0) } }
            ),
            BenchmarkCase(
                store: "in-memory", operation: "get", type: "[String] (catalog)",
                typed: { n in for _ in 0..<n { blackHole(catalog.strings) } },
                raw: { n in for _ in 0..<n { blackHole(raw.get("bench.strings") as? [String] ?? []) } }
            ),
            BenchmarkCase(
                store: "in-memory", operation: "set", type: "[String] (catalog)",
                typed: { n in for _ in 0..<n { catalog.strings = BenchmarkKeys.stringsValue } },
                raw: { n in for _ in 0..<n { raw.set(BenchmarkKeys.stringsValue, "bench.strings") } }
            ),
            BenchmarkCase(
                store: "in-memory", operation: "set", type: "Int (catalog, read before)",
                typed: { n in
                    // A catalog read is tracked for Observation: the key's changes then wake trackers.
                    blackHole(catalog.int)
                    for i in 0..<n { catalog.int = i }
                },
                raw: { n in for i in 0..<n { raw.set(i, "bench.int") } }
            ),
            BenchmarkCase(
                store: "in-memory", operation: "set", type: "String (another key tracked)",
                typed: { n in
                    // As in an app whose catalog keys are read: another key is tracked.
                    blackHole(catalog.int)
                    for _ in 0..<n { memory.set(BenchmarkKeys.string, to: BenchmarkKeys.stringValue) }
                },
                raw: { n in for _ in 0..<n { raw.set(BenchmarkKeys.stringValue, "bench.string") } }
            ),
            BenchmarkCase(
                store: "in-memory", operation: "observe", type: "Int, cancelled (4,000 other keys observed)",
                // What many keys read through a catalog (each stays observed) cost an observation
                // of another key, from its start to its cancellation. Raw: the same observation, of
                // a store where no other key is observed.
                typed: { n in
                    let list = opaque("inbox")
                    if !otherKeysRead.value {
                        otherKeysRead.value = true
                        for _ in 0..<4_000 { blackHole(catalog.count(for: "\(list)\(freshNumber())")) }
                    }
                    for _ in 0..<n { memory.observe(BenchmarkKeys.int) { blackHole($0) }.cancel() }
                },
                raw: { n in
                    for _ in 0..<n { unobserved.observe(BenchmarkKeys.int) { blackHole($0) }.cancel() }
                }
            ),
            BenchmarkCase(
                store: "in-memory", operation: "get", type: "Int",
                typed: { n in for _ in 0..<n { blackHole(memory.get(BenchmarkKeys.int)) } },
                raw: { n in for _ in 0..<n { blackHole(raw.get("bench.int") as? Int ?? 0) } }
            ),
            BenchmarkCase(
                store: "in-memory", operation: "get", type: "String",
                typed: { n in for _ in 0..<n { blackHole(memory.get(BenchmarkKeys.string)) } },
                raw: { n in for _ in 0..<n { blackHole(raw.get("bench.string") as? String ?? "") } }
            ),
            BenchmarkCase(
                store: "in-memory", operation: "get", type: "[String]",
                typed: { n in for _ in 0..<n { blackHole(memory.get(BenchmarkKeys.strings)) } },
                raw: { n in for _ in 0..<n { blackHole(raw.get("bench.strings") as? [String] ?? []) } }
            ),
            BenchmarkCase(
                store: "in-memory", operation: "get", type: "Codable",
                typed: { n in for _ in 0..<n { blackHole(memory.get(BenchmarkKeys.profile)) } },
                raw: { n in
                    for _ in 0..<n {
                        blackHole((raw.get("bench.profile") as? Data).flatMap { try? decoder.decode(BenchmarkProfile.self, from: $0) })
                    }
                }
            ),
            BenchmarkCase(
                store: "in-memory", operation: "set", type: "Int",
                typed: { n in for i in 0..<n { memory.set(BenchmarkKeys.int, to: i) } },
                raw: { n in for i in 0..<n { raw.set(i, "bench.int") } }
            ),
            BenchmarkCase(
                store: "in-memory", operation: "set", type: "String",
                typed: { n in for _ in 0..<n { memory.set(BenchmarkKeys.string, to: BenchmarkKeys.stringValue) } },
                raw: { n in for _ in 0..<n { raw.set(BenchmarkKeys.stringValue, "bench.string") } }
            ),
            BenchmarkCase(
                store: "in-memory", operation: "set", type: "[String]",
                typed: { n in for _ in 0..<n { memory.set(BenchmarkKeys.strings, to: BenchmarkKeys.stringsValue) } },
                raw: { n in for _ in 0..<n { raw.set(BenchmarkKeys.stringsValue, "bench.strings") } }
            ),
            BenchmarkCase(
                store: "in-memory", operation: "set", type: "Codable",
                typed: { n in for _ in 0..<n { memory.set(BenchmarkKeys.profile, to: .sample) } },
                raw: { n in for _ in 0..<n { raw.set(try! encoder.encode(BenchmarkProfile.sample), "bench.profile") } }
            ),
        ]
    }

    var fileCases: [BenchmarkCase] {
        let file = file, raw = rawFile, encoder = encoder, decoder = decoder
        let writes = 20_000
        let catalog = BenchmarkCatalog(store: AnyPersistentKeyValueStore(file))
        let closedURL = closedFileURL, rawURL = rawFile.url
        return [
            .newKeys(store: "file", catalog: catalog, raw: raw),
            // A store made for one read: of a file no store holds (its state is made, the files
            // read, then all released), and of one a store holds (the state is shared). The raw
            // side reads its file anew each time.
            BenchmarkCase(
                store: "file", operation: "open, get", type: "Int (no store open)",
                typed: { n in for _ in 0..<n { blackHole(FileKeyValueStore(url: closedURL).get(BenchmarkKeys.int)) } },
                raw: { n in for _ in 0..<n { blackHole(RawPropertyListFile(url: rawURL).get("bench.int") as? Int ?? 0) } },
                maxIterations: 2_000
            ),
            BenchmarkCase(
                store: "file", operation: "open, get", type: "Int (a store open)",
                typed: { n in for _ in 0..<n { blackHole(FileKeyValueStore(url: file.url).get(BenchmarkKeys.int)) } },
                raw: { n in for _ in 0..<n { blackHole(RawPropertyListFile(url: rawURL).get("bench.int") as? Int ?? 0) } },
                maxIterations: 2_000
            ),
            BenchmarkCase(
                store: "file", operation: "get", type: "Int",
                typed: { n in for _ in 0..<n { blackHole(file.get(BenchmarkKeys.int)) } },
                raw: { n in for _ in 0..<n { blackHole(raw.get("bench.int") as? Int ?? 0) } }
            ),
            BenchmarkCase(
                store: "file", operation: "get", type: "String",
                typed: { n in for _ in 0..<n { blackHole(file.get(BenchmarkKeys.string)) } },
                raw: { n in for _ in 0..<n { blackHole(raw.get("bench.string") as? String ?? "") } }
            ),
            BenchmarkCase(
                store: "file", operation: "get", type: "[String]",
                typed: { n in for _ in 0..<n { blackHole(file.get(BenchmarkKeys.strings)) } },
                raw: { n in for _ in 0..<n { blackHole(raw.get("bench.strings") as? [String] ?? []) } }
            ),
            BenchmarkCase(
                store: "file", operation: "get", type: "Codable",
                typed: { n in for _ in 0..<n { blackHole(file.get(BenchmarkKeys.profile)) } },
                raw: { n in
                    for _ in 0..<n {
                        blackHole((raw.get("bench.profile") as? Data).flatMap { try? decoder.decode(BenchmarkProfile.self, from: $0) })
                    }
                }
            ),
            BenchmarkCase(
                store: "file", operation: "set", type: "Int",
                typed: { n in for i in 0..<n { file.set(BenchmarkKeys.int, to: i) } },
                raw: { n in for i in 0..<n { raw.set(i, "bench.int") } },
                maxIterations: writes
            ),
            BenchmarkCase(
                store: "file", operation: "set", type: "String",
                typed: { n in for _ in 0..<n { file.set(BenchmarkKeys.string, to: BenchmarkKeys.stringValue) } },
                raw: { n in for _ in 0..<n { raw.set(BenchmarkKeys.stringValue, "bench.string") } },
                maxIterations: writes
            ),
            BenchmarkCase(
                store: "file", operation: "set", type: "[String]",
                typed: { n in for _ in 0..<n { file.set(BenchmarkKeys.strings, to: BenchmarkKeys.stringsValue) } },
                raw: { n in for _ in 0..<n { raw.set(BenchmarkKeys.stringsValue, "bench.strings") } },
                maxIterations: writes
            ),
            BenchmarkCase(
                store: "file", operation: "set", type: "Codable",
                typed: { n in for _ in 0..<n { file.set(BenchmarkKeys.profile, to: .sample) } },
                raw: { n in for _ in 0..<n { raw.set(try! encoder.encode(BenchmarkProfile.sample), "bench.profile") } },
                maxIterations: writes
            ),
        ]
    }
}

/// Removes a suite a benchmark opened by `name`: its pending writes are made first (so that none
/// recreates the file afterwards), then its domain and its file (`~/.config/<name>.plist`).
func removeScratchSuite(named name: String) {
    UserDefaultsPersistence.synchronizePendingWrites()
    UserDefaultsPersistence.suite(named: name)?.removePersistentDomain(forName: name)
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".config/\(name).plist"))
}
