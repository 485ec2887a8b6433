/// A key's `store`, the `defaultStore`, or a migration's `fromStore` names no store.
///
/// ```json
/// { "name": "token", "type": "String", "default": "", "store": "keychian" }
/// // error: unknown store 'keychian' for key 'token'; did you mean 'keychain'?
/// ```
struct StoreReferenceRule: LintRule {
    let id = "store-reference"
    let summary = "A store name refers to no declared store."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let names = [StoreDeclaration.standardName] + context.stores.map(\.name)
        func check(_ value: JSONValue?, _ owner: String) {
            // By scalars, as Swift compares names: `café` in NFC is not `café` in NFD.
            guard let value, let name = value.string, !names.contains(where: { $0.isSameIdentifier(as: name) }) else { return }
            let hint =
                name.normalizationHint(among: names) ?? NearMiss.suggestion(for: name, among: names).map { "did you mean '\($0)'?" }
                ?? "declare it under \"stores\" or use one of " + names.map { "'\($0)'" }.joined(separator: ", ")
            findings.append(error("unknown store '\(name.truncatedForMessage)' for \(owner); \(hint)", at: value.location))
        }
        check(context.root["defaultStore"], "'defaultStore'")
        for key in context.keys {
            check(key.value["store"], key.label)
            for migration in key.value["migrations"]?.elements ?? [] {
                check(migration["fromStore"], "a migration of \(key.label)")
            }
        }
        return findings
    }
}
