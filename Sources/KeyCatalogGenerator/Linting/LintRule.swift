/// One check over a manifest: a small type with an identifier, a summary and a `check`.
///
/// ```swift
/// struct EmptyStorageKeyRule: LintRule {
///     let id = "empty-storage-key"
///     let summary = "A storage key is the empty string."
///     func check(_ context: LintContext) -> [Diagnostic] { ... }
/// }
/// ```
protocol LintRule: Sendable {
    /// The rule's identifier in kebab case, shown with `--format json`.
    var id: String { get }
    /// One sentence: what the rule reports.
    var summary: String { get }
    /// Every finding in the manifest, in any order.
    func check(_ context: LintContext) -> [Diagnostic]
}

extension LintRule {
    /// An error found by this rule.
    func error(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.error, message, at: location, rule: id)
    }

    /// A warning found by this rule.
    func warning(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.warning, message, at: location, rule: id)
    }
}
