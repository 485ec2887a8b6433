/// A `{ "swift": "" }` default (or an empty migration `transform`): there is no source to emit.
///
/// ```json
/// { "name": "locale", "type": "Locale", "default": { "swift": "" } }
/// // error: 'swift' expression in the default of key 'locale' is empty; write the Swift expression that makes the default, as in { "swift": "Locale(identifier: \"en\")" }
/// ```
struct EmptySwiftExpressionRule: LintRule {
    let id = "empty-swift-expression"
    let summary = "A Swift expression or transform is empty."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for key in context.keys {
            for field in ["default", "debugDefault", "releaseDefault"] {
                guard let value = key.value[field] else { continue }
                visit(value, field: field, key: key, into: &findings)
            }
            for migration in key.value["migrations"]?.elements ?? [] {
                if let transform = migration["transform"], let text = transform.string, text.allSatisfy(\.isWhitespace) {
                    findings.append(error("'transform' in a migration of \(key.label) is empty; name a function you write that converts the old value, as in \"launchCountFromString\", or remove it", at: transform.location))
                }
            }
        }
        return findings
    }

    private func visit(_ value: JSONValue, field: String, key: LintContext.Key, into findings: inout [Diagnostic]) {
        if let members = value.members, members.count == 1, members[0].name == "swift" {
            if let text = members[0].value.string, text.allSatisfy(\.isWhitespace) {
                findings.append(error("'swift' expression in the \(field) of \(key.label) is empty; write the Swift expression that makes the default, as in { \"swift\": \"Locale(identifier: \\\"en\\\")\" }", at: members[0].value.location))
            }
            return
        }
        for element in value.elements ?? [] { visit(element, field: field, key: key, into: &findings) }
        for member in value.members ?? [] { visit(member.value, field: field, key: key, into: &findings) }
    }
}
