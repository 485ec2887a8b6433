import Testing

@testable import KeyCatalogGenerator

/// One manifest per lint rule (some rules have two), with the exact findings it must produce.
struct RuleCase: CustomTestStringConvertible, Sendable {
    var rule: String
    var manifest: String
    var expected: [String]

    var testDescription: String { rule }
}

@Suite("Lint rules")
struct LintRuleTests {
    static let cases: [RuleCase] = [
        RuleCase(
            rule: "duplicate-member",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "type": "Int", "default": 1, "type": "Int" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:49: error: member 'type' is given twice in this object (first at 4:20); remove one"#
            ]
        ),
        RuleCase(
            rule: "unknown-field",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "type": "Int", "defualt": 1, "default": 1 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:35: error: unknown field 'defualt' in key 'a'; did you mean 'default'?"#
            ]
        ),
        RuleCase(
            rule: "field-type",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "type": "Bool", "default": false, "secret": "yes" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:64: error: 'secret' of key 'a' is the string 'yes', expected a boolean; write it like "secret": true"#
            ]
        ),
        RuleCase(
            rule: "missing-field",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "default": 1 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:5: error: key 'a' has no 'type'; add one, as in "type": "Bool""#
            ]
        ),
        RuleCase(
            rule: "version",
            manifest: #"""
                {
                  "version": 2,
                  "keys": []
                }
                """#,
            expected: [
                #"keys.json:2:14: error: unsupported manifest version 2; this keycatalog reads version 1, so write "version": 1 or update keycatalog"#
            ]
        ),
        RuleCase(
            rule: "version-missing",
            manifest: #"""
                {
                  "keys": []
                }
                """#,
            expected: [
                #"keys.json:1:1: error: the manifest has no 'version'; add "version": 1 as its first member"#
            ]
        ),
        RuleCase(
            rule: "access-level",
            manifest: #"""
                {
                  "version": 1,
                  "access": "pubic",
                  "keys": [
                    { "name": "a", "type": "Int", "default": 1 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:13: error: unknown access level 'pubic'; did you mean 'public'?"#
            ]
        ),
        RuleCase(
            rule: "import",
            manifest: #"""
                {
                  "version": 1,
                  "imports": ["Models", "App-Core", 7, "Models", "class"],
                  "keys": [
                    { "name": "a", "type": "Int", "default": 1 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:25: error: 'App-Core' is not a module name; give the name of a module the target depends on, as in "Models""#,
                #"keys.json:3:37: error: an import is a module's name, a string, as in "Models""#,
                #"keys.json:3:40: error: module 'Models' is imported twice; remove one"#,
                #"keys.json:3:50: error: 'class' is not a module name; give the name of a module the target depends on, as in "Models""#,
            ]
        ),
        RuleCase(
            rule: "icloud-sync-reserved",
            manifest: #"""
                {
                  "version": 1,
                  "stores": { "cloud": { "kind": "ubiquitous" } },
                  "keys": [
                    { "name": "theme", "type": "Int", "default": 0, "sync": "iCloud" },
                    { "name": "metadata", "key": "_KeyCatalogSync", "type": "String", "default": "" },
                    { "name": "cloudTheme", "key": "kc:theme", "type": "Int", "default": 0, "store": "cloud" },
                    { "name": "cloudOther", "key": "kc:other", "type": "Int", "default": 0, "store": "cloud" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:6:34: error: storage key '_KeyCatalogSync' of key 'metadata' is where iCloud sync keeps its metadata in each UserDefaults or file store that holds a synced key; choose another storage key"#,
                #"keys.json:7:36: error: storage key 'kc:theme' of key 'cloudTheme' in ubiquitous store 'cloud' starts with 'kc:': it is the name in iCloud of synced key 'theme' (3-byte prefix 'kc:' and its storage key), so both would be one iCloud key; choose another storage key"#,
                #"keys.json:8:36: error: storage key 'kc:other' of key 'cloudOther' in ubiquitous store 'cloud' starts with 'kc:', which names synced keys in iCloud; choose another storage key"#,
            ]
        ),
        RuleCase(
            rule: "shared-migration-source-pattern",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "doc", "key": "doc-{id}", "parameters": { "id": "String" }, "type": "Int", "default": 0, "migrations": [{ "fromKey": "t{id}" }] },
                    { "name": "theme", "key": "tdark", "type": "Int", "default": 0 },
                    { "name": "b", "type": "Int", "default": 0, "migrations": [{ "fromKey": "doc-legacy" }] }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:132: warning: key 'doc' migrates from 't{id}' in store 'standard', which is also the storage key of key 'theme' (5:31) when id is 'dark' ('tdark'): the migration would move that key's value out of it; change the source or the storage key so they cannot meet"#,
                #"keys.json:6:77: warning: key 'b' migrates from 'doc-legacy' in store 'standard', which is also the storage key of key 'doc' (4:29) when id is 'legacy' ('doc-legacy'): the migration would move that key's value out of it; change the source or the storage key so they cannot meet"#,
            ]
        ),
        RuleCase(
            rule: "store-kind-side-files",
            manifest: #"""
                {
                  "version": 1,
                  "stores": {
                    "a": { "kind": "file", "path": "x.plist" },
                    "b": { "kind": "file", "path": "./x.plist.journal" },
                    "c": { "kind": "file", "path": "x.plist.lock" }
                  },
                  "keys": [
                    { "name": "a1", "type": "Int", "default": 1, "store": "a" },
                    { "name": "b1", "type": "Int", "default": 1, "store": "b" },
                    { "name": "c1", "type": "Int", "default": 1, "store": "c" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:36: error: file store 'b' opens the journal file that file store 'a' keeps beside its own ('./x.plist.journal'); choose another path"#,
                #"keys.json:6:36: error: file store 'c' opens the lock file that file store 'a' keeps beside its own ('x.plist.lock'); choose another path"#,
            ]
        ),

        RuleCase(
            rule: "identifier",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "launch-count", "type": "Int", "default": 1 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:15: error: key name 'launch-count' is not a Swift identifier; use letters, digits and '_' and start with a letter, as in 'launchCount'"#
            ]
        ),
        RuleCase(
            rule: "identifier",
            manifest: #"""
                {
                  "version": 1,
                  "catalog": "struct",
                  "stores": { "default": { "kind": "memory" }, "self": { "kind": "memory" } },
                  "keys": [
                    { "name": "count", "type": "Int", "default": 1, "store": "default" },
                    { "name": "other", "type": "Int", "default": 1, "store": "self" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:14: error: catalog name 'struct' is a reserved word in Swift; choose another name"#,
                #"keys.json:4:48: error: store name 'self' is a reserved word in Swift; choose another name"#,
            ]
        ),
        RuleCase(
            rule: "duplicate-name",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "type": "Int", "default": 1 },
                    { "name": "a", "key": "b", "type": "Int", "default": 1 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:15: error: key name 'a' is used twice (first at 4:15); rename one"#
            ]
        ),
        RuleCase(
            rule: "catalog-member-name",
            manifest: #"""
                {
                  "version": 1,
                  "catalog": "Settings",
                  "keys": [
                    { "name": "reset", "type": "Bool", "default": false },
                    { "name": "stores", "key": "s", "type": "Int", "default": 1 },
                    { "name": "resetCount", "type": "Int", "default": 0 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:15: error: key name 'reset' is also a member of the generated catalog 'Settings' ('Settings.reset'); rename the key, as in 'resetValue'"#,
                #"keys.json:6:15: error: key name 'stores' is also a member of the generated catalog 'Settings' ('Settings.stores'); rename the key, as in 'storesValue'"#,
            ]
        ),
        RuleCase(
            rule: "catalog-member-name-modules",
            manifest: #"""
                {
                  "version": 1,
                  "catalog": "Foundation",
                  "types": {
                    "Swift": { "kind": "enum", "rawType": "String", "cases": ["a"] },
                    "Stores": { "kind": "enum", "rawType": "Int", "cases": ["b"] }
                  },
                  "stores": { "Stores": { "kind": "memory" } },
                  "keys": [
                    { "name": "KeyCatalog", "type": "Swift", "default": "a", "store": "Stores" },
                    { "name": "b", "key": "b/{Swift}", "parameters": { "Swift": "String" }, "type": "Stores", "default": "b" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:14: error: catalog name 'Foundation' hides the module 'Foundation' that the generated code names ('Foundation.Date'); rename the catalog"#,
                #"keys.json:5:5: error: type name 'Swift' hides the module 'Swift' that the generated code names ('Swift.Int'); rename the type"#,
                #"keys.json:6:5: error: type name 'Stores' is also a type nested in the generated catalog 'Foundation' ('Foundation.Stores'), which hides it there; rename the type"#,
                #"keys.json:8:15: error: store name 'Stores' is also the generated catalog's type of stores ('Foundation.Stores'); rename the store, as in 'mainStore'"#,
                #"keys.json:10:15: error: key name 'KeyCatalog' hides the module 'KeyCatalog' that the generated code names ('KeyCatalog.PersistentKey'); rename the key"#,
                #"keys.json:11:56: error: parameter name 'Swift' of key 'b' hides the module 'Swift' that the generated code names ('Swift.Int'); rename the parameter and its placeholder, as in 'swiftName'"#,
            ]
        ),
        RuleCase(
            rule: "catalog-member-name-key-type",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "Value", "type": "Int8", "default": 1 },
                    { "name": "mode", "type": "Int", "default": 0, "migrations": [{ "fromKey": "old", "fromType": "Int", "transform": "Swift" }] }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:15: error: key name 'Value' is also the key type's 'Value' ('KeyCatalog.PersistentKey<…>.Value'), which the generated code names; rename the key, as in 'value'"#,
                #"keys.json:5:119: error: migration transform 'Swift' of key 'mode' hides the module 'Swift' in the generated code ('Swift.Int'); rename the function, as in 'swiftFromMode'"#,
            ]
        ),
        RuleCase(
            rule: "catalog-member-name-derived",
            manifest: #"""
                {
                  "version": 1,
                  "types": {
                    "Mode": { "kind": "enum", "rawType": "String", "cases": ["persistentKeyValueRepresentation", { "name": "RawValue", "rawValue": "r" }, "rawValue", { "name": "KeyCatalog", "rawValue": "k" }] }
                  },
                  "keys": [
                    { "name": "mode", "type": "Mode", "default": "rawValue" },
                    { "name": "foo", "key": "foo/{id}", "parameters": { "id": "Int" }, "type": "Int", "default": 0, "migrations": [{ "fromKey": "old/{id}" }] },
                    { "name": "setFoo", "type": "Int", "default": 0 },
                    { "name": "migrateFoo", "type": "Int", "default": 0 },
                    { "name": "Foo", "key": "Foo/{id}", "parameters": { "id": "Int" }, "type": "Int", "default": 0 },
                    { "name": "migrations", "type": "Int", "default": 0 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:62: error: case name 'persistentKeyValueRepresentation' of type 'Mode' is also a member of the generated enum ('Mode.persistentKeyValueRepresentation'); rename the case, keeping its stored value, as in {"name": "persistentKeyValueRepresentationCase", "rawValue": "persistentKeyValueRepresentation"}"#,
                #"keys.json:4:108: error: case name 'RawValue' of type 'Mode' is also a member of the generated enum ('Mode.RawValue'); rename the case"#,
                #"keys.json:4:161: error: case name 'KeyCatalog' of type 'Mode' hides the module 'KeyCatalog' that the generated enum's code names; rename the case"#,
                #"keys.json:9:15: error: key name 'setFoo' is also the setter the generated catalog 'Keys' declares for parameterized key 'foo' ('Keys.setFoo(…)'); rename this key"#,
                #"keys.json:10:15: error: key name 'migrateFoo' is also the migration function the generated catalog 'Keys' declares for parameterized key 'foo' ('Keys.migrateFoo(…)'); rename this key"#,
                #"keys.json:11:15: error: parameterized keys 'foo' and 'Foo' both generate the catalog member 'Keys.setFoo'; rename one of them"#,
                #"keys.json:12:15: error: key name 'migrations' is also a member of the generated catalog 'Keys' ('Keys.migrations'); rename the key, as in 'migrationsValue'"#,
            ]
        ),
        RuleCase(
            rule: "store-kind",
            manifest: #"""
                {
                  "version": 1,
                  "stores": { "secrets": { "kind": "keychain" } },
                  "keys": [
                    { "name": "a", "type": "Int", "default": 1, "store": "secrets" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:26: error: keychain store 'secrets' has no 'service'; add one, as in "service": "com.example.app""#
            ]
        ),
        RuleCase(
            rule: "store-kind-accessibility",
            manifest: #"""
                {
                  "version": 1,
                  "stores": {
                    "secrets": { "kind": "keychain", "service": "s", "accessibility": "afterFirstUnlok" },
                    "tokens": { "kind": "keychain", "service": "t", "accessibility": "always" },
                    "shared": { "kind": "userDefaults", "accessibility": "whenUnlocked" },
                    "group": { "kind": "keychain", "service": "g", "accessibility": "" }
                  },
                  "keys": [
                    { "name": "a", "type": "Int", "default": 1, "store": "secrets" },
                    { "name": "b", "type": "Int", "default": 1, "store": "tokens" },
                    { "name": "c", "type": "Int", "default": 1, "store": "shared" },
                    { "name": "d", "type": "Int", "default": 1, "store": "group" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:71: error: unknown accessibility 'afterFirstUnlok' for keychain store 'secrets'; did you mean 'afterFirstUnlock'?"#,
                #"keys.json:5:70: error: unknown accessibility 'always' for keychain store 'tokens'; use one of 'afterFirstUnlock', 'afterFirstUnlockThisDeviceOnly', 'whenUnlocked', 'whenUnlockedThisDeviceOnly', 'whenPasscodeSetThisDeviceOnly'"#,
                #"keys.json:6:41: error: 'accessibility' does not apply to userDefaults store 'shared' (only to 'keychain'); remove it or change 'kind'"#,
                #"keys.json:7:69: error: 'accessibility' of store 'group' is empty; give a value or remove the field"#,
            ]
        ),
        RuleCase(
            rule: "store-kind-unknown",
            manifest: #"""
                {
                  "version": 1,
                  "stores": { "cloud": { "kind": "icloud" } },
                  "keys": [
                    { "name": "a", "type": "Int", "default": 1, "store": "cloud" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:34: error: unknown store kind 'icloud' for store 'cloud'; use one of 'userDefaults', 'ubiquitous', 'keychain', 'file', 'memory'"#
            ]
        ),
        RuleCase(
            rule: "store-reference",
            manifest: #"""
                {
                  "version": 1,
                  "stores": { "keychain": { "kind": "keychain", "service": "s" } },
                  "keys": [
                    { "name": "a", "type": "String", "default": "", "store": "keychian" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:15: warning: store 'keychain' is declared but no key uses it; remove it or move keys to it with "store""#,
                #"keys.json:5:62: error: unknown store 'keychian' for key 'a'; did you mean 'keychain'?"#,
            ]
        ),
        RuleCase(
            rule: "enum-shape",
            manifest: #"""
                {
                  "version": 1,
                  "types": { "Theme": { "kind": "enum", "rawType": "Str", "cases": ["light"] } },
                  "keys": [
                    { "name": "a", "type": "Theme", "default": "light" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:52: error: unsupported raw type 'Str' for type 'Theme'; did you mean 'String'?"#
            ]
        ),
        RuleCase(
            rule: "duplicate-enum-case",
            manifest: #"""
                {
                  "version": 1,
                  "types": { "Theme": { "kind": "enum", "rawType": "String", "cases": ["light", "dark", "light"] } },
                  "keys": [
                    { "name": "a", "type": "Theme", "default": "light" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:89: error: case 'light' of type 'Theme' is declared twice (first at 3:72); remove one"#
            ]
        ),
        RuleCase(
            rule: "type-optional-in-collection",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "scores", "type": "[Int?]", "default": [] },
                    { "name": "labels", "type": "[String: [Date?]]?", "default": null },
                    { "name": "ratios", "type": "[String: Double?]", "default": {}, "representation": "codable" },
                    { "name": "counts", "type": "[Int]", "default": [], "migrations": [{ "fromKey": "old", "fromType": "[String?]", "transform": "countsFromOld" }] }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:33: error: type '[Int?]' of key 'scores' holds optionals ('Int?'), but a property list cannot hold nil, so writing one would fail; use '[Int]', or "representation": "codable" to store them as JSON"#,
                #"keys.json:5:33: error: type '[String: [Date?]]?' of key 'labels' holds optionals ('Date?'), but a property list cannot hold nil, so writing one would fail; use '[String: [Date]]?', or "representation": "codable" to store them as JSON"#,
            ]
        ),
        RuleCase(
            rule: "type",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "retryCount", "type": "Integer", "default": 3 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:37: error: unknown type 'Integer' for key 'retryCount'; did you mean 'Int'?"#
            ]
        ),
        RuleCase(
            rule: "type-malformed",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "type": "[String", "default": [] }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:28: error: malformed type '[String': expected ']'; write a type such as 'Int', '[String]', '[String: Int]' or 'Date?' (key 'a')"#
            ]
        ),
        RuleCase(
            rule: "type-dictionary-key",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "type": "[Int: String]", "default": {} }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:28: error: dictionary key type 'Int' in '[Int: String]' is not supported; stores only have String keys, so use '[String: String]' (key 'a')"#
            ]
        ),
        RuleCase(
            rule: "default-presence",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "type": "Bool", "debugDefault": true }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:36: error: key 'a' has 'debugDefault' but no 'releaseDefault'; add "releaseDefault", or use one "default""#
            ]
        ),
        RuleCase(
            rule: "default-mismatch",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "volume", "type": "Int8", "default": 300 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:52: error: default for key 'volume' is 300, out of range for type 'Int8' (-128...127); use a value in range or a wider type"#
            ]
        ),
        RuleCase(
            rule: "empty-swift-expression",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "locale", "type": "Locale", "default": { "swift": "" } }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:65: error: 'swift' expression in the default of key 'locale' is empty; write the Swift expression that makes the default, as in { "swift": "Locale(identifier: \"en\")" }"#
            ]
        ),
        RuleCase(
            rule: "representation",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "type": "Date", "default": "2024-01-01T00:00:00Z", "representation": "iso8061" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:89: error: unknown representation 'iso8061' for key 'a'; did you mean 'iso8601'?"#
            ]
        ),
        RuleCase(
            rule: "representation-incompatible",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "type": "Int", "default": 1, "representation": "iso8601" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:67: error: representation 'iso8601' does not fit type 'Int' of key 'a'; use 'native' or omit 'representation'"#
            ]
        ),
        RuleCase(
            rule: "empty-storage-key",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "key": "", "type": "Int", "default": 1 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:27: error: storage key of key 'a' is empty; remove "key" to use 'a', or give a name"#
            ]
        ),
        RuleCase(
            rule: "duplicate-storage-key",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "key": "count", "type": "Int", "default": 1 },
                    { "name": "b", "key": "count", "type": "Int", "default": 1 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:27: error: storage key 'count' of key 'b' is already used by key 'a' (4:27) in store 'standard'; give one a different 'key'"#
            ]
        ),
        RuleCase(
            rule: "duplicate-storage-key",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "layout", "key": "{listID}::Layout", "parameters": { "listID": "String" }, "type": "Int", "default": 1 },
                    { "name": "inboxLayout", "key": "inbox::Layout", "type": "Int", "default": 1 },
                    { "name": "other", "key": "{name}::Layout", "parameters": { "name": "String" }, "type": "Int", "default": 1 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:37: warning: storage key 'inbox::Layout' of key 'inboxLayout' is also what key 'layout' (4:32) stores under when listID is 'inbox', in store 'standard'; change one so they cannot meet"#,
                #"keys.json:5:37: warning: storage key 'inbox::Layout' of key 'inboxLayout' is also what key 'other' (6:31) stores under when name is 'inbox', in store 'standard'; change one so they cannot meet"#,
                #"keys.json:6:31: warning: storage key '{name}::Layout' of key 'other' has the same shape as that of key 'layout' (4:32) in store 'standard': equal parameters give equal storage keys; change one"#,
            ]
        ),
        RuleCase(
            // Templates of different shapes that spell one storage key; and what parameters of
            // type Int and UUID cannot print: no warning for 'page::title' against 'page::{number}'
            // or '{device}::title', nor for 'page::{from}-{to}' against 'page::{number}'. One warning
            // a template: 'negative' also meets 'byNumber' and 'pageRange'.
            rule: "duplicate-storage-key",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "byList", "key": "list::{listID}", "parameters": { "listID": "String" }, "type": "Int", "default": 1 },
                    { "name": "byKind", "key": "{kind}::count", "parameters": { "kind": "String" }, "type": "Int", "default": 1 },
                    { "name": "byNumber", "key": "page::{number}", "parameters": { "number": "Int" }, "type": "Int", "default": 1 },
                    { "name": "pageTitle", "key": "page::title", "type": "Int", "default": 1 },
                    { "name": "byDevice", "key": "{device}::title", "parameters": { "device": "UUID" }, "type": "Int", "default": 1 },
                    { "name": "pageRange", "key": "page::{from}-{to}", "parameters": { "from": "String", "to": "Int" }, "type": "Int", "default": 1 },
                    { "name": "negative", "key": "page::-{count}", "parameters": { "count": "String" }, "type": "Int", "default": 1 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:32: warning: storage key '{kind}::count' of key 'byKind' can be what key 'byList' (4:32) stores under, 'list::count': when kind is 'list' here and listID is 'count' there, in store 'standard'; change one so they cannot meet"#,
                #"keys.json:10:34: warning: storage key 'page::-{count}' of key 'negative' can be what key 'byKind' (5:32) stores under, 'page::-::count': when count is '::count' here and kind is 'page::-' there, in store 'standard'; change one so they cannot meet"#,
            ]
        ),
        RuleCase(
            // Stores of other names that open one store: UserDefaults.standard, one suite, one file (by its
            // path, '.' and '..' taken away by name), one keychain service (whatever the access group),
            // iCloud's one store. Not flagged: another suite, a file in the home folder, keychain services
            // that are one file on Linux only ('app/x' and 'app_x'), two memory stores.
            rule: "duplicate-storage-key",
            manifest: #"""
                {
                  "version": 1,
                  "stores": {
                    "defaults": { "kind": "userDefaults" },
                    "group": { "kind": "userDefaults", "suite": "group.app" },
                    "shared": { "kind": "userDefaults", "suite": "group.app" },
                    "other": { "kind": "userDefaults", "suite": "group.other" },
                    "settings": { "kind": "file", "path": "settings.plist" },
                    "sameSettings": { "kind": "file", "path": "./a/../settings.plist" },
                    "homeSettings": { "kind": "file", "path": "~/settings.plist" },
                    "secrets": { "kind": "keychain", "service": "app" },
                    "teamSecrets": { "kind": "keychain", "service": "app", "accessGroup": "TEAM.app" },
                    "slashed": { "kind": "keychain", "service": "app/x" },
                    "underscored": { "kind": "keychain", "service": "app_x" },
                    "cloud": { "kind": "ubiquitous" },
                    "sync": { "kind": "ubiquitous" },
                    "scratch": { "kind": "memory" },
                    "scratch2": { "kind": "memory" }
                  },
                  "keys": [
                    { "name": "count", "key": "Count", "type": "Int", "default": 0 },
                    { "name": "label", "key": "Count", "type": "String", "default": "", "store": "defaults" },
                    { "name": "a", "key": "A", "type": "Int", "default": 0, "store": "group" },
                    { "name": "b", "key": "A", "type": "Int", "default": 0, "store": "shared" },
                    { "name": "c", "key": "A", "type": "Int", "default": 0, "store": "other" },
                    { "name": "d", "key": "D", "type": "Int", "default": 0, "store": "settings" },
                    { "name": "e", "key": "D", "type": "Int", "default": 0, "store": "sameSettings" },
                    { "name": "f", "key": "D", "type": "Int", "default": 0, "store": "homeSettings" },
                    { "name": "token", "type": "String?", "default": null, "secret": true, "store": "secrets" },
                    { "name": "teamToken", "key": "token", "type": "String?", "default": null, "secret": true, "store": "teamSecrets" },
                    { "name": "pin", "type": "String?", "default": null, "secret": true, "store": "slashed" },
                    { "name": "otherPin", "key": "pin", "type": "String?", "default": null, "secret": true, "store": "underscored" },
                    { "name": "g", "key": "G", "type": "Int", "default": 0, "store": "cloud" },
                    { "name": "h", "key": "G", "type": "Int", "default": 0, "store": "sync" },
                    { "name": "i", "key": "I", "type": "Int", "default": 0, "store": "scratch" },
                    { "name": "j", "key": "I", "type": "Int", "default": 0, "store": "scratch2" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:22:31: error: storage key 'Count' of key 'label' is already used by key 'count' (21:31) in store 'standard', which store 'defaults' also opens (UserDefaults.standard); give one a different 'key'"#,
                #"keys.json:24:27: error: storage key 'A' of key 'b' is already used by key 'a' (23:27) in store 'group', which store 'shared' also opens (UserDefaults suite 'group.app'); give one a different 'key'"#,
                #"keys.json:27:27: error: storage key 'D' of key 'e' is already used by key 'd' (26:27) in store 'settings', which store 'sameSettings' also opens (file 'settings.plist', file './a/../settings.plist'); give one a different 'key'"#,
                #"keys.json:30:35: error: storage key 'token' of key 'teamToken' is already used by key 'token' (29:15) in store 'secrets', which store 'teamSecrets' also opens (keychain service 'app'); give one a different 'key'"#,
                #"keys.json:34:27: error: storage key 'G' of key 'h' is already used by key 'g' (33:27) in store 'cloud', which store 'sync' also opens (iCloud's key-value store); give one a different 'key'"#,
            ]
        ),
        RuleCase(
            // Templates and literal keys meet across two names of UserDefaults.standard too.
            rule: "duplicate-storage-key",
            manifest: #"""
                {
                  "version": 1,
                  "stores": { "defaults": { "kind": "userDefaults" } },
                  "keys": [
                    { "name": "layout", "key": "{listID}::Layout", "parameters": { "listID": "String" }, "type": "Int", "default": 1, "store": "defaults" },
                    { "name": "inboxLayout", "key": "inbox::Layout", "type": "Int", "default": 1 },
                    { "name": "other", "key": "{name}::Layout", "parameters": { "name": "String" }, "type": "Int", "default": 1 },
                    { "name": "byList", "key": "list::{listID}", "parameters": { "listID": "String" }, "type": "Int", "default": 1 },
                    { "name": "byKind", "key": "{kind}::count", "parameters": { "kind": "String" }, "type": "Int", "default": 1, "store": "defaults" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:6:37: warning: storage key 'inbox::Layout' of key 'inboxLayout' is also what key 'layout' (5:32) stores under when listID is 'inbox', in store 'defaults', which store 'standard' also opens (UserDefaults.standard); change one so they cannot meet"#,
                #"keys.json:6:37: warning: storage key 'inbox::Layout' of key 'inboxLayout' is also what key 'other' (7:31) stores under when name is 'inbox', in store 'standard'; change one so they cannot meet"#,
                #"keys.json:7:31: warning: storage key '{name}::Layout' of key 'other' has the same shape as that of key 'layout' (5:32) in store 'defaults', which store 'standard' also opens (UserDefaults.standard): equal parameters give equal storage keys; change one"#,
                #"keys.json:8:32: warning: storage key 'list::{listID}' of key 'byList' can be what key 'layout' (5:32) stores under, 'list::Layout': when listID is 'Layout' here and listID is 'list' there, in store 'defaults', which store 'standard' also opens (UserDefaults.standard); change one so they cannot meet"#,
                #"keys.json:9:32: warning: storage key '{kind}::count' of key 'byKind' can be what key 'byList' (8:32) stores under, 'list::count': when kind is 'list' here and listID is 'count' there, in store 'standard', which store 'defaults' also opens (UserDefaults.standard); change one so they cannot meet"#,
            ]
        ),
        RuleCase(
            rule: "placeholder",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "layout", "key": "layout_{listID}", "type": "String?", "default": null }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:32: error: placeholder '{listID}' in the storage key of key 'layout' has no parameter; add "parameters": { "listID": "String" }"#
            ]
        ),
        RuleCase(
            // A combining mark after '}' makes one Character with it, and is still after a brace.
            rule: "placeholder",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "mark", "key": "x{id}\u0301y", "type": "String?", "default": null }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:30: error: placeholder '{id}' in the storage key of key 'mark' has no parameter; add "parameters": { "id": "String" }"#
            ]
        ),
        RuleCase(
            rule: "placeholder-unused-parameter",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "layout", "parameters": { "listID": "String" }, "type": "String?", "default": null }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:41: error: parameter 'listID' of key 'layout' does not appear in its storage key; add '{listID}' to "key" or remove the parameter"#
            ]
        ),
        RuleCase(
            rule: "parameter-type",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "layout", "key": "layout_{listID}", "parameters": { "listID": "Strng" }, "type": "String?", "default": null }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:77: error: unsupported parameter type 'Strng' for parameter 'listID' of key 'layout'; did you mean 'String'?"#
            ]
        ),
        RuleCase(
            rule: "ubiquitous-limits",
            manifest: #"""
                {
                  "version": 1,
                  "stores": { "cloud": { "kind": "ubiquitous" } },
                  "keys": [
                    { "name": "a", "key": "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", "type": "Int", "default": 1, "store": "cloud" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:27: error: storage key 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk…' of key 'a' is 65 bytes; iCloud's key-value store allows 64, so shorten it"#
            ]
        ),
        RuleCase(
            rule: "ubiquitous-limits-parameterized",
            manifest: #"""
                {
                  "version": 1,
                  "stores": { "cloud": { "kind": "ubiquitous" } },
                  "keys": [
                    { "name": "a", "key": "layouts.of.every.list.in.the.sidebar.by.list.id.{listID}", "parameters": { "listID": "Int" }, "type": "Int", "default": 1, "store": "cloud" },
                    { "name": "b", "key": "note.{title}", "parameters": { "title": "String" }, "type": "Int", "default": 1, "store": "cloud" },
                    { "name": "c", "key": "c.{id}", "parameters": { "id": "UUID" }, "type": "Int", "default": 1, "store": "cloud" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:27: error: storage key 'layouts.of.every.list.in.the.sidebar.by.list.id.{listID}' of key 'a' is up to 68 bytes once filled in ('{listID}' up to 20); iCloud's key-value store allows 64, so shorten its literal text"#,
                #"keys.json:5:101: error: key 'a' in ubiquitous store 'cloud' has a storage key for every value of parameter 'listID' (Int), so it can make more keys than the 1024 iCloud's key-value store holds; keep the values in one dictionary under a literal key, or move the key to a local store"#,
                #"keys.json:6:57: error: key 'b' in ubiquitous store 'cloud' has a storage key for every value of parameter 'title' (String), so it can make more keys than the 1024 iCloud's key-value store holds; keep the values in one dictionary under a literal key, or move the key to a local store"#,
                #"keys.json:6:68: error: parameter 'title' of key 'b' is a String, so storage key 'note.{title}' can be longer than the 64 bytes iCloud's key-value store allows (a longer key ends the app); keep the values in one dictionary under a literal key, or move the key to a local store"#,
                #"keys.json:7:51: error: key 'c' in ubiquitous store 'cloud' has a storage key for every value of parameter 'id' (UUID), so it can make more keys than the 1024 iCloud's key-value store holds; keep the values in one dictionary under a literal key, or move the key to a local store"#,
            ]
        ),
        RuleCase(
            rule: "ubiquitous-migration",
            manifest: #"""
                {
                  "version": 1,
                  "stores": { "cloud": { "kind": "ubiquitous" } },
                  "keys": [
                    { "name": "theme", "type": "String", "default": "light", "store": "cloud",
                      "migrations": [{ "fromKey": "Theme", "fromStore": "standard" }, { "fromKey": "OldTheme" }] },
                    { "name": "layout", "type": "String", "default": "grid",
                      "migrations": [{ "fromKey": "Layout", "fromStore": "cloud" }, { "fromKey": "OldLayout" }] },
                    { "name": "grid", "type": "String", "default": "x", "store": "nowhere",
                      "migrations": [{ "fromKey": "Grid", "fromStore": "cloud" }] },
                    { "name": "font", "type": "Int", "default": 12, "sync": "iCloud",
                      "migrations": [{ "fromKey": "Font", "fromStore": "cloud" }] }
                  ]
                }
                """#,
            expected: [
                #"keys.json:6:57: error: key 'theme' in ubiquitous store 'cloud' migrates from local store 'standard'; on a device's first launch the migration runs before iCloud's initial download arrives, so the device's old value would overwrite the one in iCloud; migrate into a key in store 'standard' instead, and copy its value to iCloud from app code once iCloud's values have arrived"#,
                #"keys.json:8:58: warning: key 'layout' in local store 'standard' migrates from ubiquitous store 'cloud'; a move removes its source, and iCloud removes it on every device, so the first device to migrate takes the value from the others, which then read the default; copy the value from app code and leave it in iCloud until every device has it"#,
                #"keys.json:9:66: error: unknown store 'nowhere' for key 'grid'; declare it under "stores" or use one of 'standard', 'cloud'"#,
            ]
        ),
        RuleCase(
            rule: "icloud-sync",
            manifest: #"""
                {
                  "version": 1,
                  "stores": {
                    "settings": { "kind": "userDefaults", "suite": "s", "sync": "iCloud" },
                    "vault": { "kind": "keychain", "service": "app", "sync": "iCloud" },
                    "odd": { "kind": "file", "path": "f.plist", "sync": "yes" }
                  },
                  "keys": [
                    { "name": "theme", "type": "String", "default": "light", "store": "settings" },
                    { "name": "frame", "type": "String", "default": "", "store": "settings", "sync": "none" },
                    { "name": "verbose", "type": "Bool", "debugDefault": true, "releaseDefault": false, "store": "settings" },
                    { "name": "layout", "key": "layout_{id}", "parameters": { "id": "Int" }, "type": "Int", "default": 0, "sync": "iCloud" },
                    { "name": "token", "type": "String?", "default": null, "store": "vault", "secret": true, "sync": "iCloud" },
                    { "name": "long", "key": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "type": "Int", "default": 0, "sync": "iCloud" },
                    { "name": "fits", "key": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "type": "Int", "default": 0, "sync": "iCloud" },
                    { "name": "again", "key": "theme", "type": "String", "default": "", "sync": "iCloud" },
                    { "name": "maybe", "type": "Int", "default": 0, "sync": "sometimes" },
                    { "name": "oddKey", "type": "Int", "default": 0, "store": "odd" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:62: error: keychain store 'vault' cannot sync through iCloud: it holds secrets, which never leave the device's keychain; remove "sync""#,
                #"keys.json:6:57: error: 'sync' of store 'odd' is 'yes'; the one value is "iCloud""#,
                #"keys.json:11:98: error: debug key 'verbose' cannot sync through iCloud (its store 'settings' syncs; add "sync": "none" to keep it local): a debug key is a per-device developer switch that Release builds ignore, so syncing would only let one test device flip another's"#,
                #"keys.json:12:115: error: parameterized key 'layout' cannot sync through iCloud: every parameter value would be another iCloud key, with no bound under the 1024 keys iCloud holds; keep the values in one dictionary under a literal key"#,
                #"keys.json:13:102: error: key 'token' is in keychain store 'vault', which cannot sync through iCloud: it holds secrets, which never leave the device's keychain; remove "sync""#,
                #"keys.json:14:30: error: storage key 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…' of synced key 'long' is 62 bytes, 65 in iCloud with the 'kc:' prefix sync adds; iCloud's key-value store allows 64, so shorten it to 61 bytes"#,
                #"keys.json:16:31: error: synced key 'again' has storage key 'theme', as synced key 'theme' has; in iCloud both would be one key, so rename one"#,
                #"keys.json:17:61: error: 'sync' of key 'maybe' is 'sometimes'; use "iCloud", or "none" to keep the key local in a synced store"#,
            ]
        ),
        RuleCase(
            rule: "secret-store",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "apiToken", "type": "String?", "default": null, "secret": true }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:73: error: secret key 'apiToken' is in store 'standard' (userDefaults), which stores it in clear text; put it in a keychain store with "store""#
            ]
        ),
        RuleCase(
            rule: "keychain-move",
            // Flagged: one account in two stores of one service. Not flagged: another account, and
            // another service.
            manifest: #"""
                {
                  "version": 1,
                  "stores": {
                    "old": { "kind": "keychain", "service": "app" },
                    "shared": { "kind": "keychain", "service": "app", "accessGroup": "TEAM.shared" },
                    "other": { "kind": "keychain", "service": "other" }
                  },
                  "keys": [
                    { "name": "token", "type": "String?", "default": null, "secret": true, "store": "shared",
                      "migrations": [{ "fromKey": "token", "fromStore": "old" }, { "fromKey": "token", "fromStore": "other" }] },
                    { "name": "refresh", "type": "String?", "default": null, "secret": true, "store": "shared",
                      "migrations": [{ "fromKey": "oldRefresh", "fromStore": "old" }] }
                  ]
                }
                """#,
            expected: [
                #"keys.json:10:57: error: key 'token' moves from keychain store 'old' to 'shared', which file one account ('token') under one service ('app'): both find the same item, so removing the source would remove the key's own; give the key another storage key, or its store another service"#
            ]
        ),
        RuleCase(
            rule: "migration-transform",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "launchCount", "type": "Int", "default": 0, "migrations": [{ "fromKey": "launches", "fromType": "String" }] }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:111: error: migration of key 'launchCount' changes the type from 'String' to 'Int' without a 'transform'; add one naming a function you write, as in "transform": "launchCountFromString" for func launchCountFromString(_ oldValue: String) -> Int?"#
            ]
        ),
        RuleCase(
            rule: "migration-transform",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "launchCount", "type": "Int", "default": 0, "migrations": [{ "fromKey": "launches", "fromType": "String", "transform": "Int($0) ?? 0" }] }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:134: error: transform 'Int($0) ?? 0' of key 'launchCount' is not the name of a function; name a function you write, as in "transform": "launchCountFromOldValue", or a static one, "Type.function""#
            ]
        ),
        RuleCase(
            rule: "self-migration",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "launchCount", "type": "Int", "default": 0, "migrations": [{ "fromKey": "launchCount" }] },
                    { "name": "cafe", "key": "Caf\u00e9", "type": "Int", "default": 0, "migrations": [{ "fromKey": "Cafe\u0301" }] }
                  ]
                }
                """#,
            // Not flagged: the second key's old name, a decomposed accent, is another key in UserDefaults.
            expected: [
                #"keys.json:4:87: error: key 'launchCount' migrates from itself ('launchCount' in store 'standard'); name the old key in 'fromKey' or remove the migration"#
            ]
        ),
        RuleCase(
            // From the key's own storage key in a store of another name that opens UserDefaults.standard.
            rule: "self-migration",
            manifest: #"""
                {
                  "version": 1,
                  "stores": { "defaults": { "kind": "userDefaults" } },
                  "keys": [
                    { "name": "count", "key": "Count", "type": "Int", "default": 0, "migrations": [{ "fromKey": "Count", "fromStore": "defaults" }] },
                    { "name": "label", "type": "String", "default": "", "store": "defaults" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:97: error: key 'count' migrates from itself ('Count' in store 'standard', which store 'defaults' also opens (UserDefaults.standard)); name the old key in 'fromKey' or remove the migration"#
            ]
        ),
        RuleCase(
            rule: "catalog-member-name",
            manifest: #"""
                {
                  "version": 1,
                  "types": { "Value": { "kind": "enum", "rawType": "String", "cases": ["a"] } },
                  "keys": [
                    { "name": "x", "type": "Int", "default": 0 },
                    { "name": "_x", "type": "Int", "default": 1 },
                    { "name": "v", "type": "Value", "default": "a" },
                    { "name": "layout", "type": "[Stores]", "default": [] },
                    { "name": "qualified", "type": "MyApp.Stores?", "default": null }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:14: error: type name 'Value' is also the key type's 'Value' ('KeyCatalog.PersistentKey<…>.Value'), which the generated code's constraints name instead; rename the type"#,
                #"keys.json:6:15: error: key name '_x' is also the storage the generated catalog 'Keys' declares for key 'x' ('Keys._x'); rename this key"#,
                #"keys.json:8:33: error: type 'Stores' of key 'layout' is, inside the generated catalog, its nested 'Keys.Stores'; rename your type, or name it with its module, as in 'MyApp.Stores'"#,
            ]
        ),
        RuleCase(
            rule: "duplicate-name",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "caf\u00e9", "key": "a", "type": "Int", "default": 0 },
                    { "name": "cafe\u0301", "key": "b", "type": "Int", "default": 0 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:15: error: key name 'café' is the name at 4:15 in another Unicode normalization: settings documents would take them for one key; rename one"#
            ]
        ),
        RuleCase(
            rule: "duplicate-enum-case",
            manifest: #"""
                {
                  "version": 1,
                  "types": { "Level": { "kind": "enum", "rawType": "Int", "cases": [{ "name": "a", "rawValue": -0 }, { "name": "b", "rawValue": 0 }] } },
                  "keys": [{ "name": "level", "type": "Level", "default": "a" }]
                }
                """#,
            expected: [
                #"keys.json:3:129: error: case 'b' of type 'Level' has raw value 0, already used by case 'a' (3:96); give it a different 'rawValue'"#
            ]
        ),
        RuleCase(
            rule: "default-round-trip",
            manifest: #"""
                {
                  "version": 1,
                  "types": { "Mark": { "kind": "enum", "rawType": "String", "cases": [{ "name": "x", "rawValue": "a\u0000b" }, "y"] } },
                  "keys": [{ "name": "mark", "type": "Mark", "default": "y" }]
                }
                """#,
            expected: [
                #"keys.json:3:98: error: raw value 'a\u{0}b' of a case of type 'Mark' contains the control character U+0000, which a property list cannot hold, so the case could never be stored; remove it"#
            ]
        ),
        RuleCase(
            rule: "shared-migration-source",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "type": "Int", "default": 0, "migrations": [{ "fromKey": "old" }] },
                    { "name": "b", "type": "Int", "default": 0, "migrations": [{ "fromKey": "old" }, { "fromKey": "a" }, { "fromKey": "b", "fromType": "String", "transform": "bFromString" }] }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:77: warning: key 'b' migrates from 'old' in store 'standard', which key 'a' (4:77) migrates from too: the first key takes the value and removes it, and this one never gets it; keep one of the two migrations"#,
                #"keys.json:5:99: error: key 'b' migrates from 'a' in store 'standard', the storage key of key 'a' (4:15): its value would be moved out of it at every launch while key 'b' is empty; migrate from a key no longer declared"#,
            ]
        ),
        RuleCase(
            // A source in a store of another name that opens the same store: UserDefaults.standard, one file
            // ('old/../settings.plist' is 'settings.plist'), one keychain service.
            rule: "shared-migration-source",
            manifest: #"""
                {
                  "version": 1,
                  "stores": {
                    "defaults": { "kind": "userDefaults" },
                    "settings": { "kind": "file", "path": "settings.plist" },
                    "moved": { "kind": "file", "path": "old/../settings.plist" },
                    "secrets": { "kind": "keychain", "service": "app" },
                    "teamSecrets": { "kind": "keychain", "service": "app", "accessGroup": "TEAM.app" }
                  },
                  "keys": [
                    { "name": "count", "key": "Count", "type": "Int", "default": 0 },
                    { "name": "label", "type": "String", "default": "", "store": "defaults", "migrations": [{ "fromKey": "Count", "fromType": "Int", "transform": "labelFromCount" }] },
                    { "name": "a", "type": "Int", "default": 0, "store": "settings", "migrations": [{ "fromKey": "old" }] },
                    { "name": "b", "type": "Int", "default": 0, "store": "moved", "migrations": [{ "fromKey": "old" }] },
                    { "name": "token", "type": "String?", "default": null, "secret": true, "store": "secrets" },
                    { "name": "teamToken", "type": "String?", "default": null, "secret": true, "store": "teamSecrets", "migrations": [{ "fromKey": "token" }] }
                  ]
                }
                """#,
            expected: [
                #"keys.json:12:106: error: key 'label' migrates from 'Count' in store 'defaults', the storage key of key 'count' (11:31) in store 'standard', which store 'defaults' also opens (UserDefaults.standard): its value would be moved out of it at every launch while key 'label' is empty; migrate from a key no longer declared"#,
                #"keys.json:14:95: warning: key 'b' migrates from 'old' in store 'moved', which key 'a' (13:98) migrates from too in store 'settings', which store 'moved' also opens (file 'settings.plist', file 'old/../settings.plist'): the first key takes the value and removes it, and this one never gets it; keep one of the two migrations"#,
                #"keys.json:16:132: error: key 'teamToken' migrates from 'token' in store 'teamSecrets', the storage key of key 'token' (15:15) in store 'secrets', which store 'teamSecrets' also opens (keychain service 'app'): its value would be moved out of it at every launch while key 'teamToken' is empty; migrate from a key no longer declared"#,
            ]
        ),
        RuleCase(
            rule: "key-value-observing",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "key": "app.a", "type": "Int", "default": 1 },
                    { "name": "b", "key": "@b", "type": "Int", "default": 1 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:27: warning: storage key 'app.a' of key 'a' contains '.', which breaks key-value observation of UserDefaults on Apple platforms; use another separator, such as '_'"#,
                #"keys.json:5:27: warning: storage key '@b' of key 'b' starts with '@', which breaks key-value observation of UserDefaults on Apple platforms; remove the '@'"#,
            ]
        ),
        RuleCase(
            rule: "optional-default",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "nickname", "type": "String?", "default": "Anonymous" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:57: warning: key 'nickname' has optional type 'String?' but a non-null default, so setting nil restores the default and it never reads nil; make the type 'String' or the default null"#
            ]
        ),
        RuleCase(
            rule: "secret-default",
            manifest: #"""
                {
                  "version": 1,
                  "stores": { "keychain": { "kind": "keychain", "service": "s" } },
                  "keys": [
                    { "name": "apiToken", "type": "String", "default": "sk-123", "secret": true, "store": "keychain" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:56: warning: secret key 'apiToken' has a non-empty default, which ships in the app binary; use "" or null and set the secret at run time"#
            ]
        ),
        RuleCase(
            rule: "unused-declaration",
            manifest: #"""
                {
                  "version": 1,
                  "stores": { "cloud": { "kind": "ubiquitous" } },
                  "keys": [
                    { "name": "a", "type": "Int", "default": 1 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:15: warning: store 'cloud' is declared but no key uses it; remove it or move keys to it with "store""#
            ]
        ),
        // Found by a review: a type used only in a generic argument of an app type is used.
        RuleCase(
            rule: "unused-declaration-generic-argument",
            manifest: #"""
                {
                  "version": 1,
                  "types": { "Theme": { "kind": "enum", "rawType": "String", "cases": ["a"] }, "Mode": { "kind": "enum", "rawType": "String", "cases": ["b"] } },
                  "keys": [
                    { "name": "a", "type": "Box<Theme>", "default": { "swift": "Box(value: .a)" }, "representation": "codable" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:80: warning: type 'Mode' is declared but no key uses it; remove it or use it in a key's "type""#
            ]
        ),
        RuleCase(
            rule: "catalog-member-name-bound-key",
            manifest: #"""
                {
                  "version": 1,
                  "types": { "_KeysBoundKey": { "kind": "enum", "rawType": "Int", "cases": ["a"] } },
                  "keys": [
                    { "name": "_KeysBoundKey", "type": "_KeysBoundKey", "default": "a" },
                    { "name": "_BoundKey", "type": "Int", "default": 0 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:14: error: type name '_KeysBoundKey' has the form of the property wrapper a generated catalog declares in its file ('_<Catalog>BoundKey'): beside the catalog 'Keys' in the module, the two clash; rename the type"#,
                #"keys.json:5:15: error: key name '_KeysBoundKey' is also the property wrapper the generated file declares for the catalog 'Keys' ('_<Catalog>BoundKey'), which this key's member would hide in it; rename the key, as in 'KeysBoundKeyValue'"#,
            ]
        ),
        // Found by a review's fuzzing: every other name the generated file declares at file scope
        // (`FileScopeNames`), as this catalog's key or parameter, or as any catalog's type,
        // transform or catalog name.
        RuleCase(
            rule: "catalog-member-name-file-scope",
            manifest: #"""
                {
                  "version": 1,
                  "types": { "_KeysMigrations": { "kind": "enum", "rawType": "Int", "cases": ["a"] } },
                  "keys": [
                    { "name": "_Keys_foo_Default", "type": "_KeysMigrations", "default": "a" },
                    { "name": "_KeysDeprecatedKeyDefinitions", "type": "[_Other_theme_DebugDefault]", "default": [], "representation": "codable" },
                    { "name": "foo", "key": "foo{_KeysMigration0}", "parameters": { "_KeysMigration0": "String" }, "type": "Int", "default": 0,
                      "migrations": [{ "fromKey": "bar", "fromType": "String", "transform": "_AppTransform2" }] },
                    { "name": "_OtherMigrations", "type": "Int", "default": 0 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:14: error: type name '_KeysMigrations' has the form of the migration table a generated catalog declares in its file ('_<Catalog>Migrations'): beside the catalog 'Keys' in the module, the two clash; rename the type"#,
                #"keys.json:5:15: error: key name '_Keys_foo_Default' is also the builder of a key's default the generated file declares for the catalog 'Keys' ('_<Catalog>_<key>_Default'), which this key's member would hide in it; rename the key, as in 'Keys_foo_DefaultValue'"#,
                #"keys.json:6:15: error: key name '_KeysDeprecatedKeyDefinitions' is also the alias of the deprecated keys' definitions the generated file declares for the catalog 'Keys' ('_<Catalog>DeprecatedKeyDefinitions'), which this key's member would hide in it; rename the key, as in 'KeysDeprecatedKeyDefinitionsValue'"#,
                #"keys.json:6:56: error: type '_Other_theme_DebugDefault' of key '_KeysDeprecatedKeyDefinitions' has the form of the builder of a key's debug default a generated catalog declares in its file ('_<Catalog>_<key>_DebugDefault'): beside the catalog 'Other' (or one whose name starts with 'Other_') in the module, the two clash; rename the type"#,
                #"keys.json:7:69: error: parameter name '_KeysMigration0' of key 'foo' is also the migration of a parameterized key the generated file declares for the catalog 'Keys' ('_<Catalog>Migration<N>'), which the parameter would hide in the key's functions; rename the parameter and its placeholder"#,
                #"keys.json:8:77: error: migration transform '_AppTransform2' of key 'foo' has the form of the forwarder of a migration transform a generated catalog declares in its file ('_<Catalog>Transform<N>'): beside the catalog 'App' in the module, the two clash; rename the function"#,
            ]
        ),
        RuleCase(
            rule: "catalog-member-name-file-scope-catalog",
            manifest: #"""
                {
                  "version": 1,
                  "catalog": "_AppBoundKey",
                  "keys": [
                    { "name": "a", "type": "Int", "default": 1 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:14: error: catalog name '_AppBoundKey' has the form of the property wrapper a generated catalog declares in its file ('_<Catalog>BoundKey'): beside the catalog 'App' in the module, the two clash; rename the catalog"#
            ]
        ),
        // Found by a review's fuzzing: a type placeholder, and storage keys UserDefaults on Linux
        // refuses.
        RuleCase(
            rule: "type-placeholder",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "type": "_", "default": { "swift": "x" } },
                    { "name": "b", "type": "Box<_>", "default": { "swift": "x" } }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:28: error: malformed type '_': '_' is Swift's placeholder for a type the compiler infers, not a type's name; write a type such as 'Int', '[String]', '[String: Int]' or 'Date?' (key 'a')"#,
                #"keys.json:5:28: error: malformed type 'Box<_>': '_' is Swift's placeholder for a type the compiler infers, not a type's name; write a type such as 'Int', '[String]', '[String: Int]' or 'Date?' (key 'b')"#,
            ]
        ),
        RuleCase(
            rule: "storage-key-character",
            manifest: #"""
                {
                  "version": 1,
                  "stores": { "file": { "kind": "file", "path": "settings.plist" } },
                  "keys": [
                    { "name": "mode", "key": "mode\u0001", "type": "Int", "default": 0 },
                    { "name": "bom", "key": "\ufeffbom", "type": "Int", "default": 0 },
                    { "name": "cafe", "key": "caf\u00e9\tok", "type": "Int", "default": 0 },
                    { "name": "inFile", "key": "mode\u0001", "type": "Int", "default": 0, "store": "file" },
                    { "name": "nonCharacter", "key": "mode\ufffe", "type": "Int", "default": 0 }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:30: warning: storage key 'mode\u{1}' of key 'mode' contains the control character U+0001, which UserDefaults on Linux cannot store (a suite there is an XML property list), so every write of the key would be refused there; remove it"#,
                #"keys.json:6:29: warning: storage key '\u{FEFF}bom' of key 'bom' starts with U+FEFF, which UserDefaults on Linux reads back without it (a suite there is an XML property list), so every write of the key would be refused there; remove it"#,
            ]
        ),
        // Found by a review: another catalog's wrapper, named by a type here, or a key's own type.
        RuleCase(
            rule: "catalog-member-name-bound-key-other-catalog",
            manifest: #"""
                {
                  "version": 1,
                  "catalog": "OtherKeys",
                  "keys": [
                    { "name": "frames", "type": "[_AppKeysBoundKey]", "default": [], "representation": "codable" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:5:33: error: type '_AppKeysBoundKey' of key 'frames' has the form of the property wrapper a generated catalog declares in its file ('_<Catalog>BoundKey'): beside the catalog 'AppKeys' in the module, the two clash; rename the type"#
            ]
        ),
        RuleCase(
            rule: "catalog-member-name-stores",
            manifest: #"""
                {
                  "version": 1,
                  "stores": { "live": { "kind": "memory" }, "inMemory": { "kind": "memory" } },
                  "keys": [
                    { "name": "a", "type": "Int", "default": 0, "store": "live" },
                    { "name": "b", "type": "Int", "default": 0, "store": "inMemory" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:15: error: store name 'live' is also a member of the generated catalog's stores ('Keys.Stores.live'); rename the store, as in 'liveStore'"#,
                #"keys.json:3:45: error: store name 'inMemory' is also a member of the generated catalog's stores ('Keys.Stores.inMemory'); rename the store, as in 'inMemoryStore'"#,
            ]
        ),
        RuleCase(
            rule: "duplicate-enum-case-overflow",
            manifest: #"""
                {
                  "version": 1,
                  "types": { "Level": { "kind": "enum", "rawType": "Int", "cases": [{ "name": "top", "rawValue": 9223372036854775807 }, "next"] } },
                  "keys": [
                    { "name": "level", "type": "Level", "default": "top" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:121: error: case 'next' of type 'Level' has no 'rawValue' and follows raw value 9223372036854775807, so its implicit raw value would overflow Int; give it an explicit 'rawValue'"#
            ]
        ),
        RuleCase(
            rule: "migration-transform-names",
            manifest: #"""
                {
                  "version": 1,
                  "catalog": "AppKeys",
                  "types": { "Theme": { "kind": "enum", "rawType": "String", "cases": ["dark"] } },
                  "keys": [
                    { "name": "theme", "type": "Theme", "default": "dark", "migrations": [
                      { "fromKey": "a", "fromType": "Int", "transform": "Self" },
                      { "fromKey": "b", "fromType": "Int", "transform": "AppKeys" },
                      { "fromKey": "c", "fromType": "Int", "transform": "Theme" }
                    ] }
                  ]
                }
                """#,
            expected: [
                #"keys.json:7:57: error: transform 'Self' of key 'theme' uses 'Self', which cannot name a function; name a function you write, as in "transform": "themeFromOldValue""#,
                #"keys.json:8:57: error: transform 'AppKeys' of key 'theme' names the generated catalog, not a function; name a function you write, as in "transform": "themeFromOldValue""#,
                #"keys.json:9:57: error: transform 'Theme' of key 'theme' names the declared type 'Theme', not a function; name a function you write, as in "transform": "themeFromOldValue""#,
            ]
        ),
        RuleCase(
            rule: "identifier-unicode",
            manifest: #"""
                {
                  "version": 1,
                  "catalog": "Keys\u2e2f",
                  "keys": [
                    { "name": "\u0345count", "type": "Int", "default": 0 },
                    { "name": "x\u0363", "type": "Int", "default": 0 },
                    { "name": "größe", "type": "Int", "default": 0 },
                    { "name": "mark\ufffc", "type": "Int", "default": 0, "doc": "U+FFF9-U+FFFD are in the grammar's identifier-head, but the compiler refuses them (found by a review)." }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:14: error: catalog name 'Keysⸯ' is not a Swift identifier ('ⸯ' (U+2E2F) cannot appear in a Swift identifier); use letters, digits and '_' and start with a letter, as in 'Keys'"#,
                #"keys.json:5:15: error: key name 'ͅcount' is not a Swift identifier ('ͅ' (U+0345) cannot begin a Swift identifier); use letters, digits and '_' and start with a letter, as in 'count'"#,
                "keys.json:8:15: error: key name 'mark\u{FFFC}' is not a Swift identifier ('\u{FFFC}' (U+FFFC) cannot appear in a Swift identifier); use letters, digits and '_' and start with a letter, as in 'mark'",
            ]
        ),
        RuleCase(
            rule: "default-round-trip",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "greeting", "type": "String", "default": "hi\u0001", "doc": "A control character." },
                    { "name": "labels", "type": "[String: String]", "default": { "a\u0000": "ok", "b": "tab\tand\nline" } },
                    { "name": "lastSync", "type": "Date", "default": "1970-01-01T00:00:00.00001Z", "representation": "iso8601" },
                    { "name": "lastSeen", "type": "Date", "default": "1970-01-01T00:00:00.123000Z", "representation": "iso8601" },
                    { "name": "blob", "type": "[String]", "default": ["\u0002"], "representation": "codable" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:56: error: default for key 'greeting' contains the control character U+0001, which a property list cannot hold, so the default could never be stored; remove it (a line break or tab is fine)"#,
                #"keys.json:5:66: error: default for key 'labels' has a dictionary key 'a\u{0}' with the control character U+0000, which a property list cannot hold, so the default could never be stored; remove it"#,
                #"keys.json:6:54: error: default '1970-01-01T00:00:00.00001Z' for key 'lastSync' is more precise than a millisecond (5 fractional digits), but the 'iso8601' representation keeps milliseconds only, so it would not read back equal; round it to 3 fractional digits or use "representation": "timeInterval""#,
            ]
        ),
        RuleCase(
            rule: "store-reference-normalization",
            // 'café' declared in NFC (U+00E9), referenced in NFD (e + U+0301): equal as Strings,
            // different names to Swift.
            manifest: """
                {
                  "version": 1,
                  "stores": { "caf\u{E9}": { "kind": "memory" } },
                  "types": { "E": { "kind": "enum", "rawType": "String", "cases": ["caf\u{E9}"] } },
                  "keys": [
                    { "name": "a", "type": "E", "default": "cafe\u{301}", "store": "cafe\u{301}" }
                  ]
                }
                """,
            expected: [
                "keys.json:6:44: error: default 'cafe\u{301}' for key 'a' is not a case of E; 'caf\u{E9}' is declared with other Unicode scalars (U+0063 U+0061 U+0066 U+00E9); Swift tells them apart, so copy the declared spelling",
                "keys.json:6:62: error: unknown store 'cafe\u{301}' for key 'a'; 'caf\u{E9}' is declared with other Unicode scalars (U+0063 U+0061 U+0066 U+00E9); Swift tells them apart, so copy the declared spelling",
            ]
        ),
    ]

    /// A root cause and the findings it would set off: only the root cause is reported.
    static let rootCauses: [RuleCase] = [
        RuleCase(
            rule: "a misspelled default is not also a missing one",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "type": "Int", "defualt": 1 }
                  ]
                }
                """#,
            expected: [#"keys.json:4:35: error: unknown field 'defualt' in key 'a'; did you mean 'default'?"#]
        ),
        RuleCase(
            rule: "a misspelled required field is not also a missing one",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "a", "tpye": "Int", "default": 1 }
                  ]
                }
                """#,
            expected: [#"keys.json:4:20: error: unknown field 'tpye' in key 'a'; did you mean 'type'?"#]
        ),
        RuleCase(
            rule: "an enum that was never declared is named as the cause",
            manifest: #"""
                {
                  "version": 1,
                  "keys": [
                    { "name": "theme", "type": "Theme", "default": "dark" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:4:52: error: default for key 'theme' is "dark", but type 'Theme' is not declared in "types" (so it is taken as a Swift type of yours); declare it there as an enum with that case, or write the default as Swift, like { "swift": "Theme.dark" }"#
            ]
        ),
        RuleCase(
            rule: "an enum declared under another spelling is suggested",
            manifest: #"""
                {
                  "version": 1,
                  "types": { "Thme": { "kind": "enum", "rawType": "String", "cases": ["dark"] } },
                  "keys": [
                    { "name": "theme", "type": "Theme", "default": "dark" }
                  ]
                }
                """#,
            expected: [
                #"keys.json:3:14: warning: type 'Thme' is declared but no key uses it; remove it or use it in a key's "type""#,
                #"keys.json:5:32: error: unknown type 'Theme' for key 'theme'; did you mean 'Thme'?"#,
            ]
        ),
    ]

    @Test("root causes are reported, not the findings they set off", arguments: rootCauses)
    func rootCause(_ testCase: RuleCase) {
        #expect(lint(testCase.manifest) == testCase.expected)
    }

    @Test("each rule reports its message at the token at fault", arguments: cases)
    func rule(_ testCase: RuleCase) {
        #expect(lint(testCase.manifest) == testCase.expected)
    }

    @Test("a ubiquitous store holds at most 1024 keys")
    func ubiquitousKeyCount() {
        let keys = (0...1024).map { #"    { "name": "k\#($0)", "type": "Int", "default": 0, "store": "cloud" }"# }
        let text =
            "{\n  \"version\": 1,\n  \"stores\": { \"cloud\": { \"kind\": \"ubiquitous\" } },\n  \"keys\": [\n"
            + keys.joined(separator: ",\n") + "\n  ]\n}\n"
        #expect(
            lint(text) == [
                "keys.json:1029:5: error: store 'cloud' has 1025 keys; iCloud's key-value store holds at most 1024, so move some keys to another store"
            ])
    }

    @Test("every ubiquitous store is iCloud's one key-value store: their keys count together")
    func ubiquitousKeyCountAcrossStores() {
        let keys = (0...1024).map { #"    { "name": "k\#($0)", "type": "Int", "default": 0, "store": "\#($0 < 10 ? "cloud" : "sync")" }"# }
        let text =
            "{\n  \"version\": 1,\n  \"stores\": { \"cloud\": { \"kind\": \"ubiquitous\" }, \"sync\": { \"kind\": \"ubiquitous\" } },\n  \"keys\": [\n"
            + keys.joined(separator: ",\n") + "\n  ]\n}\n"
        #expect(
            lint(text) == [
                "keys.json:1029:5: error: ubiquitous stores 'cloud', 'sync' (all iCloud's one key-value store) have 1025 keys; iCloud's key-value store holds at most 1024, so move some keys to another store"
            ])
    }

    /// Bool and enum parameters have a finite domain (the parameter-type rule refuses them for now;
    /// this rule counts them right for when it does not).
    @Test("finite parameters count by their combinations and their longest values")
    func ubiquitousFiniteParameters() throws {
        let keys = (0..<1019).map { #"    { "name": "k\#($0)", "type": "Int", "default": 0, "store": "cloud" }"# }
        let text = """
            {
              "version": 1,
              "stores": { "cloud": { "kind": "ubiquitous" } },
              "types": {
                "Theme": { "kind": "enum", "rawType": "String", "cases": ["system", { "name": "dark", "rawValue": "a-rather-long-raw-value" }, "light"] },
                "Level": { "kind": "enum", "rawType": "Int", "cases": [{ "name": "low", "rawValue": -100 }, "high"] }
              },
              "keys": [
                { "name": "mode", "key": "mode.{flag}.{theme}", "parameters": { "flag": "Bool", "theme": "Theme" }, "type": "Int", "default": 0, "store": "cloud" },
                { "name": "long", "key": "a-key-of-thirty-six-bytes-in-length.{theme}.{flag}", "parameters": { "flag": "Bool", "theme": "Theme" }, "type": "Int", "default": 0, "store": "cloud" },
                { "name": "level", "key": "level.{level}", "parameters": { "level": "Level" }, "type": "Int", "default": 0, "store": "cloud" },
            \(keys.joined(separator: ",\n"))
              ]
            }
            """
        let (root, parseErrors) = JSONParser.parse(Array(text.utf8), file: "keys.json")
        #expect(parseErrors.isEmpty)
        let findings = UbiquitousLimitsRule().check(LintContext(root: try #require(root), file: "keys.json"))
        #expect(
            findings.map(\.description) == [
                // 36 literal bytes, 23 for the longest raw value of Theme, 5 for false.
                "keys.json:10:30: error: storage key 'a-key-of-thirty-six-bytes-in-length.{theme}.{flag}' of key 'long' is up to 65 bytes once filled in ('{flag}' up to 5, '{theme}' up to 23); iCloud's key-value store allows 64, so shorten its literal text",
                // 2 × 3 + 2 × 3 + 2 + 1,019 literal keys; the 1,011th literal key is the 1,025th.
                "keys.json:1022:5: error: store 'cloud' has 1033 keys (a parameterized key counts once per value); iCloud's key-value store holds at most 1024, so move some keys to another store",
            ])
    }

    /// Templates are paired through indexes of their fixed ends, not each with each (10,000 keys
    /// `pre{p}_k<i>` once took 26 s of lint, every pair sharing the prefix compared): the
    /// templates of a random manifest that can meet are those that meet when linted two by two,
    /// each template warned once, for the first earlier one it meets.
    @Test("parameterized keys that can meet are found as when linted two by two")
    func templatesMeetAsTwoByTwo() {
        var random = FuzzTests.SeededGenerator(state: 2026)
        let pieces = ["a", "b", "ab", "_", "b_", "a_b"]
        // Most with fixed text at both ends, the case the pairing looks up twice.
        let entries = (0..<60).map { index in
            var key = "", parameters: [String] = []
            var isLiteral = Int.random(in: 0..<4, using: &random) > 0
            for _ in 0..<Int.random(in: 2...5, using: &random) {
                if isLiteral {
                    key += pieces.randomElement(using: &random)!
                } else {
                    key += "{p\(parameters.count)}"
                    parameters.append(#""p\#(parameters.count)": "\#(Bool.random(using: &random) ? "String" : "Int")""#)
                }
                isLiteral.toggle()
            }
            return #"{ "name": "k\#(index)", "key": "\#(key)", "parameters": { \#(parameters.joined(separator: ", ")) }, "type": "Int", "default": 0 }"#
        }
        /// The warnings that a template can be what another stores under, as (that key, the other).
        func meetings(_ entries: [String]) -> Set<[String]> {
            Set(
                lint(manifest(keys: entries.joined(separator: ",\n"))).compactMap { line in
                    guard let match = line.firstMatch(of: /of key '(k\d+)' can be what key '(k\d+)'/) else { return nil }
                    return [String(match.1), String(match.2)]
                })
        }
        var twoByTwo: Set<[String]> = []
        for second in entries.indices {
            for first in 0..<second where !meetings([entries[first], entries[second]]).isEmpty {
                twoByTwo.insert(["k\(second)", "k\(first)"])
                break
            }
        }
        #expect(twoByTwo.count > 10, "the manifest tests too little: \(twoByTwo.count) templates meet another")
        #expect(meetings(entries) == twoByTwo)
        // Linting two by two goes through the same lookups, so a lookup dropped for some kind of
        // pair drops that pair there too: the patterns themselves decide, without the indexes.
        let keys = entries.map { entry in
            let key = String(entry.firstMatch(of: /"key": "([^"]*)"/)!.1)
            let types = Dictionary(uniqueKeysWithValues: entry.matches(of: /"(p\d)": "(\w+)"/).map { (String($0.1), String($0.2)) })
            return (key: key, types: types)
        }
        var byPatterns: Set<[String]> = []
        for second in keys.indices {
            guard let secondTemplate = try? StorageKeyParser.parse(keys[second].key).get() else { continue }
            for first in 0..<second {
                guard let firstTemplate = try? StorageKeyParser.parse(keys[first].key).get() else { continue }
                func hasFixedEnd(_ template: StorageKeyTemplate) -> Bool {
                    if case .literal? = template.segments.first { return true }
                    if case .literal? = template.segments.last { return true }
                    return false
                }
                func shape(_ template: StorageKeyTemplate) -> String {
                    template.segments.map { if case .literal(let text) = $0 { text } else { "{}" } }.joined()
                }
                guard hasFixedEnd(firstTemplate), hasFixedEnd(secondTemplate), shape(firstTemplate) != shape(secondTemplate) else { continue }
                let meet = StorageKeyPattern(secondTemplate, parameterTypes: keys[second].types)
                    .commonSpelling(with: StorageKeyPattern(firstTemplate, parameterTypes: keys[first].types))
                if meet != nil {
                    byPatterns.insert(["k\(second)", "k\(first)"])
                    break
                }
            }
        }
        #expect(meetings(entries) == byPatterns)
    }

    /// Found by a review of 903c054: the `iso8601` representation writes only the years 1 to 9999
    /// in UTC (from Foundation's, Julian, 0001-01-01), and refuses other dates; a default outside
    /// them (year 0, or the first or last minutes of the range shifted out of it by a zone offset)
    /// was accepted, and the key could never store its own default.
    @Test("an iso8601 default outside the years 1 to 9999 in UTC is an error; the dates at both ends are not")
    func iso8601DefaultsOutsideTheWritableYears() {
        func findings(_ text: String) -> [String] {
            lint(manifest(keys: #"{ "name": "d", "type": "Date", "default": "\#(text)", "representation": "iso8601" }"#))
                .filter { $0.contains("default-round-trip") || $0.contains("years 1 to 9999") }
        }
        for text in ["0000-12-31T00:00:00Z", "0001-01-01T00:00:00+00:01", "9999-12-31T23:30:00-01:00"] {
            #expect(findings(text).count == 1, "\(text): \(findings(text))")
        }
        for text in ["0001-01-01T00:00:00Z", "0001-01-01T00:00:00-01:00", "9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999+01:00"] {
            #expect(findings(text).isEmpty, "\(text): \(findings(text))")
        }
        let timeInterval = lint(manifest(keys: #"{ "name": "d", "type": "Date", "default": "0000-12-31T00:00:00Z" }"#))
        #expect(!timeInterval.contains { $0.contains("years 1 to 9999") }, "\(timeInterval)")
    }

    /// Two templates with both ends, the one with the shorter prefix having the longer suffix:
    /// found only through the endings of the other's suffix.
    @Test("a template with a shorter prefix and a longer suffix meets one with a longer prefix and a shorter suffix")
    func templatesMeetAcrossTheirEnds() {
        let findings = lint(
            manifest(
                keys: """
                    { "name": "short", "key": "a{x}ab", "parameters": { "x": "String" }, "type": "Int", "default": 0 },
                    { "name": "long", "key": "ab{y}b", "parameters": { "y": "String" }, "type": "Int", "default": 0 }
                    """))
        #expect(findings.contains { $0.contains("of key 'long' can be what key 'short'") }, "\(findings)")
    }

    @Test("file stores are one store when their paths name one file on every platform")
    func filePaths() {
        let same = ["settings.plist", "./settings.plist", "a/../settings.plist", ".//settings.plist/"]
        #expect(Set(same.map(StoreIdentities.filePath)).count == 1)
        // Application Support is ~/.local/share on Linux only, ~/Library/Application Support on Apple
        // platforms only; letters differ in case on Linux.
        let different = [
            "settings.plist", "~/settings.plist", "/settings.plist", "../settings.plist", "sub/settings.plist", "~/../settings.plist",
            "Settings.plist", "~/.local/share/settings.plist", "~/Library/Application Support/settings.plist",
        ]
        #expect(Set(different.map(StoreIdentities.filePath)).count == different.count)
        #expect(StoreIdentities.filePath("/a/../../settings.plist") == StoreIdentities.filePath("/settings.plist"))
        #expect(StoreIdentities.filePath("~/a/../../x") == StoreIdentities.filePath("~/../x"))
    }

    @Test("every rule has a case, every case names a rule")
    func coverage() {
        let ruleIDs = Set(Linter.rules.map(\.id))
        let covered = Set(
            Self.cases.map { testCase in
                ruleIDs.first { testCase.rule == $0 || testCase.rule.hasPrefix($0 + "-") } ?? testCase.rule
            })
        #expect(ruleIDs.subtracting(covered).sorted() == [])
        #expect(covered.subtracting(ruleIDs).sorted() == [])
    }

    @Test("rule identifiers are unique kebab-case with a summary")
    func identifiers() {
        let ids = Linter.rules.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in Linter.rules {
            #expect(rule.id.allSatisfy { $0.isLowercase || $0 == "-" || $0.isNumber })
            #expect(rule.summary.hasSuffix("."))
        }
    }
}
