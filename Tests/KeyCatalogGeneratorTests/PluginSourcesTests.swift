import Foundation
import Testing

/// Each plugin is one source file holding copies of the Plugins/Shared files it uses (see
/// Plugins/Shared/PluginCore.swift for why); a copy that differs from its original fails here.
/// `Scripts/sync-plugin-sources.sh` rewrites the copies.
@Suite("plugin sources")
struct PluginSourcesTests {
    static let plugins = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Plugins")

    /// The shared files each plugin holds (Scripts/sync-plugin-sources.sh lists the same).
    static let uses: [(plugin: String, shared: [String])] = [
        ("KeyCatalogPlugin", ["PluginCore"]),
        ("LintKeys", ["PluginCore", "CommandPluginSupport"]),
        ("GenerateKeys", ["PluginCore", "CommandPluginSupport"]),
    ]

    /// A shared file as copied: from its first declaration (or doc comment) on, without the
    /// header comment and imports.
    static func copiedText(of shared: String) throws -> String {
        let text = try String(contentsOf: plugins.appendingPathComponent("Shared/\(shared).swift"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let starts = ["///", "let ", "var ", "func ", "struct ", "enum ", "extension ", "final ", "private ", "fileprivate "]
        let first = try #require(lines.firstIndex { line in starts.contains { line.hasPrefix($0) } })
        return lines[first...].joined(separator: "\n")
    }

    @Test("every plugin holds an identical copy of each shared file it uses", arguments: uses.map(\.plugin))
    func copiesAreCurrent(plugin: String) throws {
        let source = try String(contentsOf: Self.plugins.appendingPathComponent("\(plugin)/\(plugin).swift"), encoding: .utf8)
        let shared = try #require(Self.uses.first { $0.plugin == plugin }).shared
        for name in shared {
            let marker = "// MARK: - Copied from Plugins/Shared/\(name).swift by Scripts/sync-plugin-sources.sh: edit it there\n\n"
            let copy = try Self.copiedText(of: name)
            #expect(source.contains(marker + copy), "Plugins/\(plugin)/\(plugin).swift: its copy of Plugins/Shared/\(name).swift differs; run Scripts/sync-plugin-sources.sh")
        }
    }

    @Test("each plugin is one source file (a second one costs every client's build a compiler job)", arguments: uses.map(\.plugin))
    func oneSourceFile(plugin: String) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.plugins.appendingPathComponent(plugin).path)
        #expect(files.filter { $0.hasSuffix(".swift") } == ["\(plugin).swift"])
    }
}
