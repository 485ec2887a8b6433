import Foundation
import Testing

@testable import KeyCatalogGenerator

/// The generator's golden files: each `Tests/Fixtures/Goldens/<case>/keys.json` renders exactly
/// its `Expected.swift`. The same files are compiled and exercised by `GeneratedCatalogTests`.
///
/// Re-record after an intended change with `KEYCATALOG_RECORD=1 swift test --filter GoldenTests`,
/// then review the diff in git.
@Suite("Golden generated catalogs")
struct GoldenTests {
    static let goldensFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Goldens")

    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: goldensFolder.path)) ?? []
        return names.filter { FileManager.default.fileExists(atPath: goldensFolder.appendingPathComponent("\($0)/keys.json").path) }.sorted()
    }()

    static var isRecording: Bool {
        ProcessInfo.processInfo.environment["KEYCATALOG_RECORD"].map { !$0.isEmpty && $0 != "0" } ?? false
    }

    @Test("the goldens folder holds every case")
    func casesExist() {
        #expect(
            Self.cases == [
                "annotations", "basic", "custom-types", "debug-keys", "enums", "every-type", "keywords",
                "large-defaults", "literals", "many-keys", "name-clashes", "parameterized", "public-access", "representations",
                "shadowing", "stores", "sync", "transforms",
            ])
    }

    @Test("keys.json renders exactly Expected.swift", arguments: cases)
    func golden(_ name: String) throws {
        let folder = Self.goldensFolder.appendingPathComponent(name)
        let manifest = folder.appendingPathComponent("keys.json")
        let result = ManifestLoader.load(fileAtPath: manifest.path)
        #expect(result.diagnostics.map(\.description) == [], "goldens are clean manifests")
        let catalog = try #require(result.catalog)
        let actual = SwiftRenderer(catalog: catalog, manifestPath: "keys.json").render()

        let expectedURL = folder.appendingPathComponent("Expected.swift")
        if Self.isRecording {
            try Data(actual.utf8).write(to: expectedURL)
            return
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        if expected != actual {
            Issue.record(
                """
                \(name)/Expected.swift differs from the rendered catalog (- expected, + actual); \
                re-record with KEYCATALOG_RECORD=1 if the change is intended:
                \(LineDiff.render(expected: expected, actual: actual))
                """
            )
        }
    }

    @Test("rendering is deterministic and independent of the manifest's folder", arguments: cases)
    func deterministic(_ name: String) throws {
        let manifest = Self.goldensFolder.appendingPathComponent("\(name)/keys.json").path
        let catalog = try #require(ManifestLoader.load(fileAtPath: manifest).catalog)
        let relative = SwiftRenderer(catalog: catalog, manifestPath: "keys.json").render()
        let absolute = SwiftRenderer(catalog: catalog, manifestPath: manifest).render()
        #expect(relative == absolute)
        #expect(relative == SwiftRenderer(catalog: catalog, manifestPath: "keys.json").render())
    }

    @Test("every golden is symlinked into GeneratedCatalogTests, so it is compiled", arguments: cases)
    func compiled(_ name: String) throws {
        let link = Self.goldensFolder
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("GeneratedCatalogTests/Goldens/\(GoldenTests.symlinkName(for: name))")
        let destination = try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
        #expect(destination == "../../Fixtures/Goldens/\(name)/Expected.swift")
    }

    /// `public-access` -> `PublicAccess.generated.swift`.
    static func symlinkName(for name: String) -> String {
        name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + ".generated.swift"
    }

    @Test("the line diff shows what changed, with context")
    func lineDiff() {
        let diff = LineDiff.render(expected: "a\nb\nc\nd\n", actual: "a\nb\nX\nd\n")
        #expect(diff == "@@ line 1 @@\n  a\n  b\n- c\n+ X\n  d\n  ")
        #expect(LineDiff.render(expected: "same\n", actual: "same\n") == "")
    }
}
