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
    func performCommand(context: PluginContext, arguments: [String]) throws {
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

// MARK: - Copied from Plugins/Shared/CommandPluginSupport.swift by Scripts/sync-plugin-sources.sh: edit it there

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
    var built: [String] = []
    for artifact in result.builtArtifacts {
        let name = artifact.url.lastPathComponent
        if artifact.kind == .executable && name == "keycatalog" {
            return artifact.url
        }
        built.append(name)
    }
    throw KeyCatalogPluginError(
        description: "building product 'keycatalog' gave no 'keycatalog' executable (built: \(built.joined(separator: ", ")))"
    )
}

/// Runs `keycatalog` with `arguments`, passing its output through; returns its exit status.
func runTool(_ tool: URL, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}

/// A source-module target that has a manifest.
struct ManifestTarget {
    let name: String
    let directory: URL
    let manifest: URL
}

/// The source-module targets of a package that have a manifest, optionally only those named.
///
/// Written as loops, without closures or key paths: SwiftPM compiles every plugin of this package
/// for every client's build, and closures cost compile time (BENCHMARKS.md, "Client build").
func targetsWithManifests(in package: Package, named names: [String]) throws -> [ManifestTarget] {
    var modules: [SourceModuleTarget] = []
    for target in package.targets {
        if let module = target as? SourceModuleTarget {
            modules.append(module)
        }
    }
    var moduleNames: [String] = []
    var found: [ManifestTarget] = []
    var foundNames: [String] = []
    for module in modules {
        moduleNames.append(module.name)
        if names.isEmpty || names.contains(module.name), let manifest = manifestURL(inTargetDirectory: module.directoryURL) {
            found.append(ManifestTarget(name: module.name, directory: module.directoryURL, manifest: manifest))
            foundNames.append(module.name)
        }
    }
    for name in names where !moduleNames.contains(name) {
        var withManifests: [String] = []
        for module in modules where manifestURL(inTargetDirectory: module.directoryURL) != nil {
            withManifests.append(module.name)
        }
        let choices: String
        if withManifests.isEmpty {
            choices = "none of its source targets has a \(manifestFileName) (source targets: \(moduleNames.sorted().joined(separator: ", ")))"
        } else {
            choices = "targets with a \(manifestFileName): \(withManifests.sorted().joined(separator: ", "))"
        }
        throw KeyCatalogPluginError(
            description: "no source target named '\(name)' in package '\(package.displayName)'; pass --target with one of its targets; \(choices)"
        )
    }
    for name in names where !foundNames.contains(name) {
        for module in modules where module.name == name {
            throw KeyCatalogPluginError(
                description: "target '\(name)' has no \(manifestFileName) in \(module.directoryURL.path); add one there"
            )
        }
    }
    return found
}
