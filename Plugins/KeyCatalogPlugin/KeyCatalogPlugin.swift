import Foundation
import PackagePlugin

/// Generates a target's key catalog from the `keys.json` in its folder, at build time.
///
/// The manifest is the build command's input, so a build without changes does not rerun the tool,
/// and an edit regenerates and recompiles only that target. Manifest errors fail the build as
/// `keys.json:LINE:COL: error: …` lines. A target that also holds a committed
/// `KeyCatalog.generated.swift` (from `generate-keys`) fails with a message naming that file.
@main
struct KeyCatalogPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        guard let manifest = manifestURL(inTargetDirectory: module.directoryURL) else {
            throw missingManifestError(target: target.name, directory: module.directoryURL)
        }
        // A catalog committed by generate-keys would be a second producer of the same file.
        if let committed = module.sourceFiles.first(where: { $0.url.lastPathComponent == generatedFileName }) {
            throw committedCatalogError(target: target.name, file: committed.url)
        }
        return [
            generationCommand(
                tool: try context.tool(named: "keycatalog").url,
                manifest: manifest,
                workDirectory: context.pluginWorkDirectoryURL
            )
        ]
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension KeyCatalogPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        guard let manifest = target.inputFiles.first(where: { $0.url.lastPathComponent == manifestFileName })?.url else {
            throw KeyCatalogPluginError(
                description: "target '\(target.displayName)' uses KeyCatalogPlugin but has no \(manifestFileName) among its files; add one to the target"
            )
        }
        if let committed = target.inputFiles.first(where: { $0.url.lastPathComponent == generatedFileName }) {
            throw committedCatalogError(target: target.displayName, file: committed.url)
        }
        return [
            generationCommand(
                tool: try context.tool(named: "keycatalog").url,
                manifest: manifest,
                workDirectory: context.pluginWorkDirectoryURL
            )
        ]
    }
}
#endif
