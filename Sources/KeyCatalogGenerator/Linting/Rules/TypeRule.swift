/// A key's `type` (or a migration's `fromType`) is malformed, names a dictionary with non-String
/// keys, or looks like a misspelled known type.
///
/// ```json
/// { "name": "retryCount", "type": "Integer", "default": 3 }
/// // error: unknown type 'Integer' for key 'retryCount'; did you mean 'Int'?
/// ```
struct TypeRule: LintRule {
    let id = "type"
    let summary = "A type is malformed, unknown, or a dictionary without String keys."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let enums = Set(context.enumCases.keys)
        for key in context.keys {
            if let value = key.value["type"], let type = key.type {
                switch type {
                case .failure(let failure):
                    findings.append(error("\(failure.message) (\(key.label))", at: value.location))
                case .success:
                    if let (unknown, suggestion) = key.typeSuggestion {
                        findings.append(error("unknown type '\(unknown.truncatedForMessage)' for \(key.label); did you mean '\(suggestion)'?", at: value.location))
                    }
                }
            }
            for migration in key.value["migrations"]?.elements ?? [] {
                guard let value = migration["fromType"], let text = value.string else { continue }
                switch TypeParser.parse(text, enums: enums) {
                case .failure(let failure):
                    findings.append(error("\(failure.message) (migration of \(key.label))", at: value.location))
                case .success(let type):
                    if let custom = LintContext.firstCustomName(in: type),
                        let near = ValueType.scalars.map(\.name).first(where: { $0.lowercased() == custom.lowercased() })
                    {
                        findings.append(error("unknown type '\(custom)' in a migration of \(key.label); did you mean '\(near)'?", at: value.location))
                    }
                }
            }
        }
        return findings
    }
}
