/// A storage key (or a migration's `fromKey`) with malformed braces, a placeholder that has no
/// parameter, or a parameter that has no placeholder.
///
/// ```json
/// { "name": "layout", "key": "layout.{listID}", "type": "String?", "default": null }
/// // error: placeholder '{listID}' in the storage key of key 'layout' has no parameter; add "parameters": { "listID": "String" }
/// ```
struct PlaceholderRule: LintRule {
    let id = "placeholder"
    let summary = "Placeholders and parameters do not match."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for key in context.keys {
            let parameters = key.value["parameters"]?.members ?? []
            let parameterNames = Set(parameters.map(\.name.identifierKey))
            var placeholders: Set<[Unicode.Scalar]> = []
            switch key.storageKey {
            case .failure(let failure)?:
                findings.append(error("\(failure.message) (\(key.label))", at: key.storageKeyLocation))
                continue
            case .success(let template)?:
                placeholders = Set(template.placeholders.map(\.identifierKey))
                for name in template.placeholders where !parameterNames.contains(name.identifierKey) {
                    let hint = name.normalizationHint(among: parameters.map(\.name)) ?? "add \"parameters\": { \"\(name)\": \"String\" }"
                    findings.append(error("placeholder '{\(name)}' in the storage key of \(key.label) has no parameter; \(hint)", at: key.storageKeyLocation))
                }
            case nil:
                continue
            }
            for parameter in parameters where !placeholders.contains(parameter.name.identifierKey) {
                findings.append(error("parameter '\(parameter.name.truncatedForMessage)' of \(key.label) does not appear in its storage key; add '{\(parameter.name.truncatedForMessage)}' to \"key\" or remove the parameter", at: parameter.nameLocation))
            }
            for migration in key.value["migrations"]?.elements ?? [] {
                guard let value = migration["fromKey"], let text = value.string else { continue }
                switch StorageKeyParser.parse(text) {
                case .failure(let failure):
                    findings.append(error("\(failure.message) (migration of \(key.label))", at: value.location))
                case .success(let template):
                    for name in template.placeholders where !parameterNames.contains(name.identifierKey) {
                        let hint = name.normalizationHint(among: parameters.map(\.name)) ?? "use only the key's parameters"
                        findings.append(error("placeholder '{\(name)}' in a migration's 'fromKey' of \(key.label) is not one of its parameters; \(hint)", at: value.location))
                    }
                }
            }
        }
        return findings
    }
}
