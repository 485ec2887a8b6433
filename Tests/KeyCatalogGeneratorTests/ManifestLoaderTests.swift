import Testing

@testable import KeyCatalogGenerator

@Suite("ManifestLoader")
struct ManifestLoaderTests {
    @Test("a manifest using every feature loads without findings")
    func everyFeature() throws {
        let result = ManifestLoader.load(contents: Array(Manifests.everyFeature.utf8), path: "keys.json")
        #expect(result.diagnostics.map(\.description) == [])
        let catalog = try #require(result.catalog)
        #expect(catalog.name == "AppKeys")
        #expect(catalog.access == .public)
        #expect(catalog.stores.map(\.name) == ["standard", "shared", "cloud", "secrets", "settingsFile", "scratch"])
        #expect(catalog.stores[0].isImplicit)
        #expect(catalog.store(named: "secrets")?.kind == .keychain(service: "com.example.app", accessGroup: "TEAM.com.example", accessibility: .whenUnlockedThisDeviceOnly))
        #expect(catalog.store(named: "settingsFile")?.kind == .file(path: "settings.plist"))
        #expect(catalog.store(named: "shared")?.kind == .userDefaults(suite: "group.com.example.app"))

        let level = try #require(catalog.type(named: "Level"))
        #expect(level.cases.map(\.rawValue) == [.int(0), .int(10), .int(11)])
        let theme = try #require(catalog.type(named: "Theme"))
        #expect(theme.cases.map(\.rawValue) == [.string("system"), .string("light"), .string("Dark")])
        #expect(theme.doc == "The app's look.")

        let keys = Dictionary(uniqueKeysWithValues: catalog.keys.map { ($0.name, $0) })
        #expect(keys["launchCount"]?.storageKey.text == "LaunchCount")
        #expect(keys["launchCount"]?.default == .value(.integer("0")))
        #expect(keys["launchCount"]?.location == SourceLocation(file: "keys.json", line: 19, column: 15))
        #expect(keys["volume"]?.storageKey.text == "volume")
        #expect(keys["big"]?.default == .value(.integer("18446744073709551615")))
        #expect(keys["scale"]?.default == .value(.floating("2")))
        #expect(keys["greeting"]?.default == .value(.string("Hello, \"world\"\n")))
        #expect(keys["blob"]?.default == .value(.data(base64: "AAEC")))
        #expect(keys["firstLaunch"]?.default == .value(.date(iso8601: "2024-01-01T00:00:00Z", secondsSince1970: 1_704_067_200)))
        #expect(keys["firstLaunch"]?.representation == .iso8601)
        #expect(keys["theme"]?.type == .declaredEnum("Theme"))
        #expect(keys["theme"]?.store == "shared")
        #expect(keys["theme"]?.default == .value(.enumCase("dark")))
        #expect(keys["level"]?.type == .optional(.declaredEnum("Level")))
        #expect(keys["scores"]?.default == .value(.dictionary([.init(key: "alice", value: .integer("1")), .init(key: "bob", value: .integer("2"))])))
        #expect(keys["locale"]?.type == .custom("Locale"))
        #expect(keys["locale"]?.default == .value(.swift("Locale(identifier: \"en\")")))
        #expect(keys["showsDebugMenu"]?.default == .debugRelease(debug: .bool(true), release: .bool(false)))
        let layout = try #require(keys["selectedLayoutID"])
        #expect(layout.parameters.map(\.name) == ["listID", "index"])
        #expect(layout.parameters.map(\.type) == [.string, .int])
        #expect(layout.storageKey.segments == [.literal("layout_"), .placeholder("listID"), .literal("_"), .placeholder("index")])
        #expect(keys["apiToken"]?.secret == true)
        #expect(keys["oldFlag"]?.deprecated == "Use 'theme' instead.")
        #expect(keys["default"] != nil)
        let migrations = try #require(keys["sessions"]?.migrations)
        #expect(migrations.count == 3)
        #expect(migrations[0].fromStore == "standard")
        #expect(migrations[1].fromType == .string)
        #expect(migrations[1].transform == "sessionsFromString")
        #expect(migrations[2].fromStore == "shared")
        #expect(migrations[2].fromRepresentation == .string)
    }

    @Test("defaults: catalog Keys, access internal, store standard")
    func defaults() throws {
        let result = ManifestLoader.load(contents: Array(Manifests.small.utf8), path: "keys.json")
        let catalog = try #require(result.catalog)
        #expect(catalog.name == "Keys")
        #expect(catalog.access == .internal)
        #expect(catalog.defaultStore == "standard")
        #expect(catalog.keys.map(\.store) == ["standard", "standard"])
    }

    @Test("errors mean no catalog; warnings keep it")
    func errorsAndWarnings() {
        let bad = ManifestLoader.load(contents: Array(manifest(keys: #"{ "name": "a", "type": "Int" }"#).utf8), path: "keys.json")
        #expect(bad.catalog == nil)
        let warned = ManifestLoader.load(contents: Array(manifest(keys: #"{ "name": "a", "key": "x.y", "type": "Int", "default": 1 }"#).utf8), path: "keys.json")
        #expect(warned.catalog != nil)
        #expect(warned.diagnostics.map(\.severity) == [.warning])
    }

    @Test("a missing file is a positioned error")
    func missingFile() {
        let result = ManifestLoader.load(fileAtPath: "/nonexistent/keys.json")
        #expect(result.catalog == nil)
        #expect(
            result.diagnostics.map(\.description) == [
                "/nonexistent/keys.json:1:1: error: no such file '/nonexistent/keys.json'; check the path (the manifest is usually keys.json beside Package.swift or in the target's folder)"
            ])
    }
}
