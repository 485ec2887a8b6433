/// A migration from a local store into a key in a `ubiquitous` store.
///
/// Migrations run at launch, and on a device's first launch iCloud's initial download has not
/// arrived yet: the key looks empty, so the migration writes this device's old local value, and
/// iCloud then spreads it over the value every other device already synced (the first-launch
/// overwrite). Waiting for the download is no fix: iCloud announces it only the first time a
/// device uses an account, and never without the entitlement, so nothing says when to stop waiting.
///
/// ```json
/// { "name": "theme", "type": "String", "default": "light", "store": "cloud",
///   "migrations": [{ "fromKey": "Theme", "fromStore": "standard" }] }
/// // error: key 'theme' in ubiquitous store 'cloud' migrates from local store 'standard'; …
/// ```
struct UbiquitousMigrationRule: LintRule {
    let id = "ubiquitous-migration"
    let summary = "A key in a ubiquitous store migrates from a local store (at first launch that would overwrite iCloud's value)."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for key in context.keys where context.storeKinds[key.store] == "ubiquitous" {
            for migration in key.value["migrations"]?.elements ?? [] {
                guard let fromStore = migration["fromStore"], let name = fromStore.string,
                    let kind = context.storeKinds[name], kind != "ubiquitous"
                else { continue }
                findings.append(error("\(key.label) in ubiquitous store '\(key.store)' migrates from local store '\(name.truncatedForMessage)'; on a device's first launch the migration runs before iCloud's initial download arrives, so the device's old value would overwrite the one in iCloud; migrate into a key in store '\(name.truncatedForMessage)' instead, and copy its value to iCloud from app code once iCloud's values have arrived", at: fromStore.location))
            }
        }
        return findings
    }
}
