import Foundation

/// `keycatalog generate FILE --output PATH`: the manifest's Swift catalog, written only when it
/// changes so an unchanged manifest recompiles nothing.
enum GenerateCommand {
    static let help = """
        OVERVIEW: Generate the Swift catalog of a keys.json manifest.

        USAGE: keycatalog generate <file> --output <path>

        ARGUMENTS:
          <file>               The manifest.

        OPTIONS:
          -o, --output <path>  The Swift file to write; left untouched when its contents
                               would not change.
          -h, --help           Show this help.

        Findings go to stderr as 'file:line:column: severity: message'; with errors nothing
        is written and the exit code is 1.

        """

    static let options = ["--output", "--help"]

    @Sendable static func run(_ arguments: [String]) -> CommandResult {
        var files: [String] = []
        var output: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--output" || argument == "-o" || argument.hasPrefix("--output=") {
                guard output == nil else {
                    return KeyCatalogCommand.usageError("'--output' is given twice; give the Swift file to write once", help: help)
                }
                if argument.hasPrefix("--output=") {
                    output = String(argument.dropFirst("--output=".count))
                    continue
                }
                guard index < arguments.count else {
                    return KeyCatalogCommand.usageError("missing value for '--output'; give the Swift file to write, as in '--output Keys.swift'", help: help)
                }
                output = arguments[index]
                index += 1
            } else if argument == "--" {
                files += arguments[index...]
                break
            } else if argument.hasPrefix("-"), argument.count > 1 {
                let hint = NearMiss.didYouMean(argument, among: options)
                return KeyCatalogCommand.usageError("unknown option '\(argument)' for 'keycatalog generate'\(hint)", help: help)
            } else {
                files.append(argument)
            }
        }
        guard files.count == 1, let file = files.first else {
            return KeyCatalogCommand.usageError(
                files.isEmpty ? "missing manifest; use 'keycatalog generate keys.json --output Keys.swift'" : "give exactly one manifest, not \(files.count)",
                help: help
            )
        }
        guard let output, !output.isEmpty else {
            return KeyCatalogCommand.usageError("missing '--output'; give the Swift file to write, as in '--output Keys.swift'", help: help)
        }

        if OutputFile.isSameFile(output, as: file) {
            return KeyCatalogCommand.usageError("'--output \(output)' is the manifest '\(file)' itself, which generating would overwrite with Swift; write to a .swift file, as in '--output Keys.swift'", help: help)
        }

        let (catalog, diagnostics) = ManifestLoader.load(fileAtPath: file)
        let findings = DiagnosticFormat.text.render(diagnostics)
        guard let catalog else {
            return CommandResult(exitCode: CommandResult.failure, standardError: findings)
        }
        // As bytes: the file needs no `String` of its 5 MB (at 10,000 keys), nor its validation.
        let source = SwiftRenderer(catalog: catalog, manifestPath: file).renderUTF8()
        do {
            try OutputFile.writeIfChanged(Data(source), to: output)
        } catch let error as OutputFile.PathError {
            return CommandResult(exitCode: CommandResult.failure, standardError: findings + "error: \(error)\n")
        } catch {
            return CommandResult(
                exitCode: CommandResult.failure,
                standardError: findings + "error: cannot write '\(output)': \(error.localizedDescription); check that its folder is writable\n"
            )
        }
        return CommandResult(exitCode: CommandResult.success, standardError: findings)
    }
}
