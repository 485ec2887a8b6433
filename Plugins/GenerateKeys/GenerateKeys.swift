import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-keys [--target NAME]…`
///
/// Writes each target's generated catalog into the target's folder as
/// `KeyCatalog.generated.swift`, for teams that commit generated code and for Xcode projects
/// that do not use the build plugin. Use one or the other: a command plugin cannot see which
/// plugins a target uses, so the build plugin is the one that refuses a target holding both, with a
/// message naming the file to delete.
@main
struct GenerateKeys: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        guard extractor.remainingArguments.isEmpty else {
            throw KeyCatalogPluginError(
                description: "unexpected arguments \(extractor.remainingArguments); usage: swift package --allow-writing-to-package-directory generate-keys [--target NAME]..."
            )
        }
        let targets = try targetsWithManifests(in: context.package, named: targetNames)
        let tool = try keycatalogExecutable(packageManager)
        for target in targets {
            let output = target.directory.appendingPathComponent(generatedFileName)
            let status = try runTool(tool, ["generate", target.manifest.path, "--output", output.path])
            guard status == 0 else {
                throw KeyCatalogPluginError(description: "generate-keys failed for target '\(target.name)' (exit code \(status))")
            }
            print("generate-keys: \(target.name) -> \(output.path)")
            print("generate-keys: if '\(target.name)' also uses KeyCatalogPlugin, remove it from the target's plugins (or delete this file): both make the same catalog")
        }
    }
}
