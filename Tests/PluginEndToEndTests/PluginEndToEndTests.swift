// The build plugin and the command plugins, end to end: real `swift build` and `swift package`
// child processes on fixture packages that depend on this package by path.
//
// They take minutes (each fixture builds KeyCatalog and the generator), so they run when
// KEYCATALOG_END_TO_END=1, as `.ci/run` sets it: `KEYCATALOG_END_TO_END=1 swift test`.
import Foundation
import Testing

@Suite(
    "Build plugin and command plugins, end to end",
    .enabled(if: Fixture.isEnabled, "set KEYCATALOG_END_TO_END=1 to run (CI does)"),
    // Each test's `client` rewrites the one working copy (.build-e2e/PluginClient) the others build in.
    .serialized
)
struct PluginEndToEndTests {
    let client = try! Fixture.workingCopy(of: "PluginClient")

    @Test(.timeLimit(.minutes(15)))
    func debugBuildGeneratesACatalogThatWorksAgainstRealStores() throws {
        let build = try client.swift("build", "--product", "PluginClient")
        #expect(build.status == 0, "\(build.output)")
        let run = try client.run(".build/debug/PluginClient", environment: client.home)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("PluginClient: all checks passed"))
    }

    @Test(.timeLimit(.minutes(15)))
    func releaseBuildGetsReleaseDefaults() throws {
        let build = try client.swift("build", "-c", "release", "--product", "PluginClient")
        #expect(build.status == 0, "\(build.output)")
        // The client checks `verboseLogging` against its release default in a Release build.
        let run = try client.run(".build/release/PluginClient", environment: client.home)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("PluginClient: all checks passed"))
    }

    @Test(.timeLimit(.minutes(15)))
    func buildsAreIncremental() throws {
        #expect(try client.swift("build", "--product", "PluginClient").status == 0)
        let generated = try client.generatedFile()
        let firstGeneration = try Fixture.modificationDate(generated)

        // A build with nothing changed does not run the tool or touch its output.
        let noOp = try client.swift("build", "--product", "PluginClient")
        #expect(noOp.status == 0)
        #expect(!noOp.output.contains("Generating key catalog"), "\(noOp.output)")
        #expect(try Fixture.modificationDate(generated) == firstGeneration)

        // Touching keys.json reruns the tool, which leaves identical output alone.
        let manifest = client.url.appendingPathComponent("Sources/PluginClient/keys.json")
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: manifest.path)
        let touched = try client.swift("build", "--product", "PluginClient")
        #expect(touched.status == 0)
        #expect(touched.output.contains("Generating key catalog"), "\(touched.output)")
        #expect(try Fixture.modificationDate(generated) == firstGeneration)

        // Editing keys.json regenerates.
        let original = try String(contentsOf: manifest, encoding: .utf8)
        defer { try? original.write(to: manifest, atomically: true, encoding: .utf8) }
        try original.replacingOccurrences(of: #""name": "counter","#, with: #""name": "counter", "doc": "Edited.","#)
            .write(to: manifest, atomically: true, encoding: .utf8)
        let edited = try client.swift("build", "--product", "PluginClient")
        #expect(edited.status == 0, "\(edited.output)")
        #expect(try String(contentsOf: generated, encoding: .utf8).contains("/// Edited."), "\(edited.output)")
        // Only that target recompiles: not the runtime, not the generator.
        #expect(edited.output.contains("Compiling PluginClient"), "\(edited.output)")
        #expect(!edited.output.contains("Compiling KeyCatalog "), "\(edited.output)")
        #expect(!edited.output.contains("Compiling KeyCatalogGenerator"), "\(edited.output)")
    }

    @Test(.timeLimit(.minutes(15)))
    func manifestErrorsFailTheBuildAtTheirPositions() throws {
        let build = try client.swift("build", "--target", "BrokenManifest")
        #expect(build.status != 0)
        let manifest = client.url.appendingPathComponent("Sources/BrokenManifest/keys.json").path
        #expect(build.output.contains("\(manifest):4:37: error: unknown type 'Integer' for key 'retryCount'; did you mean 'Int'?"), "\(build.output)")
        #expect(build.output.contains("\(manifest):5:42: error: unknown field 'defualt' in key 'theme'; did you mean 'default'?"), "\(build.output)")
    }

    /// Found by a review: nothing generated was `nonisolated`, so in such a target the catalog's
    /// keys and registration table were the main actor's, and its nonisolated initializer and
    /// migrations could not use them (errors).
    @Test(.timeLimit(.minutes(15)))
    func aTargetWhoseDefaultIsolationIsTheMainActorBuildsWithoutWarnings() throws {
        // The target builds with warnings as errors (see the fixture's Package.swift), so a build
        // that succeeds, even one found up to date on a rerun, had none.
        let build = try client.swift("build", "--target", "MainActorClient")
        #expect(build.status == 0, "\(build.output)")
        let generated = build.output.split(separator: "\n").filter { $0.contains(".swift:") && ($0.contains(": warning:") || $0.contains(": error:")) }
        #expect(generated.isEmpty, "\(generated)")
    }

    @Test(.timeLimit(.minutes(15)))
    func aMissingTransformIsACompileErrorBesideWhatToWrite() throws {
        let build = try client.swift("build", "--target", "MissingTransform")
        #expect(build.status != 0)
        #expect(build.output.contains("error: cannot find 'compactFromLayoutMode' in scope"), "\(build.output)")
        // The error's line in the generated file follows the comment that says what to write.
        #expect(build.output.contains("//     func compactFromLayoutMode(_ oldValue: Swift.Int) -> Swift.Bool?"), "\(build.output)")
    }

    @Test(.timeLimit(.minutes(15)))
    func lintKeysPassesCleanManifestsAndFailsBrokenOnes() throws {
        let clean = try client.swift("package", "lint-keys", "--target", "PluginClient", "--strict")
        #expect(clean.status == 0, "\(clean.output)")

        let all = try client.swift("package", "lint-keys")
        #expect(all.status != 0)
        #expect(all.output.contains("Sources/BrokenManifest/keys.json:4:37: error: unknown type 'Integer'"), "\(all.output)")

        let github = try client.swift("package", "lint-keys", "--target", "BrokenManifest", "--format", "github")
        #expect(github.status != 0)
        #expect(github.output.contains("::error file="), "\(github.output)")
    }

    /// The fixture's targets also use the build plugin, whose tool SwiftPM links as
    /// `keycatalog-tool`; command plugins that declared it as a dependency relinked it on every run.
    @Test(.timeLimit(.minutes(15)))
    func commandPluginsRelinkNothingWhenNothingChanged() throws {
        #expect(try client.swift("build", "--target", "PluginClient").status == 0)
        let first = try client.swift("package", "lint-keys", "--target", "PluginClient")
        #expect(first.status == 0, "\(first.output)")
        for _ in 0..<2 {
            let again = try client.swift("package", "lint-keys", "--target", "PluginClient")
            #expect(again.status == 0, "\(again.output)")
            #expect(!again.output.contains("Linking"), "a second lint-keys linked something:\n\(again.output)")
            #expect(!again.output.contains("Compiling KeyCatalogGenerator"), "\(again.output)")
        }
    }

    @Test(.timeLimit(.minutes(15)))
    func lintKeysReportsUsageErrorsAsSuchAndEachErrorOnce() throws {
        let badFormat = try client.swift("package", "lint-keys", "--target", "PluginClient", "--format", "xml")
        #expect(badFormat.status != 0)
        #expect(badFormat.output.contains("error: unknown format 'xml' for '--format'"), "\(badFormat.output)")
        #expect(badFormat.output.contains("error: keycatalog rejected the arguments lint-keys passed it (a usage error, exit code 64"), "\(badFormat.output)")
        #expect(!badFormat.output.contains("found problems"), "\(badFormat.output)")

        let unknownTarget = try client.swift("package", "lint-keys", "--target", "NoSuchTarget")
        #expect(unknownTarget.status != 0)
        #expect(unknownTarget.output.contains("error: no source target named 'NoSuchTarget'"), "\(unknownTarget.output)")
        #expect(unknownTarget.output.contains("targets with a keys.json: BrokenManifest, MainActorClient, MissingTransform, PluginClient"), "\(unknownTarget.output)")
        #expect(!unknownTarget.output.contains("error: error:"), "\(unknownTarget.output)")
    }

    @Test(.timeLimit(.minutes(15)))
    func generateKeysWritesTheCatalogIntoTheTarget() throws {
        let output = client.url.appendingPathComponent("Sources/PluginClient/KeyCatalog.generated.swift")
        defer { try? FileManager.default.removeItem(at: output) }
        let generate = try client.swift("package", "--allow-writing-to-package-directory", "generate-keys", "--target", "PluginClient")
        #expect(generate.status == 0, "\(generate.output)")
        let contents = try String(contentsOf: output, encoding: .utf8)
        #expect(contents.contains("struct ClientKeys"))
        #expect(contents.contains("Do not edit"))
    }

    @Test(.timeLimit(.minutes(15)))
    func aCommittedCatalogInATargetThatUsesTheBuildPluginIsNamedNotAMultipleProducersError() throws {
        let committed = client.url.appendingPathComponent("Sources/PluginClient/KeyCatalog.generated.swift")
        defer { try? FileManager.default.removeItem(at: committed) }
        let generate = try client.swift("package", "--allow-writing-to-package-directory", "generate-keys", "--target", "PluginClient")
        #expect(generate.status == 0, "\(generate.output)")

        let build = try client.swift("build", "--product", "PluginClient")
        #expect(build.status != 0)
        #expect(build.output.contains("error: target 'PluginClient' uses KeyCatalogPlugin and also contains "), "\(build.output)")
        #expect(build.output.contains("Sources/PluginClient/KeyCatalog.generated.swift (written by generate-keys)"), "\(build.output)")
        #expect(build.output.contains("so delete that file, or remove KeyCatalogPlugin from the target's plugins"), "\(build.output)")
        #expect(!build.output.contains("multiple producers"), "\(build.output)")

        // Deleting the file, as the message says, fixes the build.
        try FileManager.default.removeItem(at: committed)
        let fixed = try client.swift("build", "--product", "PluginClient")
        #expect(fixed.status == 0, "\(fixed.output)")
    }

    @Test(.timeLimit(.minutes(20)))
    func theReadmeQuickStartBuildsRunsAndTestsAsPasted() throws {
        let app = try Fixture.readmeQuickStart()
        let build = try app.swift("build")
        #expect(build.status == 0, "\(build.output)")
        #expect(!build.output.contains("warning: "), "\(build.output)")
        let first = try app.run(".build/debug/MyApp", environment: app.home)
        let second = try app.run(".build/debug/MyApp", environment: app.home)
        #expect(first.status == 0 && second.status == 0, "\(first.output)\(second.output)")
        #expect(first.output.contains("Launch #1, theme system") && second.output.contains("Launch #2, theme dark"), "\(first.output)\(second.output)")
        let test = try app.swift("test")
        #expect(test.status == 0, "\(test.output)")
        #expect(test.output.contains("launchCountStartsAtZero"), "\(test.output)")
    }

    @Test(.timeLimit(.minutes(10)))
    func aTargetWithoutKeysJSONIsToldHowToFixIt() throws {
        let missing = try Fixture.workingCopy(of: "MissingManifest")
        let build = try missing.swift("build")
        #expect(build.status != 0)
        #expect(build.output.contains("target 'NoManifest' uses KeyCatalogPlugin but has no keys.json"), "\(build.output)")
        #expect(build.output.contains("add one there"), "\(build.output)")
        #expect(!build.output.contains("error: error:"), "SwiftPM adds the only 'error: ': \(build.output)")
    }
}

/// A fixture package copied into `.build-e2e/` (so tests may edit it and builds stay incremental
/// between runs), depending on this package by absolute path.
struct Fixture: Sendable {
    let url: URL

    static let isEnabled = ProcessInfo.processInfo.environment["KEYCATALOG_END_TO_END"] == "1"

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func workingCopy(of name: String) throws -> Fixture {
        let source = packageRoot.appendingPathComponent("Tests/Fixtures/\(name)")
        let copy = packageRoot.appendingPathComponent(".build-e2e/\(name)")
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: copy, withIntermediateDirectories: true)
        // Replace everything but the build folder, so builds stay incremental.
        for item in try fileManager.contentsOfDirectory(atPath: copy.path) where item != ".build" {
            try fileManager.removeItem(at: copy.appendingPathComponent(item))
        }
        for item in try fileManager.contentsOfDirectory(atPath: source.path) where item != ".build" {
            try fileManager.copyItem(at: source.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        let manifest = copy.appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
            .replacingOccurrences(of: #"path: "../../..""#, with: "path: \"\(packageRoot.path)\"")
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        return Fixture(url: copy)
    }

    /// The README's quick start as a package in `.build-e2e/MyApp/`: every block marked
    /// `<!-- quick-start: PATH -->` written to PATH, the dependency URL pointed at this package.
    static func readmeQuickStart() throws -> Fixture {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let copy = packageRoot.appendingPathComponent(".build-e2e/MyApp")
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: copy, withIntermediateDirectories: true)
        for item in try fileManager.contentsOfDirectory(atPath: copy.path) where item != ".build" {
            try fileManager.removeItem(at: copy.appendingPathComponent(item))
        }
        let lines = readme.components(separatedBy: "\n")
        var written = 0
        for (index, line) in lines.enumerated() where line.hasPrefix("<!-- quick-start: ") {
            let path = String(line.dropFirst(18).dropLast(4))
            let body = lines[(index + 2)...].prefix { !$0.hasPrefix("```") }
            var text = body.joined(separator: "\n") + "\n"
            if path == "Package.swift" {
                let url = #".package(url: "https://github.com/<you>/KeyCatalog.git", from: "1.0.0")"#
                try #require(text.contains(url), "the quick start's dependency line changed; update this test")
                text = text.replacingOccurrences(of: url, with: ".package(name: \"KeyCatalog\", path: \"\(packageRoot.path)\")")
            }
            let file = copy.appendingPathComponent(path)
            try fileManager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
            written += 1
        }
        try #require(written == 4, "the README's quick start has 4 marked files")
        return Fixture(url: copy)
    }

    /// A home folder inside the fixture, for what it runs: their suites and files go there, never
    /// into the real home folder.
    var home: [String: String] {
        ["HOME": url.appendingPathComponent("home").path, "XDG_CONFIG_HOME": url.appendingPathComponent("home/.config").path]
    }

    /// Runs `swift ARGUMENTS` in the fixture, returning its status and combined output.
    func swift(_ arguments: String...) throws -> (status: Int32, output: String) {
        try run("/usr/bin/env", ["swift"] + arguments)
    }

    /// Runs `executable` in the fixture, returning its status and combined output. Its temporary
    /// folder (`TMPDIR`) is the fixture's own, removed after the run: the compiler driver leaves a
    /// folder there for each compile, which would pile up in `/tmp`.
    func run(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let temporary = url.appendingPathComponent(".tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let process = Process()
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }.merging(environment) { $1 }
        process.executableURL = executable.hasPrefix("/") ? URL(fileURLWithPath: executable) : url.appendingPathComponent(executable)
        process.arguments = arguments
        process.currentDirectoryURL = url
        let output = url.appendingPathComponent(".build-output-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8))
    }

    /// The catalog the build plugin generated for the PluginClient target:
    /// `.build/plugins/outputs/<package>/PluginClient/destination/KeyCatalogPlugin/KeyCatalog.generated.swift`.
    ///
    /// Matched by the target's own path component, never by a substring of the whole path: this
    /// fixture's folder is also named PluginClient, so every target's output would match that, and
    /// the first one listed (MissingTransform's, once its test has built it) was read instead.
    func generatedFile() throws -> URL {
        let outputs = url.appendingPathComponent(".build/plugins/outputs")
        let files = (FileManager.default.enumerator(at: outputs, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
            .filter { file in
                let components = file.pathComponents
                return components.last == "KeyCatalog.generated.swift" && components.dropLast(3).last == "PluginClient"
            }
        try #require(files.count == 1, "exactly one catalog for the PluginClient target under \(outputs.path): \(files)")
        return files[0]
    }

    static func modificationDate(_ url: URL) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
    }
}
