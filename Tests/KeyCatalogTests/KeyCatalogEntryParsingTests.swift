import Foundation
import KeyCatalog
import Testing

/// A raw-value enum like the ones catalogs generate.
private enum Shade: String, CaseIterable, KeyValuePersistible {
    case system, light, dark

    static var persistentKeyValueRepresentation: RawRepresentablePersistentKeyValueRepresentation<Shade> { .init() }
}

/// `KeyCatalogEntry.setValue(parsing:in:)` says why text is no value of the key, in the type's terms.
@Suite("Setting a key from text")
struct KeyCatalogEntryParsingTests {
    static func entry<Value: KeyValuePersistible>(_ type: Value.Type, default value: Value) -> KeyCatalogEntry {
        KeyCatalogEntry(name: "k", key: PersistentKey<Value>("k", defaultValue: value), store: "memory", typeName: "\(Value.self)")
    }

    @Test(
        "rejections say why",
        arguments: [
            (entry(Int.self, default: 0), "3.5", "'3.5' is not a valid value for 'k': not an integer; Int holds whole numbers in -9223372036854775808...9223372036854775807"),
            (entry(Int.self, default: 0), "three", "'three' is not a valid value for 'k': not an integer; Int holds whole numbers in -9223372036854775808...9223372036854775807"),
            (entry(Int8?.self, default: nil), "300", "'300' is not a valid value for 'k': out of range for Int8 (-128...127)"),
            (entry(UInt8.self, default: 0), "-1", "'-1' is not a valid value for 'k': out of range for UInt8 (0...255)"),
            (entry(Shade.self, default: .system), "purple", "'purple' is not a valid value for 'k': not a case of Shade; the cases are: system, light, dark"),
            (entry(URL?.self, default: nil), "notaurl", "'notaurl' is not a valid value for 'k': not an absolute URL; write it with its scheme, like https://example.com/path"),
            (entry(Bool.self, default: false), "yes", "'yes' is not a valid value for 'k': not a Bool; write true or false"),
            (entry(Double.self, default: 0), "fast", "'fast' is not a valid value for 'k': not a number; write it like 1.5"),
            (entry(Date.self, default: Date(timeIntervalSince1970: 0)), "tomorrow", "'tomorrow' is not a valid value for 'k': not an ISO 8601 date with a time zone; write it like 2026-01-01T00:00:00Z"),
            (entry(Float.self, default: 0), "1e39", "'1e39' is not a valid value for 'k': out of range for Float (nonzero magnitudes from 1e-45 to 3.4028235e+38)"),
            (entry(Float.self, default: 0), "1e-50", "'1e-50' is not a valid value for 'k': out of range for Float (nonzero magnitudes from 1e-45 to 3.4028235e+38)"),
            (entry(Int?.self, default: 5), "nothing", "'nothing' is not a valid value for 'k': not an integer; Int holds whole numbers in -9223372036854775808...9223372036854775807"),
        ])
    func rejection(entry: KeyCatalogEntry, text: String, message: String) {
        let store = InMemoryKeyValueStore()
        #expect {
            try entry.setValue(parsing: text, in: store)
        } throws: { error in
            "\(error)" == message
        }
        #expect(!entry.isStored(in: store), "nothing is written")
    }

    @Test(
        "valid text is stored",
        arguments: [
            (entry(Int8?.self, default: nil), "-128", "-128"),
            (entry(Shade.self, default: .system), "dark", "dark"),
            (entry(URL?.self, default: nil), "https://example.com/x", "https://example.com/x"),
            (entry(Int.self, default: 0), "3", "3"),
            // What JSON does not allow, but a person writes.
            (entry(Int.self, default: 0), "+5", "5"),
            (entry(Int.self, default: 0), "042", "42"),
            (entry(UInt64.self, default: 0), "+18446744073709551615", "18446744073709551615"),
            // The documented form of a date, for a key with the default representation.
            (entry(Date.self, default: Date(timeIntervalSince1970: 0)), "2026-01-01T00:00:00Z", "\(Date(timeIntervalSince1970: 1_767_225_600))"),
            // Exactly the double written (Linux's JSONSerialization read 0.3000000000000001).
            (entry(Double.self, default: 0), "0.30000000000000004", "0.30000000000000004"),
            (entry(Float.self, default: 0), "1e38", "1e+38"),
            // `null` is no value for any optional key (it then reads its default); for other keys
            // it is the text.
            (entry(Int?.self, default: 5), "null", "5"),
            (entry(String?.self, default: "x"), "null", "\"x\""),
            (entry(String.self, default: "x"), "null", "\"null\""),
            (entry(String?.self, default: "x"), #""null""#, "\"null\""),
        ])
    func accepted(entry: KeyCatalogEntry, text: String, description: String) throws {
        let store = InMemoryKeyValueStore()
        try entry.setValue(parsing: text, in: store)
        #expect(entry.currentValueDescription(in: store) == description)
    }

    @Test("null removes an optional key's value")
    func nullRemoves() throws {
        let store = InMemoryKeyValueStore()
        let entry = Self.entry(String?.self, default: "x")
        try entry.setValue(parsing: "stored", in: store)
        #expect(entry.isStored(in: store))
        try entry.setValue(parsing: "null", in: store)
        #expect(!entry.isStored(in: store))
    }

    @Test("a debug key in a Release build is fixed: text for it is refused, not dropped")
    func debugKeyInReleaseRefusesText() {
        let store = InMemoryKeyValueStore(["Flag": .int(99)])
        let key = PersistentDebugKey("Flag", debugDefaultValue: 1, releaseDefaultValue: 2, configuration: .release)
        let entry = KeyCatalogEntry(name: "flag", key: key, store: "memory", typeName: "Int", isDebugKey: true)
        #expect {
            try entry.setValue(parsing: "8", in: store)
        } throws: { error in
            "\(error)" == "'8' is not a valid value for 'flag': a debug key, fixed at its release default in this build"
        }
        #expect(store.storedValues == ["Flag": .int(99)])
    }
}
