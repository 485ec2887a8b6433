/// `keycatalog docs FILE`: a Markdown table of the manifest's keys on stdout.
enum DocsCommand {
    static let help = """
        OVERVIEW: Print a Markdown table of a manifest's keys (name, storage key, store, type,
        default, doc).

        USAGE: keycatalog docs [--] <file>

        ARGUMENTS:
          <file>       The manifest.

        OPTIONS:
          -h, --help   Show this help.

        Findings go to stderr; errors print no table and exit 1.

        """

    @Sendable static func run(_ arguments: [String]) -> CommandResult {
        // "--" ends the options, as for lint and generate: a manifest may be named "-x.json".
        let options = arguments.prefix { $0 != "--" }
        if let option = options.first(where: { $0.hasPrefix("-") && $0.count > 1 }) {
            return KeyCatalogCommand.usageError("unknown option '\(option)' for 'keycatalog docs'", help: help)
        }
        let arguments = Array(options) + arguments.dropFirst(options.count + 1)
        guard arguments.count == 1, let file = arguments.first else {
            return KeyCatalogCommand.usageError(
                arguments.isEmpty ? "missing manifest; use 'keycatalog docs keys.json'" : "give exactly one manifest, not \(arguments.count)",
                help: help
            )
        }
        let (catalog, diagnostics) = ManifestLoader.load(fileAtPath: file)
        let findings = DiagnosticFormat.text.render(diagnostics)
        guard let catalog else {
            return CommandResult(exitCode: CommandResult.failure, standardError: findings)
        }
        return CommandResult(exitCode: CommandResult.success, standardOutput: MarkdownDocs(catalog: catalog).render(), standardError: findings)
    }
}
