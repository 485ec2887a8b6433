/// A required field is absent: `keys`; a key's `name` and `type`; a store's `kind`; a type's
/// `kind`, `rawType` and `cases`; a case object's `name`; a migration's `fromKey`.
///
/// ```json
/// { "name": "launchCount", "default": 0 }
/// // error: key 'launchCount' has no 'type'; add one, as in "type": "Bool"
/// ```
struct MissingFieldRule: LintRule {
    let id = "missing-field"
    let summary = "A required field is absent."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for (kind, object, label) in context.schemaObjects {
            for field in ManifestSchema.fields(of: kind) where field.required && object.member(field.name) == nil {
                findings.append(
                    error(
                        "\(label) has no '\(field.name)'; add one, as in \"\(field.name)\": \(field.example)",
                        at: object.location
                    )
                )
            }
        }
        return findings
    }
}
