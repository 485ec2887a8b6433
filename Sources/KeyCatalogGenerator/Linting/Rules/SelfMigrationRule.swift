/// A migration from the key's own storage key in its own store (or a store of another name that
/// opens it: ``StoreIdentities``), with no change of type or representation: it would move the
/// value onto itself.
///
/// ```json
/// { "name": "launchCount", "type": "Int", "default": 0, "migrations": [{ "fromKey": "launchCount" }] }
/// // error: key 'launchCount' migrates from itself ('launchCount' in store 'standard'); name the old key in 'fromKey' or remove the migration
/// ```
struct SelfMigrationRule: LintRule {
    let id = "self-migration"
    let summary = "A key migrates from itself."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let stores = context.storeIdentities
        for key in context.keys {
            guard let template = key.validStorageKey else { continue }
            for migration in key.value["migrations"]?.elements ?? [] {
                // By exact characters: a composed and a decomposed accent are two keys in
                // UserDefaults and the keychain (and one in a file store, where such a "migration"
                // finds its value in place and does nothing).
                guard let value = migration["fromKey"], let fromKey = value.string, fromKey.utf8.elementsEqual(template.text.utf8),
                    case let fromStore = migration["fromStore"]?.string ?? key.store, stores.id(of: fromStore) == stores.id(of: key.store),
                    migration["fromType"] == nil, migration["fromRepresentation"] == nil,
                    // A move between keychain stores of one service is keychain-move's to report.
                    fromStore == key.store || stores.keychainService(of: fromStore) == nil || stores.keychainService(of: fromStore) != stores.keychainService(of: key.store)
                else { continue }
                findings.append(error("\(key.label) migrates from itself ('\(template.text.truncatedForMessage)' \(stores.inStore(key.store, alsoOpenedBy: fromStore))); name the old key in 'fromKey' or remove the migration", at: value.location))
            }
        }
        return findings
    }
}
