import Foundation
import Testing

@testable import KeyCatalogGenerator

/// `keycatalog generate FILE --output PATH`, driven through `KeyCatalogCommand.run` on real files.
@Suite("generate command")
struct GenerateCommandTests {
    /// A temporary folder with a manifest in it, removed afterwards.
    final class Workspace {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("keycatalog-generate-\(UUID().uuidString)")
        init() { try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }

        func path(_ name: String) -> String { url.appendingPathComponent(name).path }

        func write(_ text: String, to name: String) throws {
            try Data(text.utf8).write(to: url.appendingPathComponent(name))
        }

        func read(_ name: String) -> String? {
            FileManager.default.contents(atPath: path(name)).map { String(decoding: $0, as: UTF8.self) }
        }

        func modificationDate(_ name: String) throws -> Date? {
            try FileManager.default.attributesOfItem(atPath: path(name))[.modificationDate] as? Date
        }
    }

    static let manifest = #"""
        { "version": 1, "keys": [{ "name": "launchCount", "type": "Int", "default": 0 }] }
        """#

    @Test("writes the rendered catalog, creating folders, and exits 0")
    func writes() throws {
        let workspace = Workspace()
        try workspace.write(Self.manifest, to: "keys.json")
        let result = KeyCatalogCommand.run(["generate", workspace.path("keys.json"), "--output", workspace.path("Generated/Keys.swift")])
        #expect(result == CommandResult(exitCode: 0))
        let catalog = try #require(ManifestLoader.load(contents: Array(Self.manifest.utf8), path: "keys.json").catalog)
        #expect(workspace.read("Generated/Keys.swift") == SwiftRenderer(catalog: catalog, manifestPath: "keys.json").render())
    }

    @Test("an unchanged catalog is not rewritten: the modification date stays")
    func unchangedNotRewritten() throws {
        let workspace = Workspace()
        try workspace.write(Self.manifest, to: "keys.json")
        let arguments = ["generate", workspace.path("keys.json"), "--output=\(workspace.path("Keys.swift"))"]
        #expect(KeyCatalogCommand.run(arguments).exitCode == 0)

        let past = Date(timeIntervalSince1970: 946_684_800)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: workspace.path("Keys.swift"))
        try workspace.write(Self.manifest + "\n", to: "keys.json")  // touched, same catalog
        #expect(KeyCatalogCommand.run(arguments).exitCode == 0)
        #expect(try workspace.modificationDate("Keys.swift") == past)

        // A real change is written.
        try workspace.write(Self.manifest.replacingOccurrences(of: "\"default\": 0", with: "\"default\": 1"), to: "keys.json")
        #expect(KeyCatalogCommand.run(arguments).exitCode == 0)
        #expect(try workspace.modificationDate("Keys.swift") != past)
        #expect(workspace.read("Keys.swift")?.contains("Self(\"launchCount\", defaultValue: 1)") == true)
    }

    @Test("a manifest with errors prints diagnostics, exits 1 and leaves the output alone")
    func errors() throws {
        let workspace = Workspace()
        try workspace.write(#"{ "version": 1, "keys": [{ "name": "retryCount", "type": "Integer", "default": 3 }] }"#, to: "keys.json")
        try workspace.write("// previous\n", to: "Keys.swift")
        let manifest = workspace.path("keys.json")
        let result = KeyCatalogCommand.run(["generate", manifest, "--output", workspace.path("Keys.swift")])
        #expect(result.exitCode == 1)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "\(manifest):1:58: error: unknown type 'Integer' for key 'retryCount'; did you mean 'Int'?\n")
        #expect(workspace.read("Keys.swift") == "// previous\n")
    }

    @Test("warnings are printed, and the catalog is still written")
    func warnings() throws {
        let workspace = Workspace()
        try workspace.write(#"{ "version": 1, "keys": [{ "name": "a", "key": "a.b", "type": "Int", "default": 0 }] }"#, to: "keys.json")
        let result = KeyCatalogCommand.run(["generate", workspace.path("keys.json"), "--output", workspace.path("Keys.swift")])
        #expect(result.exitCode == 0)
        #expect(result.standardError.contains("warning: storage key 'a.b'"))
        #expect(workspace.read("Keys.swift") != nil)
    }

    /// What is at the output path stays what it is (found by a review: each was replaced by a
    /// plain file, the symbolic link's target left stale).
    @Test("through a symbolic link, the file it points to is written and the link kept")
    func symbolicLink() throws {
        let workspace = Workspace()
        try workspace.write(Self.manifest, to: "keys.json")
        try workspace.write("// old\n", to: "Real.swift")
        try FileManager.default.createSymbolicLink(atPath: workspace.path("Link.swift"), withDestinationPath: "Real.swift")
        let result = KeyCatalogCommand.run(["generate", workspace.path("keys.json"), "--output", workspace.path("Link.swift")])
        #expect(result == CommandResult(exitCode: 0))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: workspace.path("Link.swift")) == "Real.swift")
        #expect(workspace.read("Real.swift")?.contains("launchCount") == true)
    }

    @Test("a pipe is written to, not replaced")
    func pipe() throws {
        let workspace = Workspace()
        try workspace.write(Self.manifest, to: "keys.json")
        let fifo = workspace.path("Keys.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var text = ""
        Thread {
            let handle = FileHandle(forReadingAtPath: fifo)
            text = String(decoding: (try? handle?.readToEnd()) ?? Data(), as: UTF8.self)
            received.signal()
        }.start()
        #expect(KeyCatalogCommand.run(["generate", workspace.path("keys.json"), "--output", fifo]).exitCode == 0)
        #expect(received.wait(timeout: .now() + 30) == .success)
        #expect(text.contains("launchCount"))
        #expect(try FileManager.default.attributesOfItem(atPath: fifo)[.type] as? FileAttributeType != .typeRegular)
    }

    @Test("rewriting a file keeps its permissions")
    func permissions() throws {
        let workspace = Workspace()
        try workspace.write(Self.manifest, to: "keys.json")
        try workspace.write("// old\n", to: "Keys.swift")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: workspace.path("Keys.swift"))
        #expect(KeyCatalogCommand.run(["generate", workspace.path("keys.json"), "--output", workspace.path("Keys.swift")]).exitCode == 0)
        #expect(workspace.read("Keys.swift")?.contains("launchCount") == true)
        let permissions = try FileManager.default.attributesOfItem(atPath: workspace.path("Keys.swift"))[.posixPermissions] as? Int
        #expect(permissions == 0o640)
    }

    @Test("a folder, or a path ending in '/', is refused with a clear error")
    func folders() throws {
        let workspace = Workspace()
        try workspace.write(Self.manifest, to: "keys.json")
        try FileManager.default.createDirectory(atPath: workspace.path("Out"), withIntermediateDirectories: false)
        let folder = KeyCatalogCommand.run(["generate", workspace.path("keys.json"), "--output", workspace.path("Out")])
        #expect(folder.exitCode == 1)
        #expect(folder.standardError == "error: cannot write '\(workspace.path("Out"))': it is a folder; give the path of a .swift file\n")
        let slash = KeyCatalogCommand.run(["generate", workspace.path("keys.json"), "--output", workspace.path("New") + "/"])
        #expect(slash.exitCode == 1)
        #expect(slash.standardError == "error: cannot write '\(workspace.path("New"))/': it names a folder; give the path of a .swift file\n")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("New")))
    }

    @Test("a missing manifest is an error at file:1:1")
    func missingManifest() {
        let workspace = Workspace()
        let result = KeyCatalogCommand.run(["generate", workspace.path("nope.json"), "--output", workspace.path("Keys.swift")])
        #expect(result.exitCode == 1)
        #expect(result.standardError.hasPrefix("\(workspace.path("nope.json")):1:1: error: no such file"))
        #expect(workspace.read("Keys.swift") == nil)
    }

    @Test(
        "usage errors exit 64 with the message and help",
        arguments: [
            (["generate"], "error: missing manifest; use 'keycatalog generate keys.json --output Keys.swift'"),
            (["generate", "keys.json"], "error: missing '--output'; give the Swift file to write, as in '--output Keys.swift'"),
            (["generate", "keys.json", "--output"], "error: missing value for '--output'; give the Swift file to write, as in '--output Keys.swift'"),
            (["generate", "a.json", "b.json", "--output", "K.swift"], "error: give exactly one manifest, not 2"),
            (["generate", "keys.json", "--ouput", "K.swift"], "error: unknown option '--ouput' for 'keycatalog generate'; did you mean '--output'?"),
            (["generate", "missing.json", "-o", "A.swift", "--output=B.swift"], "error: '--output' is given twice; give the Swift file to write once"),
        ]
    )
    func usage(_ arguments: [String], _ message: String) {
        let result = KeyCatalogCommand.run(arguments)
        #expect(result.exitCode == 64)
        #expect(result.standardError.hasPrefix(message + "\n\n"))
        #expect(result.standardError.contains("USAGE: keycatalog generate <file> --output <path>"))
    }

    @Test("--help describes the command; the overview lists it")
    func help() {
        let result = KeyCatalogCommand.run(["generate", "--help"])
        #expect(result.exitCode == 0 && result.standardOutput == GenerateCommand.help)
        #expect(KeyCatalogCommand.run(["--help"]).standardOutput.contains("generate  "))
    }
}
