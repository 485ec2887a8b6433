// Declarations every KeyCatalog plugin uses. Each plugin is ONE source file that holds a copy of
// this file below its imports (Scripts/sync-plugin-sources.sh writes the copies; the test
// PluginSourcesTests fails when one differs), not a symlink to it: a second source file costs a
// plugin a second compiler job, and SwiftPM compiles every plugin of a package for every build of
// every client, including clients of the library alone (BENCHMARKS.md, "Client build").
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
