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
    #endif
}
