/// A default that does not fit its key's type: integers out of range, non-numbers for
/// `Double`/`Float`, bad base64, dates without a zone, relative URLs, malformed UUIDs, unknown
/// enum cases, `null` for a non-optional type, literals for custom types, element by element
/// in arrays and dictionaries.
///
/// ```json
/// { "name": "volume", "type": "Int8", "default": 300 }
/// // error: default for key 'volume' is 300, out of range for type 'Int8' (-128...127); use a value in range or a wider type
/// ```
struct DefaultMismatchRule: LintRule {
    let id = "default-mismatch"
    let summary = "A default does not match its key's type."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for key in context.keys where key.typeSuggestion == nil {
            guard key.validType != nil else { continue }
            for field in ["default", "debugDefault", "releaseDefault"] {
                guard let checked = key.checkedDefault(field, enums: context.enumCases) else { continue }
                for problem in checked.problems where !problem.message.isEmpty {
                    findings.append(error(problem.message, at: problem.location))
                }
            }
        }
        return findings
    }
}
