/// A `secret` key outside a `keychain` store: it would be written in clear text.
///
/// ```json
/// { "name": "apiToken", "type": "String?", "default": null, "secret": true }
/// // error: secret key 'apiToken' is in store 'standard' (userDefaults), which stores it in clear text; put it in a keychain store with "store"
/// ```
struct SecretStoreRule: LintRule {
    let id = "secret-store"
    let summary = "A secret key is outside a keychain store."

    func check(_ context: LintContext) -> [Diagnostic] {
        context.keys.compactMap { key in
            guard let secret = key.value["secret"], secret.bool == true,
                let kind = context.storeKinds[key.store], kind != "keychain"
            else { return nil }
            return error("secret \(key.label) is in store '\(key.store)' (\(kind)), which stores it in clear text; put it in a keychain store with \"store\"", at: secret.location)
        }
    }
}
