import Foundation
import Testing

@testable import KeyCatalogGenerator

/// The README documents the manifest; these keep it true to the code.
@Suite("README")
struct ReadmeTests {
    static let readme =
        (try? String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("README.md"),
            encoding: .utf8
        )) ?? ""

    @Test("lists every lint rule with its summary", arguments: Linter.rules.map { ($0.id, $0.summary) })
    func listsRule(id: String, summary: String) {
        #expect(Self.readme.contains("| `\(id)` | \(summary) |"), "README's rule table lacks: | `\(id)` | \(summary) |")
    }

    @Test("names only rules that exist")
    func namesNoOtherRule() {
        let ids = Set(Linter.rules.map(\.id))
        let table =
            Self.readme.components(separatedBy: "| rule | finds |").dropFirst().first?
            .components(separatedBy: "\n\n").first ?? ""
        let listed = table.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return line.dropFirst(3).split(separator: "`").first.map(String.init)
        }
        #expect(!listed.isEmpty)
        #expect(Set(listed) == ids)
    }

    /// The README's fenced code blocks: the language after the fence, the marker comment on the
    /// line before it (`<!-- quick-start: PATH -->`) if any, and the text.
    static let codeBlocks: [(language: String, marker: String?, text: String)] = {
        var blocks: [(String, String?, String)] = []
        let lines = readme.components(separatedBy: "\n")
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("```"), line.count > 3 else {
                index += 1
                continue
            }
            let previous = index > 0 ? lines[index - 1] : ""
            let marker = previous.hasPrefix("<!-- quick-start: ") ? String(previous.dropFirst(18).dropLast(4)) : nil
            var body: [String] = []
            index += 1
            while index < lines.count, !lines[index].hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            blocks.append((String(line.dropFirst(3)), marker, body.joined(separator: "\n")))
            index += 1
        }
        return blocks
    }()

    /// Every whole manifest the README shows (a ```json or ```jsonc block with a "version").
    static let manifests: [String] = codeBlocks.filter { ["json", "jsonc"].contains($0.language) && $0.text.contains(#""version""#) }.map(\.text)

    @Test("every manifest in the README lints clean, warnings included")
    func manifestsLintClean() {
        #expect(Self.manifests.count >= 2, "the pitch and the quick start at least")
        for manifest in Self.manifests {
            #expect(lint(manifest) == [], "README manifest:\n\(manifest)")
        }
    }

    @Test("the quick start has its four files, in Swift and JSON")
    func quickStartFiles() {
        let files = Self.codeBlocks.compactMap(\.marker)
        #expect(files == ["Package.swift", "Sources/MyApp/keys.json", "Sources/MyApp/MyApp.swift", "Tests/MyAppTests/MyAppTests.swift"])
    }

    @Test("the quick start depends on this release of KeyCatalog")
    func quickStartVersion() {
        #expect(Self.readme.contains(#"KeyCatalog.git", from: "\#(KeyCatalogCommand.version)")"#))
    }
}
