import Foundation
import KeyCatalog
import Testing

/// Many tasks reading and writing the same keys: no crash, no torn value, no failure.
@Suite("Concurrency stress: many tasks, same keys, every store")
struct ConcurrencyStressTests {
    struct Pair: Codable, Equatable, KeyValuePersistible {
        var first: Int
        var second: Int
        static var persistentKeyValueRepresentation: some PersistentKeyValueRepresentation<Self> {
            CodablePersistentKeyValueRepresentation()
        }
    }

    static let numbers = PersistentKey<[Int]>("Numbers", defaultValue: [])
    static let text = PersistentKey<String>("Text", defaultValue: "")
    static let pair = PersistentKey<Pair>("Pair", defaultValue: Pair(first: 0, second: 0))
    static let table = PersistentKey<[String: Int]>("Table", defaultValue: [:])

    static func isWhole(_ numbers: [Int]) -> Bool { Set(numbers).count <= 1 }
    static func isWhole(_ text: String) -> Bool { Set(text).count <= 1 }

    @Test(arguments: StoreKind.allCases)
    func manyTasksReadAndWriteTheSameKeys(kind: StoreKind) async throws {
        let fixture = kind.makeFixture()
        let store = _UncheckedStore(fixture.store)
        // File writes flush to disk; fewer of them keep the suite fast.
        let iterations = kind == .file ? 60 : 400
        let tasks = 8
        let torn = Locked<[String]>([])
        let observed = Locked(0)
        let observation = fixture.store.observe(Self.numbers) { numbers in
            observed.withLock { $0 += 1 }
            if !Self.isWhole(numbers) { torn.append("observed \(numbers)") }
        }
        defer { observation.cancel() }

        let recorder = FailureRecorder()
        await recorder.record {
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        let store = store.base
                        for iteration in 0..<iterations {
                            let value = task * 10_000 + iteration
                            switch iteration % 4 {
                            case 0:
                                store.set(Self.numbers, to: Array(repeating: value, count: iteration % 32 + 1))
                                store.set(Self.text, to: String(repeating: Character(Unicode.Scalar(UInt8(65 + task))), count: iteration % 50 + 1))
                            case 1:
                                store.set(Self.pair, to: Pair(first: value, second: value))
                                store.set(Self.table, to: ["a": value, "b": value, "c": value])
                            case 2:
                                if iteration % 40 == 2 { store.remove(Self.numbers) }
                            default:
                                break
                            }
                            let numbers = store.get(Self.numbers)
                            if !Self.isWhole(numbers) { torn.append("numbers \(numbers)") }
                            let text = store.get(Self.text)
                            if !Self.isWhole(text) { torn.append("text \(text)") }
                            let pair = store.get(Self.pair)
                            if pair.first != pair.second { torn.append("pair \(pair)") }
                            let table = store.get(Self.table)
                            if Set(table.values).count > 1 || !(table.isEmpty || table.count == 3) { torn.append("table \(table)") }
                            _ = store.contains(Self.numbers)
                        }
                    }
                }
            }
        }
        #expect(torn.current.isEmpty, "\(torn.current.prefix(5))")
        #expect(recorder.failures.isEmpty, "\(recorder.failures.prefix(3))")
        #expect(observed.current > 0)

        // What is on disk is the last value written, whole.
        if let persisted = try fixture.persistedStore() {
            #expect(persisted.get(Self.numbers) == fixture.store.get(Self.numbers))
            #expect(persisted.get(Self.pair) == fixture.store.get(Self.pair))
            #expect(persisted.get(Self.text) == fixture.store.get(Self.text))
        }
    }

    @Test func manyFileStoresOnOneFileFromManyTasks() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("shared.plist")
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<6 {
                group.addTask {
                    let store = FileKeyValueStore(url: url)
                    for iteration in 0..<10 {
                        store.set(PersistentKey<Int>("task\(task)", defaultValue: 0), to: iteration)
                    }
                }
            }
        }
        // Every task's last write survives: no store overwrote another's keys.
        let values = try FileStoreOnDisk.read(url)
        #expect(values == Dictionary(uniqueKeysWithValues: (0..<6).map { ("task\($0)", PropertyListValue.int(9)) }))
    }
}
