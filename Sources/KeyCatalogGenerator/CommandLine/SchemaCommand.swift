/// `keycatalog schema`: the manifest's JSON Schema on stdout.
enum SchemaCommand {
    static let help = """
        OVERVIEW: Print the JSON Schema (draft 2020-12) of keys.json manifest version 1.

        USAGE: keycatalog schema

        Save it beside the manifest and name it in "$schema" for completion in editors:
          keycatalog schema > keycatalog.schema.json

        OPTIONS:
          -h, --help   Show this help.

        """

    @Sendable static func run(_ arguments: [String]) -> CommandResult {
        guard arguments.isEmpty else {
            return KeyCatalogCommand.usageError("'keycatalog schema' takes no arguments, got '\(arguments[0])'", help: help)
        }
        return CommandResult(exitCode: CommandResult.success, standardOutput: ManifestJSONSchema.text)
    }
}
