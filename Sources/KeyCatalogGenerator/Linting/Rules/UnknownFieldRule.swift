/// A field the manifest format does not define, with the near miss when there is one.
///
/// ```json
/// { "name": "launchCount", "type": "Int", "defualt": 0 }
/// // error: unknown field 'defualt' in key 'launchCount'; did you mean 'default'?
/// ```
struct UnknownFieldRule: LintRule {
    let id = "unknown-field"
    let summary = "A field the manifest format does not define (with the near miss)."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for (kind, object, label) in context.schemaObjects {
            for member in object.members ?? [] where !ManifestSchema.isField(member.name, of: kind) {
                let names = ManifestSchema.fields(of: kind).map(\.name)
                let hint =
                    NearMiss.suggestion(for: member.name, among: names).map { "did you mean '\($0)'?" }
                    ?? "remove it (known fields: " + names.filter { $0 != "$schema" }.joined(separator: ", ") + ")"
                findings.append(
                    error(
                        "unknown field '\(member.name.truncatedForMessage)' in \(label); \(hint)",
                        at: member.nameLocation
                    )
                )
            }
        }
        return findings
    }
}
