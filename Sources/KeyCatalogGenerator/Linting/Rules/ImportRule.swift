/// An `imports` entry is not a module name, or repeats one: the generated file imports each, for
/// the keys' types declared in other modules.
///
/// ```json
/// { "imports": ["Models", "Models"] }
/// // error: module 'Models' is imported twice; remove one
/// ```
struct ImportRule: LintRule {
    let id = "import"
    let summary = "An `imports` entry is not a module name, or repeats one."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        var seen: Set<String> = []
        for element in context.root["imports"]?.elements ?? [] {
            guard let name = element.string else {
                findings.append(error("an import is a module's name, a string, as in \"Models\"", at: element.location))
                continue
            }
            if !SwiftIdentifier.isValid(name) || SwiftIdentifier.keywords.contains(name) {
                let reason = SwiftIdentifier.problem(in: name).map { " (\($0))" } ?? ""
                findings.append(error("'\(name.truncatedForMessage)' is not a module name\(reason); give the name of a module the target depends on, as in \"Models\"", at: element.location))
            } else if !seen.insert(name).inserted {
                findings.append(error("module '\(name)' is imported twice; remove one", at: element.location))
            }
        }
        return findings
    }
}
