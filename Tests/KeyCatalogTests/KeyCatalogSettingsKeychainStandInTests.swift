import Foundation
import Testing

@testable import KeyCatalog

/// Where there is no keychain (Linux), a keychain store is a file standing in for it; its keys
/// stay out of settings documents as a keychain's do (they were exported).
@Suite struct KeyCatalogSettingsKeychainStandInTests {
    @Test func keysOfTheKeychainStandInAreNeitherExportedNorImported() throws {
        let directory = TemporaryDirectory()
        let secrets = AnyPersistentKeyValueStore(keychainStandIn: FileKeyValueStore(url: directory.file("secrets.plist")))
        let token = PersistentKey<String>("Token", defaultValue: "")
        let entries = [KeyCatalogEntry(name: "token", key: token, store: "secrets", typeName: "String")]
        secrets.set(token, to: "secret-token")
        #expect(AnyPersistentKeyValueStore(secrets).isKeychain, "kept through a second wrapping")

        let data = try KeyCatalogSettings.export(catalog: "Keys", entries: entries) { $0 == "secrets" ? secrets : nil }
        #expect(!String(decoding: data, as: UTF8.self).contains("secret-token"))
        let document = Data(#"{ "format": "keycatalog-settings", "version": 1, "values": { "token": "other" } }"#.utf8)
        let report = try KeyCatalogSettings.importSettings(from: document, entries: entries) { $0 == "secrets" ? secrets : nil }
        #expect(report.applied.isEmpty && report.skipped.map(\.name) == ["token"])
        #expect(secrets.get(token) == "secret-token")
    }
}
