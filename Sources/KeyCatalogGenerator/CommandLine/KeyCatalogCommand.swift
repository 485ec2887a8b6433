import Foundation

/// The `keycatalog` command line: argument parsing and every subcommand, as a library so tests
/// drive it directly. The executable only calls ``main()``.
///
/// ```swift
/// let result = KeyCatalogCommand.run(["lint", "keys.json", "--format", "github"])
/// print(result.standardOutput, terminator: "")
/// exit(result.exitCode)
/// ```
public enum KeyCatalogCommand {
    /// The release this tool belongs to, as `keycatalog --version` prints it (and the README's
    /// quick start depends on; a test keeps them equal). Bump it when tagging a release.
    public static let version = "1.0.0"

    /// The manifest format version this tool reads and writes.
    public static let manifestFormatVersion = 1

    /// One subcommand: its name, a one-line summary, its help and what it does.
    struct Subcommand: Sendable {
        var name: String
        var summary: String
        var help: String
        var run: @Sendable ([String]) -> CommandResult
    }

    /// The subcommands in help order.
    static let subcommands: [Subcommand] = [
        Subcommand(name: "lint", summary: "Check manifests and report every finding.", help: LintCommand.help, run: LintCommand.run),
        Subcommand(name: "generate", summary: "Generate the Swift catalog of a manifest.", help: GenerateCommand.help, run: GenerateCommand.run),
        Subcommand(name: "docs", summary: "Print a Markdown table of a manifest's keys.", help: DocsCommand.help, run: DocsCommand.run),
        Subcommand(name: "schema", summary: "Print the JSON Schema of manifest version 1.", help: SchemaCommand.help, run: SchemaCommand.run),
    ]

    /// The overall help.
    static var help: String {
        let width = subcommands.map(\.name.count).max() ?? 0
        let list = subcommands.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
        return """
            OVERVIEW: Typed persistent keys from a keys.json manifest.

            USAGE: keycatalog <subcommand> [options]

            SUBCOMMANDS:
            \(list.joined(separator: "\n"))

            OPTIONS:
              -h, --help  Show help; 'keycatalog <subcommand> --help' for a subcommand.
              --version   Show the version of keycatalog and of the manifest format it reads.

            Exit codes: 0 clean, 1 findings that fail, 64 usage errors.

            """
    }

    /// Runs the command line `arguments` (without the program name).
    ///
    /// - Returns: The exit code and the text for standard output and standard error.
    public static func run(_ arguments: [String]) -> CommandResult {
        guard let first = arguments.first else {
            return CommandResult(exitCode: CommandResult.usage, standardError: "error: missing subcommand\n\n" + help)
        }
        switch first {
        case "-h", "--help":
            return CommandResult(exitCode: CommandResult.success, standardOutput: help)
        case "--version":
            return CommandResult(
                exitCode: CommandResult.success,
                standardOutput: "keycatalog \(version) (manifest format version \(manifestFormatVersion))\n"
            )
        case "help":
            guard arguments.count > 1 else { return CommandResult(exitCode: CommandResult.success, standardOutput: help) }
            guard let subcommand = subcommands.first(where: { $0.name == arguments[1] }) else {
                return unknownSubcommand(arguments[1])
            }
            return CommandResult(exitCode: CommandResult.success, standardOutput: subcommand.help)
        default:
            guard let subcommand = subcommands.first(where: { $0.name == first }) else {
                return unknownSubcommand(first)
            }
            let rest = Array(arguments.dropFirst())
            // Not after "--", which ends the options: a file may be named "--help".
            let options = rest.prefix { $0 != "--" }
            if options.contains("--help") || options.contains("-h") {
                return CommandResult(exitCode: CommandResult.success, standardOutput: subcommand.help)
            }
            return subcommand.run(rest)
        }
    }

    /// Runs the process's arguments, writes both streams and exits with the command's code.
    public static func main() -> Never {
        let raw = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeBufferPointer(start: argument, count: strlen(argument))).map { UInt8(bitPattern: $0) }
        }
        let result = invalidArgument(in: raw) ?? run(Array(CommandLine.arguments.dropFirst()))
        FileHandle.standardOutput.write(Data(result.standardOutput.utf8))
        FileHandle.standardError.write(Data(result.standardError.utf8))
        exit(result.exitCode)
    }

    private static func unknownSubcommand(_ name: String) -> CommandResult {
        let hint = NearMiss.didYouMean(name, among: subcommands.map(\.name))
        return CommandResult(
            exitCode: CommandResult.usage,
            standardError: "error: unknown subcommand '\(name)'\(hint)\n\n" + help
        )
    }

    /// The usage error for the first argument that is not valid UTF-8, if any. Such an argument
    /// (a path a file system allows) would reach the commands with its bad bytes replaced by
    /// U+FFFD, naming another file: lint would find none, and generate would write elsewhere.
    static func invalidArgument(in raw: [[UInt8]]) -> CommandResult? {
        // Valid when decoding replaces nothing (`String(validating:as:)` needs macOS 15).
        guard let argument = raw.first(where: { !String(decoding: $0, as: UTF8.self).utf8.elementsEqual($0) }) else { return nil }
        let shown = argument.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }.joined()
        return usageError("the argument '\(shown)' is not valid UTF-8; keycatalog takes paths and names as UTF-8 text, so rename the file or its folder", help: help)
    }

    /// A usage error for `subcommand`: the message, then its help.
    static func usageError(_ message: String, help: String) -> CommandResult {
        CommandResult(exitCode: CommandResult.usage, standardError: "error: \(message)\n\n" + help)
    }
}
