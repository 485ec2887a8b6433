/// A migration between two keychain stores of one service, of one account: the two stores find
/// the same item (a store without an access group finds every group's), so removing the source
/// would remove the key's own item. The runtime refuses such a move; this says so before it ships.
///
/// ```json
/// "stores": { "old": { "kind": "keychain", "service": "app" },
///             "shared": { "kind": "keychain", "service": "app", "accessGroup": "TEAM.shared" } },
/// "keys": [{ "name": "token", "type": "String?", "default": null, "secret": true, "store": "shared",
///            "migrations": [{ "fromKey": "token", "fromStore": "old" }] }]
/// // error: key 'token' moves from keychain store 'old' to 'shared', which file one account ('token') under one service ('app'); …
/// ```
struct KeychainMoveRule: LintRule {
    let id = "keychain-move"
    let summary = "A key moves between two keychain stores of one service under one account (removing the source would remove the key's item)."

    func check(_ context: LintContext) -> [Diagnostic] {
        var services: [String: String] = [:]
        for store in context.stores where store.value["kind"]?.string == "keychain" {
            if let service = store.value["service"]?.string, services[store.name] == nil { services[store.name] = service }
        }
        var findings: [Diagnostic] = []
        for key in context.keys {
            guard let service = services[key.store], let template = key.validStorageKey else { continue }
            for migration in key.value["migrations"]?.elements ?? [] {
                guard let fromStore = migration["fromStore"], let name = fromStore.string, name != key.store,
                    services[name] == service,
                    let fromKey = migration["fromKey"]?.string, fromKey.utf8.elementsEqual(template.text.utf8)
                else { continue }
                findings.append(
                    error(
                        "\(key.label) moves from keychain store '\(name.truncatedForMessage)' to '\(key.store)', which file one account ('\(fromKey.truncatedForMessage)') under one service ('\(service.truncatedForMessage)'): both find the same item, so removing the source would remove the key's own; give the key another storage key, or its store another service",
                        at: fromStore.location))
            }
        }
        return findings
    }
}
