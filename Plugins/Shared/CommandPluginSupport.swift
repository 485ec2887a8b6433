// Declarations the command plugins (LintKeys, GenerateKeys) use, copied into each like
// PluginCore.swift (see there); the build plugin does not need them, so does not compile them.
import Foundation
import PackagePlugin

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
