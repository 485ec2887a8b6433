/// A parameter whose type is not `String`, `Int` or `UUID`.
///
/// ```json
/// "parameters": { "listID": "Strng" }
/// // error: unsupported parameter type 'Strng' for parameter 'listID' of key 'layout'; did you mean 'String'?
/// ```
struct ParameterTypeRule: LintRule {
    let id = "parameter-type"
    let summary = "A parameter's type is not String, Int or UUID."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let names = ParameterType.allCases.map(\.rawValue)
        for key in context.keys {
            for parameter in key.value["parameters"]?.members ?? [] {
                let value = parameter.value
                guard let text = value.string else {
                    findings.append(error("parameter '\(parameter.name.truncatedForMessage)' of \(key.label) is \(value.summary), expected a type name; write it like \"\(parameter.name.truncatedForMessage)\": \"String\"", at: value.location))
                    continue
                }
                guard ParameterType(rawValue: text) == nil else { continue }
                let hint = NearMiss.suggestion(for: text, among: names).map { "did you mean '\($0)'?" } ?? "use 'String', 'Int' or 'UUID'"
                findings.append(error("unsupported parameter type '\(text.truncatedForMessage)' for parameter '\(parameter.name.truncatedForMessage)' of \(key.label); \(hint)", at: value.location))
            }
        }
        return findings
    }
}
