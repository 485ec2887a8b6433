/// A key without a default, with `default` and a debug/release pair at once, or with only half
/// of the pair.
///
/// ```json
/// { "name": "showsDebugMenu", "type": "Bool", "debugDefault": true }
/// // error: key 'showsDebugMenu' has 'debugDefault' but no 'releaseDefault'; add "releaseDefault", or use one "default"
/// ```
///
/// A misspelled default (`defualt`) is left to unknown-field, which names the fix.
struct DefaultPresenceRule: LintRule {
    let id = "default-presence"
    let summary = "A default is missing, doubled, or half a debug/release pair."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for key in context.keys {
            let plain = key.value.member("default")
            let debug = key.value.member("debugDefault")
            let release = key.value.member("releaseDefault")
            switch (plain, debug, release) {
            case (nil, nil, nil) where Self.misspelledDefault(in: key.value) == nil:
                let example = key.validType?.isOptional == true ? "null" : "a value of its type"
                findings.append(error("\(key.label) has no default; add \"default\" (\(example)), or \"debugDefault\" and \"releaseDefault\"", at: key.value.location))
            case (_?, let pair?, _), (_?, nil, let pair?):
                findings.append(error("\(key.label) has both 'default' and '\(pair.name)'; keep either 'default' or the 'debugDefault'/'releaseDefault' pair", at: pair.nameLocation))
            case (nil, let debug?, nil):
                findings.append(error("\(key.label) has 'debugDefault' but no 'releaseDefault'; add \"releaseDefault\", or use one \"default\"", at: debug.nameLocation))
            case (nil, nil, let release?):
                findings.append(error("\(key.label) has 'releaseDefault' but no 'debugDefault'; add \"debugDefault\", or use one \"default\"", at: release.nameLocation))
            default:
                break
            }
        }
        return findings
    }

    /// A member that is a misspelled `default`, `debugDefault` or `releaseDefault`, like
    /// `defualt`: unknown-field reports it with the fix, so "no default" would only repeat it.
    static func misspelledDefault(in key: JSONValue) -> String? {
        let fields = ["default", "debugDefault", "releaseDefault"]
        let known = ManifestSchema.fieldNames(of: .key)
        return key.members?.first { member in
            !known.contains(member.name) && NearMiss.suggestion(for: member.name, among: fields) != nil
        }?.name
    }
}
