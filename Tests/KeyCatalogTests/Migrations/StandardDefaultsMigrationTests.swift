import Foundation
import KeyCatalog
import Testing

/// Migrations into `UserDefaults.standard`, every catalog's default store, where a registered
/// default must not pass for a stored value, nor a stored value for a registered default.
@Suite("Migrations into UserDefaults.standard")
struct StandardDefaultsMigrationTests {
    let standard = UserDefaults.standard
    let name = "StandardMigration.\(UUID().uuidString)"

    private func migration(_ key: PersistentKey<Int>) -> KeyMigration {
        KeyMigration(name: "count", key: key, store: "standard", sources: [
            KeyMigrationSource(fromKey: "\(name).old", store: "standard", representationOf: key)
        ])
    }

    private func cleanUp(_ key: PersistentKey<Int>) {
        standard.removeObject(forKey: key.id)
        standard.removeObject(forKey: "\(name).old")
        standard.synchronize()
    }

    @Test func anExplicitValueEqualToTheRegisteredDefaultIsKept() throws {
        let key = PersistentKey<Int>("\(name).count", defaultValue: 0)
        defer { cleanUp(key) }
        standard.register(key)
        standard.set(key, to: 0)
        standard.set(42, forKey: "\(name).old")

        #expect(standard.contains(key))
        let report = KeyMigrator.run([migration(key)]) { _ in standard }
        #expect(report.entries.map(\.outcome) == [.skippedKeyHasValue])
        #expect(standard.get(key) == 0)
        #expect(standard.integer(forKey: "\(name).old") == 42, "the source stays")
    }

    @Test func aRegisteredDefaultAloneDoesNotStopTheMigration() throws {
        let key = PersistentKey<Int>("\(name).count", defaultValue: 0)
        defer { cleanUp(key) }
        standard.register(key)
        standard.set(42, forKey: "\(name).old")

        #expect(!standard.contains(key))
        let report = KeyMigrator.run([migration(key)]) { _ in standard }
        #expect(report.entries.map(\.outcome) == [.migrated])
        #expect(standard.get(key) == 42)
        #expect(standard.object(forKey: "\(name).old") == nil)
    }
}
