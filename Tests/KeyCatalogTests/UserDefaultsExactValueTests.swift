import Foundation
import KeyCatalog
import Testing

/// A UserDefaults suite on Linux is an XML property list, and Foundation drops a leading U+FEFF
/// from every string and key when it reads one back (a later process would read "x" for
/// "\u{FEFF}x"). Found by Scripts/fuzz.py: such a write is refused and reported, never changed.
@Suite struct UserDefaultsExactValueTests {
    #if !canImport(Darwin)
    @Test(arguments: [
        ("\u{FEFF}x", "Plain"),  // a value with a leading byte-order mark
        ("plain", "\u{FEFF}BomKey"),  // a storage key with one
    ])
    func aLeadingByteOrderMarkIsRefusedAndReported(value: String, key: String) throws {
        let suite = TemporarySuite(#function)
        let recorder = FailureRecorder()
        let stringKey = PersistentKey<String>(key, defaultValue: "default")
        recorder.record { suite.defaults.set(stringKey, to: value) }
        #expect(recorder.failures.count == 1)
        #expect(recorder.failures.first?.operation == .write)
        #expect(recorder.failures.first?.message.contains("leading U+FEFF") == true, "\(recorder.failures)")
        #expect(suite.defaults.get(stringKey) == "default", "not written")
    }

    /// KeyCatalog hands collections to UserDefaults as CoreFoundation's own arrays and dictionaries on Linux:
    /// Foundation's own accessors read them back as the Swift values written, in this instance and
    /// in another one of the suite, and so does a new process from the file.
    @Test func collectionsWrittenByKeyCatalogAreReadByFoundationsOwnAccessors() throws {
        let suite = TemporarySuite(#function)
        let names = PersistentKey<[String]>("Names", defaultValue: [])
        let counts = PersistentKey<[Int]>("Counts", defaultValue: [])
        let nested = PersistentKey<[String: [Double]]>("Nested", defaultValue: [:])
        let mixed = PersistentKey<[[String: String]]>("Mixed", defaultValue: [])
        suite.defaults.set(names, to: ["a", "é", ""])
        suite.defaults.set(counts, to: [1, -2, Int.max])
        suite.defaults.set(nested, to: ["x": [0.5, -1], "y": []])
        suite.defaults.set(mixed, to: [["k": "v"], [:]])
        for defaults in [suite.defaults, UnopenedSuiteInstance(suite).defaults] {
            #expect(defaults.stringArray(forKey: "Names") == ["a", "é", ""])
            // Elements as NSNumber on Linux, whichever array was set (`as? [Int]` gives nil).
            #expect(defaults.array(forKey: "Counts")?.map { ($0 as? NSNumber)?.intValue ?? ($0 as? Int) } == [1, -2, Int.max])
            #expect(defaults.dictionary(forKey: "Nested") as? [String: [Double]] == ["x": [0.5, -1], "y": []])
            #expect(defaults.array(forKey: "Mixed") as? [[String: String]] == [["k": "v"], [:]])
        }
        try suite.defaults.flushPersistentValues()
        let file = try PropertyListSerialization.propertyList(from: Data(contentsOf: suiteFileURL(named: suite.name)), format: nil) as? [String: Any]
        #expect(file?["Names"] as? [String] == ["a", "é", ""])
        #expect(file?["Counts"] as? [Int] == [1, -2, Int.max])
        #expect(file?["Nested"] as? [String: [Double]] == ["x": [0.5, -1], "y": []])
        #expect(file?["Mixed"] as? [[String: String]] == [["k": "v"], [:]])
    }

    /// A string written over one that differs only in Unicode normalization (a composed and a
    /// decomposed accent: one `String` to Swift) is stored as written, alone or nested, as on
    /// Apple platforms: CoreFoundation kept the old object when the new one was equal to it as a
    /// Swift string, and a later process read the old bytes from the file.
    @Test func aStringWrittenOverItsOtherNormalizationIsStoredAsWritten() throws {
        let suite = TemporarySuite(#function)
        let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
        let string = PersistentKey<String>("String", defaultValue: "")
        let nested = PersistentKey<[String: [String]]>("Nested", defaultValue: [:])
        suite.defaults.set(string, to: composed)
        suite.defaults.set(nested, to: ["k": [composed]])
        suite.defaults.set(string, to: decomposed)
        suite.defaults.set(nested, to: ["k": [decomposed]])
        #expect(Array(suite.defaults.get(string).utf8) == Array(decomposed.utf8))
        #expect(suite.defaults.get(nested)["k"].map { $0.map { Array($0.utf8) } } == [Array(decomposed.utf8)])
        #expect(suite.defaults.string(forKey: "String").map { Array($0.utf8) } == Array(decomposed.utf8), "Foundation's own read")
        try suite.defaults.flushPersistentValues()
        let file = try PropertyListSerialization.propertyList(from: Data(contentsOf: suiteFileURL(named: suite.name)), format: nil) as? [String: Any]
        #expect((file?["String"] as? String).map { Array($0.utf8) } == Array(decomposed.utf8), "the file")
        #expect(((file?["Nested"] as? [String: [String]])?["k"]?.first).map { Array($0.utf8) } == Array(decomposed.utf8))
    }

    @Test func aByteOrderMarkInsideAStringOrNestedIsHandled() throws {
        let suite = TemporarySuite(#function)
        let recorder = FailureRecorder()
        let inner = PersistentKey<String>("Inner", defaultValue: "")
        let nested = PersistentKey<[String: [String]]>("Nested", defaultValue: [:])
        recorder.record {
            suite.defaults.set(inner, to: "a\u{FEFF}b")  // not leading: XML keeps it
            suite.defaults.set(nested, to: ["k": ["\u{FEFF}v"]])  // leading, nested: refused
        }
        #expect(suite.defaults.get(inner) == "a\u{FEFF}b")
        #expect(suite.defaults.get(nested) == [:])
        #expect(recorder.failures.count == 1, "\(recorder.failures)")
    }

    /// Foundation writes -0.0 as `<real>0.0</real>` (found by Scripts/fuzz.py, seed 254: a fresh
    /// process read 0.0): refused and reported, alone or nested. Every other float, the extremes,
    /// subnormals, infinities and NaN included, reads back bit for bit from the file.
    @Test func negativeZeroIsRefusedAndOtherFloatsSurviveTheFile() throws {
        let suite = TemporarySuite(#function)
        let recorder = FailureRecorder()
        let double = PersistentKey<Double>("Double", defaultValue: 1)
        let float = PersistentKey<Float>("Float", defaultValue: 1)
        let nested = PersistentKey<[String: [Double]]>("Nested", defaultValue: [:])
        recorder.record {
            suite.defaults.set(double, to: -0.0)
            suite.defaults.set(float, to: -0.0)
            suite.defaults.set(nested, to: ["k": [1, -0.0]])
        }
        #expect(recorder.failures.count == 3, "\(recorder.failures)")
        #expect(recorder.failures.allSatisfy { $0.operation == .write && $0.message.contains("negative zero") }, "\(recorder.failures)")
        #expect(suite.defaults.get(double) == 1 && suite.defaults.get(float) == 1 && suite.defaults.get(nested) == [:])

        let doubles: [Double] = [0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 2.2250738585072014e-308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, 0.1]
        let floats: [Float] = [0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.infinity, 0.1]
        recorder.record {
            suite.defaults.set(PersistentKey<[Double]>("Doubles", defaultValue: []), to: doubles)
            suite.defaults.set(PersistentKey<[Float]>("Floats", defaultValue: []), to: floats)
            suite.defaults.set(PersistentKey<Double>("NaN", defaultValue: 0), to: .nan)
        }
        #expect(recorder.failures.count == 3, "nothing else refused: \(recorder.failures)")
        try suite.defaults.flushPersistentValues()
        let file = try PropertyListSerialization.propertyList(from: Data(contentsOf: suite.fileURL), format: nil) as? [String: Any]
        let readDoubles = (file?["Doubles"] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue }
        let readFloats = (file?["Floats"] as? [Any])?.compactMap { ($0 as? NSNumber)?.floatValue }
        #expect(readDoubles?.map(\.bitPattern) == doubles.map(\.bitPattern))
        #expect(readFloats?.map(\.bitPattern) == floats.map(\.bitPattern))
        #expect((file?["NaN"] as? NSNumber)?.doubleValue.isNaN == true)
    }

    /// An XML `<date>` holds whole seconds: a stored date with a fraction is refused (KeyCatalog's
    /// own Date representations store numbers or strings, so this is a raw `PropertyListValue`
    /// write, as a migration from another library's native dates makes).
    @Test func aNativeDateWithAFractionOfASecondIsRefused() throws {
        let suite = TemporarySuite(#function)
        #expect(throws: PersistentKeyValueEncodingError.self) {
            try suite.defaults.setPersistentValue(.date(Date(timeIntervalSinceReferenceDate: 785_000_000.25)), forKey: "When")
        }
        #expect(suite.defaults.object(forKey: "When") == nil)
        let whole = Date(timeIntervalSinceReferenceDate: 785_000_000)
        try suite.defaults.setPersistentValue(.date(whole), forKey: "When")
        try suite.defaults.flushPersistentValues()
        let file = try PropertyListSerialization.propertyList(from: Data(contentsOf: suite.fileURL), format: nil) as? [String: Any]
        #expect(file?["When"] as? Date == whole)
    }

    /// `contains` tells a key from another spelling equal to it as a `String`, stored or
    /// registered beside it (found by a review: the suite's domain as a Swift dictionary took the
    /// one for the other).
    @Test func containsTellsKeysThatAreEqualAsStringsApart() throws {
        let suite = TemporarySuite(#function)
        suite.defaults.registerPersistentValues(["caf\u{E9}": .int(1)])
        try suite.defaults.setPersistentValue(.int(2), forKey: "cafe\u{301}")
        #expect(!suite.defaults.hasPersistentValue(forKey: "caf\u{E9}"))
        #expect(suite.defaults.hasPersistentValue(forKey: "cafe\u{301}"))
        #expect(suite.defaults.persistentValue(forKey: "caf\u{E9}") == .int(1))
        suite.defaults.removePersistentValue(forKey: "cafe\u{301}")
        #expect(!suite.defaults.hasPersistentValue(forKey: "cafe\u{301}"))
    }

    /// Foundation on Linux writes an infinite date, or one of `±greatestFiniteMagnitude` seconds,
    /// as `<date>` text no reader takes: the whole file, every key, then read as nothing in a
    /// later process. Dates over about 2.1 billion years from 2001 read back changed. Such a date
    /// is refused, alone or nested, and the suite stays readable; the farthest whole-second dates
    /// allowed read back exactly from the file.
    @Test func aNativeDateXMLCannotHoldIsRefusedAndTheSuiteStaysReadable() throws {
        let suite = TemporarySuite(#function)
        let count = PersistentKey<Int>("LaunchCount", defaultValue: 0)
        suite.defaults.set(count, to: 41)
        for seconds in [Double.infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e17, -6.8e16] {
            let date = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: seconds))
            #expect(throws: PersistentKeyValueEncodingError.self, "\(seconds)") { try suite.defaults.setPersistentValue(date, forKey: "Expiry") }
            #expect(throws: PersistentKeyValueEncodingError.self, "\(seconds)") {
                try suite.defaults.setPersistentValue(.dictionary(["at": date]), forKey: "Schedule")
            }
        }
        let farthest = [6.7e16, -6.7e16, Date.distantPast.timeIntervalSinceReferenceDate, Date.distantFuture.timeIntervalSinceReferenceDate]
        for (index, seconds) in farthest.enumerated() {
            try suite.defaults.setPersistentValue(.date(Date(timeIntervalSinceReferenceDate: seconds)), forKey: "Date\(index)")
        }
        try suite.defaults.flushPersistentValues()
        let file = try PropertyListSerialization.propertyList(from: Data(contentsOf: suite.fileURL), format: nil) as? [String: Any]
        #expect(file?["LaunchCount"] as? Int == 41)
        #expect(file?["Expiry"] == nil && file?["Schedule"] == nil)
        #expect(farthest.indices.map { (file?["Date\($0)"] as? Date)?.timeIntervalSinceReferenceDate } == farthest)
    }
    #endif
}
