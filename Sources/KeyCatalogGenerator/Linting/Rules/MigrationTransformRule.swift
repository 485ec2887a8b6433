/// A migration that changes the type (`fromType` differs from the key's type) without a
/// `transform` to convert the old value, or a `transform` that is not the name of a function.
///
/// ```json
/// { "name": "launchCount", "type": "Int", "default": 0, "migrations": [{ "fromKey": "launches", "fromType": "String" }] }
/// // error: migration of key 'launchCount' changes the type from 'String' to 'Int' without a 'transform';
/// //        add one naming a function you write, as in "transform": "launchCountFromString" for
/// //        func launchCountFromString(_ oldValue: String) -> Int?
/// ```
struct MigrationTransformRule: LintRule {
    let id = "migration-transform"
    let summary = "A migration changes the type without a transform, or its transform is no function name."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let enums = Set(context.enumCases.keys)
        let catalog = context.root["catalog"]?.string ?? Catalog.defaultName
        for key in context.keys {
            for migration in key.value["migrations"]?.elements ?? [] {
                if let transform = migration["transform"], let text = transform.string, !text.isEmpty,
                    !Self.isFunctionName(text)
                {
                    findings.append(error("transform '\(text.truncatedForMessage)' of \(key.label) is not the name of a function; name a function you write, as in \"transform\": \"\(key.name ?? "value")FromOldValue\", or a static one, \"Type.function\"", at: transform.location))
                } else if let transform = migration["transform"], let text = transform.string, let problem = Self.namingProblem(text, catalog: catalog, types: enums) {
                    findings.append(error("transform '\(text.truncatedForMessage)' of \(key.label) \(problem); name a function you write, as in \"transform\": \"\(key.name ?? "value")FromOldValue\"", at: transform.location))
                }
                guard migration.member("transform") == nil, let type = key.validType,
                    let value = migration["fromType"], let text = value.string,
                    let fromType = try? TypeParser.parse(text, enums: enums).get(), fromType != type
                else { continue }
                let suggestion = "\(key.name ?? "value")From\(Self.typeWord(fromType))"
                findings.append(error("migration of \(key.label) changes the type from '\(fromType)' to '\(type)' without a 'transform'; add one naming a function you write, as in \"transform\": \"\(suggestion)\" for func \(suggestion)(_ oldValue: \(fromType)) -> \(type)?", at: value.location))
            }
        }
        return findings
    }

    /// `name` or `Type.name`: Swift identifiers joined by dots.
    static func isFunctionName(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.allSatisfy { SwiftIdentifier.isValid(String($0)) || (SwiftIdentifier.isValid(String($0.dropFirst().dropLast())) && $0.first == "`" && $0.last == "`") }
    }

    /// Why a well-formed transform still names no function the generated code can call: a part
    /// Swift reserves (`Self`, `self`, `init`…), or the catalog or a declared enum itself (the
    /// call would construct a value); `nil` when it is fine.
    static func namingProblem(_ text: String, catalog: String, types: Set<String>) -> String? {
        let parts = MigrationsRenderer.components(of: text)
        if let reserved = parts.first(where: SwiftIdentifier.reservedMemberNames.contains) {
            return "uses '\(reserved)', which cannot name a function"
        }
        guard parts.count == 1, let name = parts.first else { return nil }
        if name.isSameIdentifier(as: catalog) { return "names the generated catalog, not a function" }
        if types.contains(where: { $0.isSameIdentifier(as: name) }) { return "names the declared type '\(name)', not a function" }
        return nil
    }

    /// A word for a type in a suggested function name: `String`, `Int`, `Strings` for `[String]`…
    private static func typeWord(_ type: ValueType) -> String {
        let letters = "\(type)".filter { $0.isLetter || $0.isNumber }
        return letters.isEmpty ? "OldValue" : letters
    }
}
