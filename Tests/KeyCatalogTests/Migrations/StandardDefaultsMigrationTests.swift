import Foundation
import KeyCatalog
import Testing

/// Migrations into `UserDefaults.standard`, every catalog's default store, where a registered
/// default must not pass for a stored value, nor a stored value for a registered default.
///
/// `.standard` and the registration domain are process-wide, so each case runs in a child process
/// (KeyCatalogMigrationHelper) with a configuration folder of its own: it cannot disturb, or be
/// disturbed by, any other test, nor touch the real home folder.
@Suite("Migrations into UserDefaults.standard")
struct StandardDefaultsMigrationTests {
    @Test func anExplicitValueEqualToTheRegisteredDefaultIsKept() throws {
        let lines = try Self.runInChild("stored-equal-to-default")
        #expect(
            lines == [
                "contains true",
                "outcome \(KeyMigrationReport.Outcome.skippedKeyHasValue)",
                "value 0",
                "source 42",
            ])
    }

    @Test func aRegisteredDefaultAloneDoesNotStopTheMigration() throws {
        let lines = try Self.runInChild("registered-only")
        #expect(
            lines == [
                "contains false",
                "outcome \(KeyMigrationReport.Outcome.migrated)",
                "value 42",
                "source nil",
            ])
    }

    /// Runs the helper's `standard` scenario; returns its output lines, asserting a clean exit.
    static func runInChild(_ scenario: String) throws -> [String] {
        let home = TemporaryDirectory()
        let child = try MigrationHelperExecutable.run(
            ["standard", "StandardMigration", scenario],
            environment: ["XDG_CONFIG_HOME": home.url.path]
        )
        #expect(child.status == 0, "\(child.errors)")
        #expect(child.errors.isEmpty)
        return child.output.split(separator: "\n").map(String.init)
    }
}
