import Foundation
import PackagePlugin

/// `swift package lint-keys [--target NAME]… [--strict] [--format text|json|github]`
///
/// Lints the `keys.json` of every target that has one (or of the named targets) with the same
/// rules as the build. Needs no permissions, so CI runs it without flags.
@main
struct LintKeys: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let passThrough = extractor.extractFlag(named: "strict") > 0 ? ["--strict"] : []
        let format = extractor.extractOption(named: "format").last.map { ["--format", $0] } ?? []
        guard extractor.remainingArguments.isEmpty else {
            throw KeyCatalogPluginError(
                description: "unexpected arguments \(extractor.remainingArguments); usage: swift package lint-keys [--target NAME]... [--strict] [--format text|json|github]"
            )
        }
        let targets = try targetsWithManifests(in: context.package, named: targetNames)
        guard !targets.isEmpty else {
            Diagnostics.warning("no target of package '\(context.package.displayName)' has a \(manifestFileName); nothing to lint")
            return
        }
        let tool = try keycatalogExecutable(packageManager)
        let status = try runTool(tool, ["lint"] + passThrough + format + targets.map { $0.manifest.path })
        switch status {
        case 0:
            break
        case toolUsageErrorStatus:
            // keycatalog refused the arguments and printed why: nothing was linted, nothing found.
            throw KeyCatalogPluginError(
                description: "keycatalog rejected the arguments lint-keys passed it (a usage error, exit code \(status); see its message), so nothing was linted; check the options, as in --format text, json or github"
            )
        default:
            throw KeyCatalogPluginError(description: "lint-keys found problems in \(targets.map(\.name).joined(separator: ", ")) (exit code \(status))")
        }
        print("lint-keys: \(targets.count) manifest(s) clean: \(targets.map(\.name).joined(separator: ", "))")
    }
}
