// Shared by every KeyCatalog plugin: symlinked into each plugin's folder, because plugins cannot
// depend on library targets.
import Foundation
import PackagePlugin

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

/// `keycatalog`'s exit code for a usage error (`EX_USAGE`): bad arguments, not findings.
let toolUsageErrorStatus: Int32 = 64

/// Runs `keycatalog` with `arguments`, passing its output through; returns its exit status.
/// The `keycatalog` executable for a command plugin, built like `swift build --product keycatalog`.
///
/// Command plugins build it through the package manager instead of declaring it as a plugin
/// dependency: a dependency is linked as `keycatalog-tool` by both the plugin-tools build and the
/// package's build (when a target also uses the build plugin), each relinking it over the other's,
/// so every `lint-keys` relinked the tool and the next `swift build` regenerated every catalog.
/// This build is incremental (a no-op when nothing changed) and shares nothing with the build
/// plugin's tool.
func keycatalogExecutable(_ packageManager: PackageManager) throws -> URL {
    let result = try packageManager.build(.product("keycatalog"), parameters: .init(configuration: .debug, logging: .concise))
    guard result.succeeded else {
        throw KeyCatalogPluginError(description: "could not build the keycatalog tool:\n\(result.logText)")
    }
    guard let tool = result.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "keycatalog" }) else {
        throw KeyCatalogPluginError(
            description: "building product 'keycatalog' gave no 'keycatalog' executable (built: \(result.builtArtifacts.map(\.url.lastPathComponent).joined(separator: ", ")))"
        )
    }
    return tool.url
}

func runTool(_ tool: URL, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}

/// The source-module targets of a package that have a manifest, optionally only those named.
func targetsWithManifests(in package: Package, named names: [String]) throws -> [(name: String, directory: URL, manifest: URL)] {
    let modules = package.targets.compactMap { $0 as? SourceModuleTarget }
    for name in names where !modules.contains(where: { $0.name == name }) {
        let withManifests = modules.filter { manifestURL(inTargetDirectory: $0.directoryURL) != nil }.map(\.name).sorted()
        let choices =
            withManifests.isEmpty
            ? "none of its source targets has a \(manifestFileName) (source targets: \(modules.map(\.name).sorted().joined(separator: ", ")))"
            : "targets with a \(manifestFileName): \(withManifests.joined(separator: ", "))"
        throw KeyCatalogPluginError(
            description: "no source target named '\(name)' in package '\(package.displayName)'; pass --target with one of its targets; \(choices)"
        )
    }
    let selected = names.isEmpty ? modules : modules.filter { names.contains($0.name) }
    let found = selected.compactMap { target in
        manifestURL(inTargetDirectory: target.directoryURL).map { (name: target.name, directory: target.directoryURL, manifest: $0) }
    }
    for name in names where !found.contains(where: { $0.name == name }) {
        let directory = modules.first { $0.name == name }!.directoryURL
        throw KeyCatalogPluginError(
            description: "target '\(name)' has no \(manifestFileName) in \(directory.path); add one there"
        )
    }
    return found
}
