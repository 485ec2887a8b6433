/// `access` is not `internal`, `public` or `package`.
///
/// ```json
/// { "access": "pubic" }
/// // error: unknown access level 'pubic'; did you mean 'public'?
/// ```
struct AccessLevelRule: LintRule {
    let id = "access-level"
    let summary = "`access` is not internal, public or package."

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let value = context.root["access"], let text = value.string, AccessLevel(rawValue: text) == nil else { return [] }
        let names = AccessLevel.allCases.map(\.rawValue)
        let hint = NearMiss.suggestion(for: text, among: names).map { "did you mean '\($0)'?" } ?? "use 'internal', 'public' or 'package'"
        return [error("unknown access level '\(text.truncatedForMessage)'; \(hint)", at: value.location)]
    }
}
