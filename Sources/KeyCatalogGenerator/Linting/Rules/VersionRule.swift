/// `version` is missing, not a number, or not a version this tool reads (1).
///
/// ```json
/// { "version": 2, "keys": [] }
/// // error: unsupported manifest version 2; this keycatalog reads version 1, so write "version": 1 or update keycatalog
/// ```
struct VersionRule: LintRule {
    let id = "version"
    let summary = "`version` is missing or not 1."

    /// The versions this tool reads.
    static let supported = ["1"]

    func check(_ context: LintContext) -> [Diagnostic] {
        guard context.root.members != nil else { return [] }
        guard let version = context.root["version"] else {
            return [error("the manifest has no 'version'; add \"version\": 1 as its first member", at: context.root.location)]
        }
        guard let text = version.number else {
            return [error("'version' is \(version.summary), expected the number 1; write \"version\": 1", at: version.location)]
        }
        guard Self.supported.contains(text) else {
            return [error("unsupported manifest version \(text.truncatedForMessage); this keycatalog reads version 1, so write \"version\": 1 or update keycatalog", at: version.location)]
        }
        return []
    }
}
