/// A migration that changes the type (`fromType` differs from the key's type) without a
/// `transform` to convert the old value.
///
/// ```json
/// { "name": "launchCount", "type": "Int", "default": 0, "migrations": [{ "fromKey": "launches", "fromType": "String" }] }
/// // error: migration of key 'launchCount' changes the type from 'String' to 'Int' without a 'transform'; add one, as in "transform": "Int($0) ?? 0"
/// ```
struct MigrationTransformRule: LintRule {
    let id = "migration-transform"
    let summary = "A migration changes the type without a transform."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let enums = Set(context.enumCases.keys)
        for key in context.keys {
            guard let type = key.validType else { continue }
            for migration in key.value["migrations"]?.elements ?? [] where migration.member("transform") == nil {
                guard let value = migration["fromType"], let text = value.string,
                    let fromType = try? TypeParser.parse(text, enums: enums).get(), fromType != type
                else { continue }
                findings.append(error("migration of \(key.label) changes the type from '\(fromType)' to '\(type)' without a 'transform'; add one, as in \"transform\": \"\(type)($0)\"", at: value.location))
            }
        }
        return findings
    }
}
