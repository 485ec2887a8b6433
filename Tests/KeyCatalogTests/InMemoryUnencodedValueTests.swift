import Foundation
import Testing

@testable import KeyCatalog

/// The in-memory store keeps a collection of the library's primitives as it was set, checked then,
/// and builds its `PropertyListValue` only when something reads that: every way of reading it must
/// see what an eagerly encoded write would have stored, and a value refused at set time must leave
/// the old value. Each test has a store of its own.
@Suite struct InMemoryUnencodedValueTests {
    static let strings = PersistentKey<[String]>("Strings", defaultValue: [])
    static let stored: PropertyListValue = .array([.string("alpha"), .string("a string longer than fifteen bytes"), .string("é")])
    static let value = ["alpha", "a string longer than fifteen bytes", "é"]

    @Test func aKeptArrayIsBuiltForEveryKindOfRead() {
        let store = InMemoryKeyValueStore()
        store.set(Self.strings, to: Self.value)
        #expect(store.contains(Self.strings))
        #expect(store.hasPersistentValue(forKey: "Strings"))
        #expect(store.persistentValue(forKey: "Strings") == Self.stored)
        #expect(store.get(Self.strings) == Self.value)

        // `storedValues` first, before any other read built it.
        store.set(Self.strings, to: ["b"])
        #expect(store.storedValues == ["Strings": .array([.string("b")])])
        #expect(store.get(Self.strings) == ["b"])
        // And a read of the typed value first, then the stored form.
        store.set(Self.strings, to: ["c", "d"])
        #expect(store.get(Self.strings) == ["c", "d"])
        #expect(store.persistentValue(forKey: "Strings") == .array([.string("c"), .string("d")]))
    }

    @Test func everyPrimitiveElementIsStoredAsAnEagerWriteStoresIt() throws {
        let store = InMemoryKeyValueStore()
        let data = Data([0, 1, 2])
        store.set(PersistentKey<[Int]>("Ints", defaultValue: []), to: [-1, 0, .max])
        store.set(PersistentKey<[UInt64]>("UInt64s", defaultValue: []), to: [1, .max])
        store.set(PersistentKey<[Int8]>("Int8s", defaultValue: []), to: [-128, 127])
        store.set(PersistentKey<[Bool]>("Bools", defaultValue: []), to: [true, false])
        store.set(PersistentKey<[Double]>("Doubles", defaultValue: []), to: [1.5, -0.0, .infinity])
        store.set(PersistentKey<[Float]>("Floats", defaultValue: []), to: [0.25])
        store.set(PersistentKey<[Data]>("Datas", defaultValue: []), to: [data])
        store.set(PersistentKey<[String: Int]>("Dictionary", defaultValue: [:]), to: ["a": 1, "b": 2])
        store.set(PersistentKey<[[String]]>("Nested", defaultValue: []), to: [["a"], [], ["b", "c"]])
        store.set(PersistentKey<[String: [Int]]?>("OptionalDictionary", defaultValue: nil), to: ["x": [1]])
        #expect(
            store.storedValues == [
                "Ints": .array([.int(-1), .int(0), .int(.max)]),
                "UInt64s": .array([.int(1), .uint(.max)]),
                "Int8s": .array([.int(-128), .int(127)]),
                "Bools": .array([.bool(true), .bool(false)]),
                "Doubles": .array([.double(1.5), .double(-0.0), .double(.infinity)]),
                "Floats": .array([.double(0.25)]),
                "Datas": .array([.data(data)]),
                "Dictionary": .dictionary(["a": .int(1), "b": .int(2)]),
                "Nested": .array([.array([.string("a")]), .array([]), .array([.string("b"), .string("c")])]),
                "OptionalDictionary": .dictionary(["x": .array([.int(1)])]),
            ])
        #expect(store.get(PersistentKey<[UInt64]>("UInt64s", defaultValue: [])) == [1, .max])
        #expect(store.get(PersistentKey<[String: [Int]]?>("OptionalDictionary", defaultValue: nil)) == ["x": [1]])
    }

    @Test func otherRepresentationsReadTheBuiltForm() {
        let store = InMemoryKeyValueStore()
        let optional = PersistentKey<[String]?>("Strings", defaultValue: nil)
        let joined = PersistentKey<String>(
            "Strings", defaultValue: "",
            representation: ProxyPersistentKeyValueRepresentation<String, [String]>(to: { $0.split(separator: ",").map(String.init) }, from: { $0.joined(separator: ",") }))
        store.set(Self.strings, to: ["a", "b"])
        #expect(store.get(joined) == "a,b")
        #expect(store.get(optional) == ["a", "b"])
        #expect(store.get(Self.strings) == ["a", "b"])

        // Set through the optional key, read through the plain one and the proxy.
        store.set(optional, to: ["c"])
        #expect(store.get(Self.strings) == ["c"])
        #expect(store.get(joined) == "c")
        #expect(store.get(optional) == ["c"])
        store.set(optional, to: nil)
        #expect(!store.contains(Self.strings))
        #expect(store.get(Self.strings) == [])

        // A key whose type does not match reads its default and reports, as for any stored array.
        store.set(Self.strings, to: ["d"])
        let recorder = FailureRecorder()
        let numbers = recorder.record { store.get(PersistentKey<[Int]>("Strings", defaultValue: [7])) }
        #expect(numbers == [7])
        #expect(recorder.failures.map(\.message) == ["stored value ignored, default used: expected a value of type 'Int', found a string"])
    }

    /// Strings the quick scan cannot clear are built and checked at once: refused ones keep the
    /// old value (the same failure an eager write reports), allowed ones are stored.
    @Test(arguments: [
        (["ok", "\u{1}"], "at [1]: string contains control character U+0001"),
        (["a string longer than fifteen bytes\u{1F}"], "at [0]: string contains control character U+001F"),
        (["\u{FFFE}"], "at [0]: string contains control character U+FFFE"),
    ])
    func aRefusedArrayKeepsTheOldValue(bad: [String], message: String) throws {
        let store = InMemoryKeyValueStore()
        store.set(Self.strings, to: Self.value)
        let notified = Locked(0)
        let observation = store.keyValueChanges.addObserver(forKey: "Strings") { _ in notified.withLock { $0 += 1 } }
        defer { observation.cancel() }
        let recorder = FailureRecorder()
        recorder.record { store.set(Self.strings, to: bad) }
        let failure = try #require(recorder.failures.first)
        #expect(recorder.failures.count == 1)
        #expect(failure.operation == .write)
        #expect(failure.key == "Strings")
        #expect(failure.store == "in-memory store")
        #expect(failure.message == "value not written: value is not property-list compatible \(message)")
        #expect(notified.current == 0)
        #expect(store.get(Self.strings) == Self.value)
        #expect(store.persistentValue(forKey: "Strings") == Self.stored)
    }

    @Test func refusedDictionaryKeysAndNilElementsKeepTheOldValue() {
        let store = InMemoryKeyValueStore()
        let dictionary = PersistentKey<[String: Int]>("Dictionary", defaultValue: [:])
        let optionals = PersistentKey<[Int?]>("Optionals", defaultValue: [])
        store.set(dictionary, to: ["ok": 1])
        store.set(optionals, to: [1, 2])
        let recorder = FailureRecorder()
        recorder.record {
            store.set(dictionary, to: ["k\u{2}": 1])
            store.set(optionals, to: [1, nil])
        }
        #expect(
            recorder.failures.map(\.message) == [
                "value not written: value is not property-list compatible: dictionary key contains control character U+0002",
                "value not written: array element 1 is nil; a property list cannot hold nil",
            ])
        #expect(store.storedValues == ["Dictionary": .dictionary(["ok": .int(1)]), "Optionals": .array([.int(1), .int(2)])])
    }

    /// Strings the quick scan flags but a property list holds (tabs, line breaks, U+FEFF and
    /// other scalars from U+F000) are stored, short or long.
    @Test func flaggedButAllowedStringsAreStored() {
        let store = InMemoryKeyValueStore()
        let value = ["a\tb", "\n", "\r\n", "\u{FEFF}x", "\u{F000}", "tab\tin a string longer than fifteen bytes"]
        store.set(Self.strings, to: value)
        #expect(store.get(Self.strings) == value)
        #expect(store.persistentValue(forKey: "Strings") == .array(value.map(PropertyListValue.string)))
    }

    @Test func observersGetTheBuiltForm() {
        let store = InMemoryKeyValueStore()
        let stored = Locked<[PropertyListValue?]>([])
        let typed = Locked<[[String]]>([])
        let observation = store.keyValueChanges.addObserver(forKey: "Strings") { value in stored.append(value) }
        let typedObservation = store.observe(Self.strings) { value in typed.append(value) }
        defer {
            observation.cancel()
            typedObservation.cancel()
        }
        store.set(Self.strings, to: ["a"])
        store.set(Self.strings, to: Self.value)
        store.remove(Self.strings)
        #expect(stored.current == [.array([.string("a")]), Self.stored, nil])
        #expect(typed.current == [["a"], Self.value, []])
    }

    @Test func removalFallsBackToTheRegisteredValue() {
        let store = InMemoryKeyValueStore()
        store.register(PersistentKey<[String]>("Strings", defaultValue: ["registered"]))
        store.set(Self.strings, to: ["set"])
        #expect(store.get(Self.strings) == ["set"])
        store.remove(Self.strings)
        #expect(store.get(Self.strings) == ["registered"])
        #expect(store.persistentValue(forKey: "Strings") == .array([.string("registered")]))
        #expect(store.storedValues.isEmpty)
    }

    /// A value read earlier is the reader's own: later writes (which reuse the store's box for the
    /// value when nothing else holds it) do not change it.
    @Test func aValueReadEarlierIsNotChangedByLaterWrites() {
        let store = InMemoryKeyValueStore()
        store.set(Self.strings, to: ["first"])
        let first = store.get(Self.strings)
        let firstStored = store.persistentValue(forKey: "Strings")
        for index in 0..<10 { store.set(Self.strings, to: ["write \(index)"]) }
        #expect(first == ["first"])
        #expect(firstStored == .array([.string("first")]))
        #expect(store.get(Self.strings) == ["write 9"])
    }

    /// The box a read takes out of the store (`get` holds it while it copies the value out).
    static func heldBox(_ store: InMemoryKeyValueStore) -> _DecodedValue<[String]>? {
        let representation = ObjectIdentifier(ArrayPersistentKeyValueRepresentation<String>.self)
        return store._decodedValue(forKey: "Strings", representation: representation) { _ in nil } as? _DecodedValue<[String]>
    }

    /// A write replaces the value in the store's box only when nothing else holds the box: a
    /// reader that holds it keeps reading the value it found.
    @Test func aBoxAReaderHoldsIsNotReusedByAWrite() throws {
        let store = InMemoryKeyValueStore()
        store.set(Self.strings, to: ["first"])
        let held = try #require(Self.heldBox(store))
        store.set(Self.strings, to: ["second"])
        #expect(held.value == ["first"])
        #expect(store.get(Self.strings) == ["second"])
        #expect(Self.heldBox(store) !== held)
    }

    /// And when nothing else holds it, a write reuses it: a set allocates nothing.
    @Test func aWriteReusesTheBoxNobodyElseHolds() throws {
        let store = InMemoryKeyValueStore()
        store.set(Self.strings, to: ["first"])
        weak let box = Self.heldBox(store)
        #expect(box != nil)
        store.set(Self.strings, to: ["second"])
        #expect(box != nil, "the store's box was replaced, not reused")
        #expect(Self.heldBox(store) === box)
        #expect(box?.value == ["second"])
    }

    /// Writers and readers of every kind race on one key: every read sees a whole value that was
    /// written, and once the writers are done every kind of read agrees on the last one.
    @Test func concurrentWritesAndReadsSeeWholeWrittenValues() {
        let store = InMemoryKeyValueStore()
        let writes = 2_000
        let torn = Locked(0)
        @Sendable func isWhole(_ value: [String]) -> Bool {
            value.isEmpty || (value.count == 3 && value[0] == value[2] && value[1] == "the same long element in every write")
        }
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            switch worker {
            case 0, 1:
                for index in 0..<writes {
                    let tag = "w\(worker)-\(index)"
                    store.set(Self.strings, to: [tag, "the same long element in every write", tag])
                }
            case 2:
                for _ in 0..<writes where !isWhole(store.get(Self.strings)) { torn.withLock { $0 += 1 } }
            default:
                for index in 0..<writes {
                    let stored = index.isMultiple(of: 2) ? store.persistentValue(forKey: "Strings") : store.storedValues["Strings"]
                    guard let stored else { continue }
                    guard case .array(let elements) = stored, elements.count == 3, elements[0] == elements[2] else {
                        torn.withLock { $0 += 1 }
                        continue
                    }
                }
            }
        }
        #expect(torn.current == 0)
        let last = store.get(Self.strings)
        #expect(last.count == 3 && (last[0] == "w0-\(writes - 1)" || last[0] == "w1-\(writes - 1)"))
        #expect(store.persistentValue(forKey: "Strings") == .array(last.map(PropertyListValue.string)))
        #expect(store.storedValues == ["Strings": .array(last.map(PropertyListValue.string))])
    }
}
