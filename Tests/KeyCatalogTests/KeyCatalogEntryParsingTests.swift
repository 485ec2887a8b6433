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
        ])
    func accepted(entry: KeyCatalogEntry, text: String, description: String) throws {
        let store = InMemoryKeyValueStore()
        try entry.setValue(parsing: text, in: store)
        #expect(entry.currentValueDescription(in: store) == description)
    }
}
