/// A required field is absent: `keys`; a key's `name` and `type`; a store's `kind`; a type's
/// `kind`, `rawType` and `cases`; a case object's `name`; a migration's `fromKey`.
///
/// ```json
/// { "name": "launchCount", "default": 0 }
/// // error: key 'launchCount' has no 'type'; add one, as in "type": "Bool"
/// ```
///
/// A field misspelled as a near miss (`tpye`) is left to unknown-field, which names the fix.
struct MissingFieldRule: LintRule {
    let id = "missing-field"
    let summary = "A required field is absent."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for (kind, object, label) in context.schemaObjects {
            let fields = ManifestSchema.fields(of: kind)
            // A misspelled field (`tpye`) is reported by unknown-field with the fix; its absence
            // under the right name would only repeat that. (By index: members are not copied.)
            let members = object.members ?? []
            var misspelled: Set<String> = []
            for index in members.indices where !ManifestSchema.isField(members[index].name, of: kind) {
                if let suggestion = NearMiss.suggestion(for: members[index].name, among: fields.map(\.name)) {
                    misspelled.insert(suggestion)
                }
            }
            for field in fields where field.required && object.member(field.name) == nil && !misspelled.contains(field.name) {
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
