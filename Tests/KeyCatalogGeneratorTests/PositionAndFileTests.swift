import Foundation
import Testing

@testable import KeyCatalogGenerator

/// Issue 10's command-line findings: positions an editor agrees with, files that are not
/// manifests, the manifest never overwritten, and messages that stay one readable line.
@Suite("Positions, files and messages")
struct PositionAndFileTests {
    @Test("a lone CR ends a line, as CRLF and LF do")
    func carriageReturns() {
        let json = "{\r  \"version\": 1,\r  \"keys\": [\r    { \"name\": \"a\", \"type\": \"Integer\", \"default\": 1 }\r  ]\r}\r"
        #expect(lint(json) == ["keys.json:4:28: error: unknown type 'Integer' for key 'a'; did you mean 'Int'?"])
        #expect(lint(json.replacing("\r", with: "\r\n")) == lint(json))
    }

    @Test("columns count Unicode scalars, not UTF-8 bytes")
    func columnsInCharacters() {
        let json = "{\n  \"version\": 1,\n  \"keys\": [\n    { \"doc\": \"éééé\", \"name\": \"a\", \"type\": \"Integer\", \"default\": 1 }\n  ]\n}\n"
        #expect(lint(json) == ["keys.json:4:43: error: unknown type 'Integer' for key 'a'; did you mean 'Int'?"])
    }

    /// A number of a million digits was quoted whole (found by a review): a message of 1 MB.
    @Test("a huge number is cut short in a message", arguments: ["Int", "Double"])
    func hugeNumbers(type: String) {
        let number = type == "Int" ? "1" + String(repeating: "0", count: 100_000) : "1e" + String(repeating: "9", count: 100_000)
        let messages = lint("{ \"version\": 1, \"keys\": [{ \"name\": \"a\", \"type\": \"\(type)\", \"default\": \(number) }] }")
        #expect(messages.count == 1)
        #expect(messages.allSatisfy { $0.count < 300 && $0.contains("…") }, "\(messages.map(\.count))")
    }

    /// Stray continuation bytes took no column (found by a review): four invalid bytes were
    /// reported at one position, and everything after them too far left.
    @Test("a byte that is no part of a character is one column")
    func strayBytes() {
        let json =
            Array("{ \"version\": 1, \"keys\": [{ \"doc\": \"".utf8) + [0x80, 0x80, 0xE9, 0x41]
            + Array("\", \"name\": \"a\", \"type\": \"Integer\", \"default\": 1 }] }".utf8)
        let diagnostics = ManifestLoader.load(contents: json, path: "keys.json").diagnostics.map(\.description)
        #expect(
            diagnostics.map { $0.split(separator: ":").prefix(3).joined(separator: ":") }
                == ["keys.json:1:36", "keys.json:1:37", "keys.json:1:38", "keys.json:1:64"], "\(diagnostics)")
    }

    @Test(
        "a UTF-32 file is called UTF-32",
        arguments: [
            ([0xFF, 0xFE, 0, 0, 0x7B, 0, 0, 0], "UTF-32"), ([0, 0, 0xFE, 0xFF, 0, 0, 0, 0x7B], "UTF-32"),
            ([0x7B, 0, 0, 0, 0x7D, 0, 0, 0], "UTF-32"), ([0xFF, 0xFE, 0x7B, 0], "UTF-16"), ([0x7B, 0, 0x7D, 0], "UTF-16"),
        ] as [([UInt8], String)])
    func wideEncodings(bytes: [UInt8], encoding: String) {
        let diagnostics = ManifestLoader.load(contents: bytes, path: "keys.json").diagnostics.map(\.description)
        #expect(diagnostics == ["keys.json:1:1: error: the file is \(encoding); save it as UTF-8"])
    }

    @Test("a directory or a device is named for what it is")
    func notAFile() throws {
        try CommandTests.withFiles([:]) { folder in
            let path = folder.path
            let result = KeyCatalogCommand.run(["lint", path])
            // Quoted paths over 60 characters are cut, as every long quoted value is (TMPDIR is
            // long on macOS, and in CI).
            let message = "'\(path)' is a directory, not a manifest; give the manifest's path, as in '\(path.hasSuffix("/") ? path : path + "/")keys.json'"
            #expect(result.standardError == "\(path):1:1: error: \(message.sanitizedForDiagnostic)\n")
        }
        #expect(KeyCatalogCommand.run(["lint", "/dev/null"]).standardError == "/dev/null:1:1: error: '/dev/null' is a character device, not a regular file; give the path of a keys.json file\n")
    }

    /// Found by a review: both were "no such file".
    @Test("a symbolic link loop and a link to nothing are named for what they are")
    func linksThatLeadNowhere() throws {
        try CommandTests.withFiles([:]) { folder in
            let loop = folder.appendingPathComponent("loop.json").path
            try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
            let dangling = folder.appendingPathComponent("dangling.json").path
            try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: folder.appendingPathComponent("gone.json").path)
            let looped = ManifestLoader.load(fileAtPath: loop).diagnostics.map(\.message)
            #expect(looped == ["cannot open '\(loop)': Too many levels of symbolic links; check the path and its folders' permissions"])
            let nowhere = ManifestLoader.load(fileAtPath: dangling).diagnostics.map(\.message)
            #expect(nowhere == ["'\(dangling)' is a symbolic link to nothing; check where it points"])
        }
    }

    /// Found by a review: printed raw, a line break in the path, or U+2028 in a name, cut a
    /// diagnostic in two for line-based readers.
    @Test("a diagnostic stays on one line, whatever the path and the names")
    func oneLine() {
        let manifest = Array(#"{ "version": 1, "keys": [], "a\#u{2028}b": 1 }"#.utf8)
        let diagnostics = ManifestLoader.load(contents: manifest, path: "x\ny.json").diagnostics.map(\.description)
        #expect(diagnostics == [#"x\ny.json:1:29: error: unknown field 'a\u{2028}b' in the manifest; remove it (known fields: version, catalog, access, imports, defaultStore, stores, types, keys)"#])
    }

    @Test("generate refuses to write over its own manifest, however the path is spelled")
    func outputIsInput() throws {
        try CommandTests.withFiles(["keys.json": Manifests.small]) { folder in
            let manifest = folder.appendingPathComponent("keys.json").path
            let link = folder.appendingPathComponent("link.json").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: manifest)
            for output in [manifest, folder.appendingPathComponent("./sub/../keys.json").path, link] {
                let result = KeyCatalogCommand.run(["generate", manifest, "--output", output])
                #expect(result.exitCode == 64)
                #expect(result.standardError.hasPrefix("error: '--output \(output)' is the manifest '\(manifest)' itself, which generating would overwrite with Swift; write to a .swift file, as in '--output Keys.swift'"))
            }
            #expect(try String(contentsOfFile: manifest, encoding: .utf8) == Manifests.small)
        }
    }

    @Test("quoted values in messages are escaped and cut")
    func messages() {
        let newline = lint(#"{ "version": 1, "keys": [{ "name": "a", "type": "In\nteger", "default": 1 }] }"#)
        #expect(newline.allSatisfy { !$0.contains("\n") })
        #expect(newline.first?.contains(#"In\nteger"#) == true)

        let huge = String(repeating: "A", count: 200_000)
        let findings = lint(#"{ "version": 1, "keys": [{ "name": "a", "type": "\#(huge)", "default": 1 }] }"#)
        #expect(!findings.isEmpty && findings.allSatisfy { $0.count < 400 })
    }
}
