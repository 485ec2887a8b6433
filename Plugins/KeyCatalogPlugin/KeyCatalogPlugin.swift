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
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
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

/// The error for a target that uses the build plugin but has no manifest.
func missingManifestError(target: String, directory: URL) -> KeyCatalogPluginError {
    KeyCatalogPluginError(
        description: """
            target '\(target)' uses KeyCatalogPlugin but has no \(manifestFileName) in \
            \(directory.path); add one there (a symlink to a shared keys.json works), \
            or remove KeyCatalogPlugin from the target's plugins
            """
    )
}

/// The error for a target that uses the build plugin and also holds a committed catalog (as
/// `generate-keys` writes): both would produce `KeyCatalog.generated.swift`, which SwiftPM reports
/// only as "multiple producers".
func committedCatalogError(target: String, file: URL) -> KeyCatalogPluginError {
    KeyCatalogPluginError(
        description: """
            target '\(target)' uses KeyCatalogPlugin and also contains \(file.path) \
            (written by generate-keys); the build plugin generates that catalog itself, so delete that file, \
            or remove KeyCatalogPlugin from the target's plugins to keep committed code
            """
    )
}

/// The build command that generates a target's catalog from its manifest.
func generationCommand(tool: URL, manifest: URL, workDirectory: URL) -> Command {
    let output = workDirectory.appendingPathComponent(generatedFileName)
    return .buildCommand(
        displayName: "Generating key catalog from \(manifest.lastPathComponent)",
        executable: tool,
        arguments: ["generate", manifest.path, "--output", output.path],
        inputFiles: [manifest],
        outputFiles: [output]
    )
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

// MARK: - Copied from Plugins/Shared/PluginCore.swift by Scripts/sync-plugin-sources.sh: edit it there

/// The manifest's file name, looked up in a target's own folder.
let manifestFileName = "keys.json"

/// The file the build plugin and `generate-keys` write.
let generatedFileName = "KeyCatalog.generated.swift"

/// A plugin failure whose message names the target, the file expected and the fix.
///
/// The description has no `error: ` prefix: SwiftPM adds its own when it reports the error.
struct KeyCatalogPluginError: Error, CustomStringConvertible {
    let description: String
}

/// The manifest of a target: `keys.json` in the target's folder (a symlink counts), or `nil`.
func manifestURL(inTargetDirectory directory: URL) -> URL? {
    let url = directory.appendingPathComponent(manifestFileName)
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
}
