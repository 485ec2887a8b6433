/// A warning for a `secret` key whose default is a non-empty literal: the secret would ship in
/// the app binary.
///
/// ```json
/// { "name": "apiToken", "type": "String", "default": "sk-123", "secret": true, "store": "keychain" }
/// // warning: secret key 'apiToken' has a non-empty default, which ships in the app binary; use "" or null and set the secret at run time
/// ```
struct SecretDefaultRule: LintRule {
    let id = "secret-default"
    let summary = "A secret key has a non-empty default."

    func check(_ context: LintContext) -> [Diagnostic] {
        context.keys.compactMap { key in
            guard key.value["secret"]?.bool == true else { return nil }
            for field in ["default", "debugDefault", "releaseDefault"] {
                guard let value = key.value[field] else { continue }
                let empty = value.isNull || value.string == "" || value.elements?.isEmpty == true || value.members?.isEmpty == true
                if !empty {
                    return warning("secret \(key.label) has a non-empty \(field), which ships in the app binary; use \"\" or null and set the secret at run time", at: value.location)
                }
            }
            return nil
        }
    }
}
