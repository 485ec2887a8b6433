import Foundation
import KeyCatalog
import Testing

/// Every write scans its strings (and, in UserDefaults on Linux, its key) eight bytes at a time
/// for what a property list cannot hold. These put each such scalar at every position of strings
/// of every length around the eight-byte words, so a scan that skips a byte or a word's tail fails.
@Suite struct StringScanTests {
    /// Every scalar no property list may hold (the C0 controls but tab, line feed and carriage
    /// return; U+FFFE and U+FFFF), and how the failure names it.
    static let forbidden: [(scalar: Unicode.Scalar, name: String)] =
        ((0x00...0x1F).filter { ![0x09, 0x0A, 0x0D].contains($0) } + [0xFFFE, 0xFFFF]).map { value in
            let hex = String(value, radix: 16, uppercase: true)
            return (Unicode.Scalar(value)!, "U+" + String(repeating: "0", count: 4 - hex.count) + hex)
        }

    /// Scalars that must go through: whitespace controls, and neighbours of the forbidden bytes
    /// (0x20, 0x7F, U+EFFF and U+F000 whose UTF-8 starts with 0xEE and 0xEF, U+FEFF inside a string).
    static let allowed: [Unicode.Scalar] = ["\t", "\n", "\r", " ", "\u{7F}", "\u{EFFF}", "\u{F000}", "\u{FEFF}", "é", "🎉"]

    static func strings(placing scalar: Unicode.Scalar) -> [String] {
        (0...24).flatMap { length in
            (0..<max(length, 1)).map { position in
                var scalars = String.UnicodeScalarView((0..<length).map { Unicode.Scalar(UInt8(ascii: "a") + UInt8($0 % 26)) })
                if length == 0 {
                    scalars.append(scalar)
                } else {
                    scalars.replaceSubrange(scalars.index(scalars.startIndex, offsetBy: position)..<scalars.index(scalars.startIndex, offsetBy: position + 1), with: [scalar])
                }
                return String(scalars)
            }
        }
    }

    @Test func aForbiddenScalarIsFoundAtEveryPositionOfEveryLength() {
        for (scalar, name) in Self.forbidden {
            for string in Self.strings(placing: scalar) {
                let error = #expect(throws: PropertyListValue.IncompatibilityError.self) {
                    try PropertyListValue.string(string).validateForPropertyList()
                }
                #expect(error?.reason.contains(name) == true, "\(string.debugDescription): \(String(describing: error))")
                // As an array element and as a dictionary key, too.
                #expect(throws: PropertyListValue.IncompatibilityError.self) {
                    try PropertyListValue.array([.string("ok"), .string(string)]).validateForPropertyList()
                }
                #expect(throws: PropertyListValue.IncompatibilityError.self) {
                    try PropertyListValue.dictionary([string: .int(1)]).validateForPropertyList()
                }
            }
        }
    }

    @Test func allowedScalarsPassAtEveryPosition() throws {
        for scalar in Self.allowed {
            for string in Self.strings(placing: scalar) {
                #expect(throws: Never.self, "\(string.debugDescription)") {
                    try PropertyListValue.array([.string(string)]).validateForPropertyList()
                }
            }
        }
    }

    /// The in-memory store keeps a `[String]` whose strings the quick scan clears without building
    /// it (small strings read from the `String` value's own two words): every forbidden scalar,
    /// at every position of every length, must still be refused with the eager check's message,
    /// and every allowed one stored as it is.
    @Test func theInMemoryStoreRefusesAForbiddenScalarInAnArrayAtEveryPosition() throws {
        let key = PersistentKey<[String]>("Strings", defaultValue: [])
        for (scalar, name) in Self.forbidden {
            for string in Self.strings(placing: scalar) {
                let store = InMemoryKeyValueStore()
                store.set(key, to: ["kept"])
                let recorder = FailureRecorder()
                recorder.record { store.set(key, to: ["ok", string]) }
                #expect(recorder.failures.count == 1, "\(string.debugDescription)")
                #expect(recorder.failures.first?.message.contains("at [1]: string contains control character \(name)") == true, "\(string.debugDescription)")
                #expect(store.get(key) == ["kept"], "\(string.debugDescription)")
            }
        }
        for scalar in Self.allowed {
            let store = InMemoryKeyValueStore()
            let strings = Self.strings(placing: scalar)
            let recorder = FailureRecorder()
            recorder.record { store.set(key, to: strings) }
            #expect(recorder.failures.isEmpty, "\(scalar.debugDescription)")
            #expect(store.get(key) == strings)
            #expect(store.persistentValue(forKey: "Strings") == .array(strings.map(PropertyListValue.string)))
        }
    }

    #if !canImport(Darwin)
    /// UserDefaults on Linux also refuses a leading U+FEFF, in a key or a value, and keeps one
    /// elsewhere: the same scan decides, for strings of every length.
    @Test func aSuiteRefusesALeadingByteOrderMarkAndKeepsOneInside() throws {
        let suite = TemporarySuite(#function)
        let recorder = FailureRecorder()
        for length in 0...20 {
            let tail = String(repeating: "k", count: length)
            let leading = PersistentKey<String>("Leading\(length)", defaultValue: "default")
            let leadingKey = PersistentKey<String>("\u{FEFF}\(tail)", defaultValue: "default")
            let inside = PersistentKey<String>("Inside\(length)", defaultValue: "default")
            recorder.record {
                suite.defaults.set(leading, to: "\u{FEFF}" + tail)
                suite.defaults.set(leadingKey, to: "value")
                suite.defaults.set(inside, to: "x" + tail + "\u{FEFF}" + tail)
            }
            #expect(suite.defaults.get(leading) == "default")
            #expect(suite.defaults.get(leadingKey) == "default")
            #expect(suite.defaults.get(inside) == "x" + tail + "\u{FEFF}" + tail)
        }
        #expect(recorder.failures.count == 42, "\(recorder.failures.count) failures")
        #expect(recorder.failures.allSatisfy { $0.message.contains("leading U+FEFF") })
    }
    #endif

    /// Arrays of one primitive type reach Foundation as that Swift array type, mixed ones as
    /// `[Any]`: both read back equal, in the suite and in its file.
    @Test func arraysOfEachKindSurviveASuiteAndItsFile() throws {
        let suite = TemporarySuite(#function)
        let values: [(String, PropertyListValue)] = [
            ("strings", .array([.string("a"), .string(""), .string("é 🎉")])),
            ("integers", .array([.int(1), .int(-2), .int(.max)])),
            ("doubles", .array([.double(0.5), .double(-1e300)])),
            ("booleans", .array([.bool(true), .bool(false)])),
            ("data", .array([.data(Data([0, 1, 2])), .data(Data())])),
            ("dates", .array([.date(Date(timeIntervalSinceReferenceDate: 86_400)), .date(Date(timeIntervalSinceReferenceDate: -3_600))])),
            ("mixed", .array([.string("a"), .int(1), .bool(true), .array([.string("nested")])])),
            ("starts like strings", .array([.string("a"), .int(1)])),
            ("empty", .array([])),
        ]
        for (key, value) in values {
            try suite.defaults.setPersistentValue(value, forKey: key)
            #expect(suite.defaults.persistentValue(forKey: key) == value, "\(key)")
        }
        #if !canImport(Darwin)
        try suite.defaults.flushPersistentValues()
        let data = try Data(contentsOf: suite.fileURL)
        let file = try #require(PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        for (key, value) in values {
            #expect(file[key].flatMap(PropertyListValue.init(foundationObject:)) == value, "\(key) in the file")
        }
        #endif
    }
}
