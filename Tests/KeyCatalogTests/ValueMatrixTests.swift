import Foundation
import KeyCatalog
import Testing

// Every primitive and Foundation type, as itself, optional, in arrays and dictionaries, nested,
// and through each representation, on every built-in store: set, read back, read through a second
// instance, read what is on disk with an independent parser, remove.

struct MatrixCelsius: Equatable, Sendable {
    var degrees: Double
}

enum MatrixSuit: String, CaseIterable, KeyValuePersistible {
    case hearts, spades
    static var persistentKeyValueRepresentation: some PersistentKeyValueRepresentation<Self> {
        RawRepresentablePersistentKeyValueRepresentation()
    }
}

enum MatrixPriority: Int, KeyValuePersistible {
    case low = 1, high = 9
    static var persistentKeyValueRepresentation: some PersistentKeyValueRepresentation<Self> {
        RawRepresentablePersistentKeyValueRepresentation()
    }
}

struct MatrixProfile: Codable, Equatable, KeyValuePersistible {
    var name: String
    var age: Int
    var tags: [String]
    var joined: Date

    static var persistentKeyValueRepresentation: some PersistentKeyValueRepresentation<Self> {
        CodablePersistentKeyValueRepresentation()
    }

    static let ann = MatrixProfile(name: "Ann", age: 41, tags: ["a", "b"], joined: Date(timeIntervalSinceReferenceDate: 1234.5))
    static let bob = MatrixProfile(name: "Bob", age: 7, tags: [], joined: Date(timeIntervalSinceReferenceDate: -5))
}

/// One row of the matrix: a key, a value to store, and optionally the exact stored form.
struct MatrixCase: Sendable, CustomTestStringConvertible {
    let name: String
    let run: @Sendable (StoreFixture) throws -> Void

    var testDescription: String { name }

    static func roundTrip<Key: PersistentKeyProtocol>(
        _ name: String,
        _ key: Key,
        _ value: Key.Value,
        stored expectedStored: PropertyListValue? = nil
    ) -> MatrixCase where Key.Value: Equatable {
        MatrixCase(name: name) { fixture in
            let store = fixture.store
            let recorder = FailureRecorder()
            try recorder.record {
                #expect(store.get(key) == key.defaultValue, "an empty store gives the default")
                #expect(!store.contains(key))

                store.set(key, to: value)
                #expect(store.get(key) == value)
                #expect(store.contains(key))
                if let expectedStored {
                    #expect(store.persistentValue(forKey: key.id) == expectedStored)
                }
                #expect(fixture.freshInstance().get(key) == value, "a second instance of the store")
                if let persisted = try fixture.persistedStore(), let fileURL = fixture.fileURL {
                    #expect(fixture.kind == .file ? FileStoreOnDisk.exists(fileURL) : FileManager.default.fileExists(atPath: fileURL.path))
                    #expect(persisted.get(key) == value, "what is on disk")
                }

                store.remove(key)
                #expect(store.get(key) == key.defaultValue)
                #expect(!store.contains(key))
                if let persisted = try fixture.persistedStore() {
                    #expect(!persisted.contains(key), "removed from disk too")
                }
            }
            #expect(recorder.failures.isEmpty, "\(recorder.failures)")
        }
    }

    /// `T`, `T?`, `[T]` and `[String: T]`.
    static func forms<T: KeyValuePersistible & Equatable>(
        _ name: String,
        default defaultValue: T,
        _ value: T,
        _ other: T,
        stored: PropertyListValue? = nil
    ) -> [MatrixCase] {
        [
            roundTrip(name, PersistentKey<T>("value", defaultValue: defaultValue), value, stored: stored),
            roundTrip("\(name)?", PersistentKey<T?>("value", defaultValue: nil), value, stored: stored),
            roundTrip("[\(name)]", PersistentKey<[T]>("value", defaultValue: []), [value, other, value], stored: stored.map { .array([$0, try! T.persistentKeyValueRepresentation.persistentValue(for: other)!, $0]) }),
            roundTrip("[String: \(name)]", PersistentKey<[String: T]>("value", defaultValue: [:]), ["a": value, "b": other], stored: nil),
        ]
    }

    static let all: [MatrixCase] = primitives + foundation + nested + representations

    static let primitives: [MatrixCase] =
        forms("Bool", default: false, true, false, stored: .bool(true))
        + forms("Int", default: 0, Int.min, Int.max, stored: .int(Int.min))
        + forms("Int8", default: Int8(0), Int8.min, Int8.max, stored: .int(-128))
        + forms("Int16", default: Int16(0), Int16.min, Int16.max, stored: .int(Int(Int16.min)))
        + forms("Int32", default: Int32(0), Int32.min, Int32.max, stored: .int(Int(Int32.min)))
        + forms("Int64", default: Int64(0), Int64.max, Int64.min, stored: .int(Int.max))
        + forms("UInt", default: UInt(0), UInt.max, 7, stored: .uint(UInt64.max))
        + forms("UInt8", default: UInt8(0), UInt8.max, 0, stored: .int(255))
        + forms("UInt16", default: UInt16(0), UInt16.max, 0, stored: .int(65535))
        + forms("UInt32", default: UInt32(0), UInt32.max, 0, stored: .int(Int(UInt32.max)))
        + forms("UInt64", default: UInt64(0), UInt64.max, UInt64(Int.max) + 1, stored: .uint(UInt64.max))
        + forms("Double", default: 0.0, -1.5e300, .pi, stored: .double(-1.5e300))
        + forms("Double fraction", default: 0.0, 0.1, -Double.leastNonzeroMagnitude, stored: .double(0.1))
        + forms("Float", default: Float(0), Float(3.14159), -Float.greatestFiniteMagnitude, stored: .double(Double(Float(3.14159))))
        + forms("String", default: "", "héllo 🌍\n\t\"<&>\"", "second", stored: .string("héllo 🌍\n\t\"<&>\""))
        + forms("String empty", default: "x", "", " ", stored: .string(""))
        + forms("Data", default: Data(), Data([0, 1, 255]), Data(), stored: .data(Data([0, 1, 255])))

    static let foundation: [MatrixCase] =
        forms(
            "Date", default: Date.distantPast, Date(timeIntervalSinceReferenceDate: 800_000_000.123), .distantFuture,
            stored: .double(800_000_000.123)
        )
        + forms(
            "URL https", default: URL(string: "about:blank")!, URL(string: "https://example.com/x?q=1#f")!, URL(string: "file:///tmp/a%20b")!,
            stored: .string("https://example.com/x?q=1#f")
        )
        + forms(
            "UUID", default: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!, UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, UUID(),
            stored: .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        )
        + forms("Character", default: Character("?"), Character("👍🏽"), Character("é"), stored: .string("👍🏽"))

    static let nested: [MatrixCase] = [
        roundTrip("[[Int]]", PersistentKey<[[Int]]>("value", defaultValue: []), [[1, 2], [], [3]], stored: .array([.array([.int(1), .int(2)]), .array([]), .array([.int(3)])])),
        roundTrip("[String: [String]]", PersistentKey<[String: [String]]>("value", defaultValue: [:]), ["a": ["x", "y"], "b": []]),
        roundTrip("[[String: Double]]", PersistentKey<[[String: Double]]>("value", defaultValue: []), [["x": 1.5], [:]]),
        roundTrip("[String: [String: [Int]]]", PersistentKey<[String: [String: [Int]]]>("value", defaultValue: [:]), ["a": ["b": [1, 2, 3]]]),
        roundTrip("[[Date]]", PersistentKey<[[Date]]>("value", defaultValue: []), [[Date(timeIntervalSinceReferenceDate: 1)], [.distantFuture]]),
        roundTrip("[URL?]?", PersistentKey<[URL]?>("value", defaultValue: nil), [URL(string: "https://a.example/")!]),
        roundTrip("empty [Int]", PersistentKey<[Int]>("value", defaultValue: [1]), [], stored: .array([])),
        roundTrip("empty [String: Int]", PersistentKey<[String: Int]>("value", defaultValue: ["a": 1]), [:], stored: .dictionary([:])),
    ]

    static let representations: [MatrixCase] = [
        roundTrip(
            "Proxy Celsius→Double",
            PersistentKey<MatrixCelsius>(
                "value", defaultValue: MatrixCelsius(degrees: 0),
                representation: ProxyPersistentKeyValueRepresentation(to: \.degrees, from: MatrixCelsius.init(degrees:))
            ),
            MatrixCelsius(degrees: -40.5), stored: .double(-40.5)
        ),
        roundTrip(
            "Proxy Celsius→Double, optional",
            PersistentKey<MatrixCelsius?>(
                "value", defaultValue: nil,
                representation: ProxyPersistentKeyValueRepresentation(to: \.degrees, from: MatrixCelsius.init(degrees:))
            ),
            MatrixCelsius(degrees: 21), stored: .double(21)
        ),
        roundTrip(
            "Proxy Int→[String] (nested proxy)",
            PersistentKey<Int>(
                "value", defaultValue: 0,
                representation: ProxyPersistentKeyValueRepresentation<Int, [String]>(to: { [String($0)] }, from: { $0.first.flatMap { Int($0) } })
            ),
            42, stored: .array([.string("42")])
        ),
        roundTrip("RawRepresentable String", PersistentKey<MatrixSuit>("value", defaultValue: .hearts), .spades, stored: .string("spades")),
        roundTrip("RawRepresentable Int", PersistentKey<MatrixPriority>("value", defaultValue: .low), .high, stored: .int(9)),
        roundTrip("RawRepresentable optional", PersistentKey<MatrixSuit?>("value", defaultValue: nil), .spades, stored: .string("spades")),
        roundTrip("[RawRepresentable]", PersistentKey<[MatrixSuit]>("value", defaultValue: []), [.spades, .hearts], stored: .array([.string("spades"), .string("hearts")])),
        roundTrip(
            "Codable JSON", PersistentKey<MatrixProfile>("value", defaultValue: .bob), .ann,
            stored: .data(Data(#"{"age":41,"joined":1234.5,"name":"Ann","tags":["a","b"]}"#.utf8))
        ),
        roundTrip("Codable JSON optional", PersistentKey<MatrixProfile?>("value", defaultValue: nil), .ann),
        roundTrip("[String: Codable JSON]", PersistentKey<[String: MatrixProfile]>("value", defaultValue: [:]), ["ann": .ann, "bob": .bob]),
        roundTrip(
            "Codable PropertyList",
            PersistentKey<MatrixProfile>(
                "value", defaultValue: .bob,
                representation: CodablePersistentKeyValueRepresentation(encoder: PropertyListEncoder(), decoder: PropertyListDecoder())
            ),
            .ann
        ),
        roundTrip(
            "Codable PropertyList optional",
            PersistentKey<MatrixProfile?>(
                "value", defaultValue: nil,
                representation: CodablePersistentKeyValueRepresentation(encoder: PropertyListEncoder(), decoder: PropertyListDecoder())
            ),
            .bob
        ),
        roundTrip(
            "LosslessString Int",
            PersistentKey<Int>("value", defaultValue: 0, representation: LosslessStringConvertiblePersistentKeyValueRepresentation<Int>()),
            -17, stored: .string("-17")
        ),
        roundTrip(
            "LosslessString Double",
            PersistentKey<Double>("value", defaultValue: 0, representation: LosslessStringConvertiblePersistentKeyValueRepresentation<Double>()),
            0.1, stored: .string("0.1")
        ),
        roundTrip(
            "ISO8601 Date",
            PersistentKey<Date>("value", defaultValue: .distantPast, representation: ISO8601DatePersistentKeyValueRepresentation()),
            Date(timeIntervalSince1970: 1_700_000_000.5), stored: .string("2023-11-14T22:13:20.500Z")
        ),
        roundTrip(
            "ISO8601 Date? (seed)",
            PersistentKey<Date?>("value", defaultValue: nil, representation: ISO8601DatePersistentKeyValueRepresentation()),
            Date(timeIntervalSince1970: 0), stored: .string("1970-01-01T00:00:00.000Z")
        ),
        roundTrip(
            "TimeInterval Date",
            PersistentKey<Date>("value", defaultValue: .distantPast, representation: TimeIntervalDatePersistentKeyValueRepresentation()),
            Date(timeIntervalSinceReferenceDate: -1.25), stored: .double(-1.25)
        ),
    ]
}

@Suite("Value matrix: every type, form and representation on every store")
struct ValueMatrixTests {
    @Test(arguments: StoreKind.allCases, MatrixCase.all)
    func roundTrip(kind: StoreKind, row: MatrixCase) throws {
        let fixture = kind.makeFixture()
        try row.run(fixture)
    }

    @Test(arguments: StoreKind.allCases)
    func settingAnOptionalToNilRemovesIt(kind: StoreKind) {
        let fixture = kind.makeFixture()
        let key = PersistentKey<String?>("value", defaultValue: nil)
        fixture.store.set(key, to: "x")
        fixture.store.set(key, to: nil)
        #expect(fixture.store.get(key) == nil)
        #expect(!fixture.store.contains(key))
        #expect(fixture.store.persistentValue(forKey: "value") == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func anOptionalKeyWithANonNilDefaultReadsTheDefaultAfterNil(kind: StoreKind) {
        let fixture = kind.makeFixture()
        let key = PersistentKey<Int?>("value", defaultValue: 3)
        #expect(fixture.store.get(key) == 3)
        fixture.store.set(key, to: 4)
        #expect(fixture.store.get(key) == 4)
        fixture.store.set(key, to: nil)
        #expect(fixture.store.get(key) == 3, "nil is stored as no value, so the default shows through")
    }
}
