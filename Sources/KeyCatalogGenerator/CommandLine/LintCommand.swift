/// `keycatalog lint FILE... [--format text|json|github] [--strict]`.
enum LintCommand {
    static var help: String { usage + "\nRULES:\n" + Linter.rules.map { "  \($0.id): \($0.summary)\n" }.joined() }

    private static let usage = """
        OVERVIEW: Check keys.json manifests and report every finding.

        USAGE: keycatalog lint <file>... [--format <format>] [--strict]

        ARGUMENTS:
          <file>               Manifests to check.

        OPTIONS:
          --format <format>    text (default): 'file:line:column: severity: message' on stderr.
                               json: an array of findings on stdout, for tools.
                               github: GitHub Actions annotations on stdout.
          --strict             Warnings fail the run too.
          -h, --help           Show this help.

        Exit codes: 0 clean, 1 errors (or warnings with --strict), 64 usage errors.

        """

    static let options = ["--format", "--strict", "--help"]

    @Sendable static func run(_ arguments: [String]) -> CommandResult {
        var files: [String] = []
        var format = DiagnosticFormat.text
        var strict = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--strict" {
                strict = true
            } else if argument == "--format" || argument.hasPrefix("--format=") {
                let value: String
                if argument == "--format" {
                    guard index < arguments.count else {
                        return KeyCatalogCommand.usageError("missing value for '--format'; use text, json or github", help: help)
                    }
                    value = arguments[index]
                    index += 1
                } else {
                    value = String(argument.dropFirst("--format=".count))
                }
                guard let parsed = DiagnosticFormat(rawValue: value) else {
                    let hint = NearMiss.didYouMean(value, among: DiagnosticFormat.allCases.map(\.rawValue))
                    return KeyCatalogCommand.usageError("unknown format '\(value)' for '--format'\(hint) (use text, json or github)", help: help)
                }
                format = parsed
            } else if argument == "--" {
                files += arguments[index...]
                break
            } else if argument.hasPrefix("-"), argument.count > 1 {
                let hint = NearMiss.didYouMean(argument, among: options)
                return KeyCatalogCommand.usageError("unknown option '\(argument)' for 'keycatalog lint'\(hint)", help: help)
            } else {
                files.append(argument)
            }
        }
        guard !files.isEmpty else {
            return KeyCatalogCommand.usageError("missing manifest; give at least one file, as in 'keycatalog lint keys.json'", help: help)
        }

        let diagnostics = files.flatMap { ManifestLoader.load(fileAtPath: $0).diagnostics }
        let fails = diagnostics.contains { $0.severity == .error || strict && $0.severity == .warning }
        let text = format.render(diagnostics)
        let exitCode = fails ? CommandResult.failure : CommandResult.success
        return format == .text
            ? CommandResult(exitCode: exitCode, standardError: text)
            : CommandResult(exitCode: exitCode, standardOutput: text)
    }
}
