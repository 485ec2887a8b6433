import Foundation
@testable import KeyCatalogGenerator
import Testing

/// The README documents the manifest; these keep it true to the code.
@Suite("README")
struct ReadmeTests {
    static let readme = (try? String(
        contentsOf: URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "README.md"),
        encoding: .utf8
    )) ?? ""

    @Test("lists every lint rule with its summary", arguments: Linter.rules.map { ($0.id, $0.summary) })
    func listsRule(id: String, summary: String) {
        #expect(Self.readme.contains("| `\(id)` | \(summary) |"), "README's rule table lacks: | `\(id)` | \(summary) |")
    }

    @Test("names only rules that exist")
    func namesNoOtherRule() {
        let ids = Set(Linter.rules.map(\.id))
        let table = Self.readme.components(separatedBy: "| rule | finds |").dropFirst().first?
            .components(separatedBy: "\n\n").first ?? ""
        let listed = table.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return line.dropFirst(3).split(separator: "`").first.map(String.init)
        }
        #expect(!listed.isEmpty)
        #expect(Set(listed) == ids)
    }
}
