@testable import KeyCatalogGenerator

/// Manifests shared by the tests.
enum Manifests {
    /// A valid manifest that uses every feature of manifest v1.
    static let everyFeature = #"""
        {
          "$schema": "https://example.com/keycatalog.schema.json",
          "version": 1,
          "catalog": "AppKeys",
          "access": "public",
          "defaultStore": "standard",
          "stores": {
            "shared": { "kind": "userDefaults", "suite": "group.com.example.app" },
            "cloud": { "kind": "ubiquitous" },
            "secrets": { "kind": "keychain", "service": "com.example.app", "accessGroup": "TEAM.com.example", "accessibility": "whenUnlockedThisDeviceOnly" },
            "settingsFile": { "kind": "file", "path": "settings.plist" },
            "scratch": { "kind": "memory" }
          },
          "types": {
            "Theme": { "kind": "enum", "rawType": "String", "cases": ["system", "light", { "name": "dark", "rawValue": "Dark" }], "doc": "The app's look." },
            "Level": { "kind": "enum", "rawType": "Int", "cases": ["low", { "name": "high", "rawValue": 10 }, "max"] }
          },
          "keys": [
            { "name": "launchCount", "key": "LaunchCount", "type": "Int", "default": 0, "doc": "How often the app started." },
            { "name": "volume", "type": "Int8", "default": -5 },
            { "name": "big", "type": "UInt64", "default": 18446744073709551615 },
            { "name": "ratio", "type": "Double", "default": 0.5 },
            { "name": "scale", "type": "Float", "default": 2 },
            { "name": "greeting", "type": "String", "default": "Hello, \"world\"\n" },
            { "name": "blob", "type": "Data", "default": "AAEC" },
            { "name": "firstLaunch", "type": "Date", "default": "2024-01-01T00:00:00Z", "representation": "iso8601" },
            { "name": "homepage", "type": "URL", "default": "https://example.com" },
            { "name": "installID", "type": "UUID", "default": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F" },
            { "name": "theme", "type": "Theme", "default": "dark", "store": "shared" },
            { "name": "level", "type": "Level?", "default": null, "store": "cloud" },
            { "name": "recent", "type": "[String]", "default": ["a", "b"] },
            { "name": "scores", "type": "[String: Int]", "default": { "alice": 1, "bob": 2 } },
            { "name": "lastSync", "type": "Date?", "default": null, "representation": "timeInterval" },
            { "name": "locale", "type": "Locale", "default": { "swift": "Locale(identifier: \"en\")" }, "representation": "codable" },
            { "name": "showsDebugMenu", "type": "Bool", "debugDefault": true, "releaseDefault": false },
            { "name": "selectedLayoutID", "key": "layout_{listID}_{index}", "parameters": { "index": "Int", "listID": "String" }, "type": "String?", "default": null },
            { "name": "apiToken", "type": "String?", "default": null, "secret": true, "store": "secrets" },
            { "name": "window", "type": "String", "default": "main", "store": "settingsFile" },
            { "name": "draft", "type": "String", "default": "", "store": "scratch" },
            { "name": "oldFlag", "type": "Bool", "default": false, "deprecated": "Use 'theme' instead." },
            { "name": "default", "type": "Bool", "default": true },
            { "name": "sessions", "type": "Int", "default": 0,
              "migrations": [
                { "fromKey": "sessionCount" },
                { "fromKey": "sessions", "fromType": "String", "transform": "sessionsFromString" },
                { "fromKey": "Sessions", "fromStore": "shared", "fromRepresentation": "string" }
              ] }
          ]
        }
        """#

    /// A small valid manifest.
    static let small = #"""
        {
          "version": 1,
          "keys": [
            { "name": "launchCount", "type": "Int", "default": 0 },
            { "name": "isOn", "type": "Bool", "default": false }
          ]
        }
        """#

    /// `n` keys of assorted types, for benchmarks and the fuzz test.
    static func generated(keys n: Int) -> String {
        let kinds = [
            (#""Int""#, "0"), (#""String""#, #""x""#), (#""Bool""#, "true"), (#""[String]""#, "[]"),
            (#""Double?""#, "null"), (#""Date""#, #""2024-01-01T00:00:00Z""#),
        ]
        var lines: [String] = []
        for index in 0..<n {
            let (type, value) = kinds[index % kinds.count]
            lines.append(#"    { "name": "key\#(index)", "type": \#(type), "default": \#(value) }"#)
        }
        return "{\n  \"version\": 1,\n  \"keys\": [\n" + lines.joined(separator: ",\n") + "\n  ]\n}\n"
    }
}

/// Loads `json` as `keys.json` and returns the diagnostics' compiler spelling.
func lint(_ json: String) -> [String] {
    ManifestLoader.load(contents: Array(json.utf8), path: "keys.json").diagnostics.map(\.description)
}

/// A manifest with `keys` (JSON text of the array's elements) and optional extra top-level members.
func manifest(keys: String, extra: String = "") -> String {
    "{\n\"version\": 1,\(extra)\n\"keys\": [\n\(keys)\n]\n}"
}
