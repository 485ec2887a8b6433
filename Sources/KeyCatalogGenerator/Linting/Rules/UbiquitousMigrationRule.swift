/// A migration from a local store into a key in a `ubiquitous` store.
///
/// Migrations run at launch, and on a device's first launch iCloud's initial download has not
/// arrived yet: the key looks empty, so the migration writes this device's old local value, and
/// iCloud then spreads it over the value every other device already synced (the first-launch
/// overwrite). Waiting for the download is no fix: iCloud announces it only the first time a
/// device uses an account, and never without the entitlement, so nothing says when to stop waiting.
///
/// The other way, a key in a local store that migrates from a `ubiquitous` store is a warning: a
/// move removes its source, and a removal in iCloud reaches every device, so the first device to
/// migrate takes the value away from the others, which then find nothing to move and read the
/// default. (Not for a key synced through iCloud itself: the value moved in is pushed, under the
/// key's own name, where iCloud has none, and reaches the other devices so.)
///
/// ```json
/// { "name": "theme", "type": "String", "default": "light", "store": "cloud",
///   "migrations": [{ "fromKey": "Theme", "fromStore": "standard" }] }
/// // error: key 'theme' in ubiquitous store 'cloud' migrates from local store 'standard'; …
/// { "name": "layout", "type": "String", "default": "grid",
///   "migrations": [{ "fromKey": "Layout", "fromStore": "cloud" }] }
/// // warning: key 'layout' in local store 'standard' migrates from ubiquitous store 'cloud'; …
/// ```
struct UbiquitousMigrationRule: LintRule {
    let id = "ubiquitous-migration"
    let summary =
        "A key migrates between iCloud and a local store: into a ubiquitous store at first launch that would overwrite iCloud's value; out of one, the first device's move would take the value from the others."

    func check(_ context: LintContext) -> [Diagnostic] {
        // Most manifests have no iCloud store: then no key's migrations are looked at.
        guard context.storeKinds.values.contains("ubiquitous") else { return [] }
        var findings: [Diagnostic] = []
        // A key whose store is unknown is neither (another rule reports the store).
        for key in context.keys {
            guard let keyKind = context.storeKinds[key.store] else { continue }
            let isUbiquitous = keyKind == "ubiquitous"
            for migration in key.value["migrations"]?.elements ?? [] {
                guard let fromStore = migration["fromStore"], let name = fromStore.string,
                    let kind = context.storeKinds[name], (kind == "ubiquitous") != isUbiquitous
                else { continue }
                if isUbiquitous {
                    findings.append(error("\(key.label) in ubiquitous store '\(key.store)' migrates from local store '\(name.truncatedForMessage)'; on a device's first launch the migration runs before iCloud's initial download arrives, so the device's old value would overwrite the one in iCloud; migrate into a key in store '\(name.truncatedForMessage)' instead, and copy its value to iCloud from app code once iCloud's values have arrived", at: fromStore.location))
                } else if !ICloudSyncRule.isSynced(key, in: context) {
                    // (A synced key's moved value is pushed to iCloud under the key's own name,
                    // and reaches the other devices that way.)
                    findings.append(warning("\(key.label) in local store '\(key.store)' migrates from ubiquitous store '\(name.truncatedForMessage)'; a move removes its source, and iCloud removes it on every device, so the first device to migrate takes the value from the others, which then read the default; copy the value from app code and leave it in iCloud until every device has it", at: fromStore.location))
                }
            }
        }
        return findings
    }
}
