import Foundation

/// The JSON Schema (draft 2020-12) of keys.json manifest v1, printed by `keycatalog schema`.
///
/// Point an editor at it for completion and inline checks:
///
/// ```json
/// { "$schema": "./keycatalog.schema.json", "version": 1, "keys": [] }
/// ```
///
/// The schema checks shape only; `keycatalog lint` checks everything else (defaults against
/// types, store references, placeholders...).
public enum ManifestJSONSchema {
    /// The schema's `$id`.
    public static let id = "https://keycatalog.dev/schema/keys-v1.json"

    /// Swift's identifier grammar (``SwiftIdentifier``) as JSON string contents: the schema and
    /// `keycatalog lint` accept the same names.
    private static let identifierPattern = jsonEscaped(SwiftIdentifier.pattern)

    /// A function name, possibly qualified (`Theme.fromIndex`), as JSON string contents.
    private static let transformPattern: String = {
        let identifier = SwiftIdentifier.pattern.dropFirst().dropLast()
        return jsonEscaped("^\(identifier)(\\.\(identifier))*$")
    }()

    /// The type spellings editors offer for `type`: every built-in scalar, its optional, and
    /// the common collections. Any other spelling is still accepted (a declared enum, a Swift type).
    static let typeCompletions: [String] =
        ValueType.scalars.map(\.name) + ValueType.scalars.map { $0.name + "?" }
        + ["[String]", "[Int]", "[Double]", "[Bool]", "[URL]", "[String: String]", "[String: Int]", "[String: Bool]"]

    /// ``typeCompletions`` as a JSON array on one line.
    private static let typeCompletionsJSON = "[" + typeCompletions.map { JSONText.quoted($0) }.joined(separator: ", ") + "]"

    private static func jsonEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\")
    }

    /// The schema, as JSON text ending with a newline.
    public static let text = #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "https://keycatalog.dev/schema/keys-v1.json",
          "title": "KeyCatalog manifest (keys.json), version 1",
          "description": "Declares typed persistent keys; `keycatalog generate` turns it into Swift. keycatalog accepts // and /* */ comments (JSONC); a key's `doc` becomes its documentation in generated code.",
          "type": "object",
          "required": ["version", "keys"],
          "additionalProperties": false,
          "properties": {
            "$schema": { "type": "string", "description": "Ignored by keycatalog." },
            "version": { "const": 1, "description": "The manifest format version." },
            "catalog": { "$ref": "#/$defs/identifier", "default": "Keys", "description": "The generated namespace." },
            "access": { "enum": ["internal", "public", "package"], "default": "internal", "description": "Access level of the generated declarations." },
            "imports": { "type": "array", "items": { "$ref": "#/$defs/identifier" }, "uniqueItems": true, "description": "Modules the generated file imports, for the keys' types declared in them." },
            "defaultStore": { "$ref": "#/$defs/identifier", "default": "standard", "description": "The store of keys that name none." },
            "stores": {
              "type": "object",
              "description": "Named stores; `standard` (UserDefaults.standard) always exists.",
              "propertyNames": { "$ref": "#/$defs/identifier", "not": { "const": "standard" } },
              "additionalProperties": { "$ref": "#/$defs/store" }
            },
            "types": {
              "type": "object",
              "description": "Enums the generator declares.",
              "propertyNames": { "$ref": "#/$defs/identifier" },
              "additionalProperties": { "$ref": "#/$defs/enum" }
            },
            "keys": { "type": "array", "items": { "$ref": "#/$defs/key" } }
          },
          "$defs": {
            "identifier": { "type": "string", "pattern": "\#(identifierPattern)" },
            "store": {
              "type": "object",
              "required": ["kind"],
              "additionalProperties": false,
              "properties": {
                "kind": { "enum": ["userDefaults", "ubiquitous", "keychain", "file", "memory"] },
                "suite": { "type": "string", "minLength": 1, "description": "userDefaults only: the suite name." },
                "service": { "type": "string", "minLength": 1, "description": "keychain only (required): the service." },
                "accessGroup": { "type": "string", "minLength": 1, "description": "keychain only: the access group." },
                "accessibility": {
                  "enum": ["afterFirstUnlock", "afterFirstUnlockThisDeviceOnly", "whenUnlocked", "whenUnlockedThisDeviceOnly", "whenPasscodeSetThisDeviceOnly"],
                  "description": "keychain only: when items can be read (kSecAttrAccessible); afterFirstUnlock by default."
                },
                "path": { "type": "string", "minLength": 1, "description": "file only (required): the property-list file." },
                "sync": { "const": "iCloud", "description": "userDefaults and file only: mirror the store's keys through iCloud's key-value store." }
              },
              "allOf": [
                { "if": { "properties": { "kind": { "const": "keychain" } } }, "then": { "required": ["service"] } },
                { "if": { "properties": { "kind": { "const": "file" } } }, "then": { "required": ["path"] } }
              ]
            },
            "enum": {
              "type": "object",
              "required": ["kind", "rawType", "cases"],
              "additionalProperties": false,
              "properties": {
                "kind": { "const": "enum" },
                "rawType": { "enum": ["String", "Int"] },
                "doc": { "type": "string" },
                "cases": {
                  "type": "array",
                  "minItems": 1,
                  "items": {
                    "oneOf": [
                      { "$ref": "#/$defs/identifier" },
                      {
                        "type": "object",
                        "required": ["name"],
                        "additionalProperties": false,
                        "properties": {
                          "name": { "$ref": "#/$defs/identifier" },
                          "rawValue": { "type": ["string", "integer"] }
                        }
                      }
                    ]
                  }
                }
              }
            },
            "type": {
              "type": "string",
              "description": "Bool, Int, Int8...Int64, UInt...UInt64, Double, Float, String, Data, Date, URL, UUID, [T], [String: T], T?, a declared enum, or another Swift type.",
              "minLength": 1,
              "examples": \#(typeCompletionsJSON),
              "anyOf": [
                { "enum": \#(typeCompletionsJSON) },
                { "pattern": "^[^\\s].*$", "description": "A declared enum, a collection or optional of other types, or a Swift type of yours." }
              ]
            },
            "representation": { "enum": ["native", "rawValue", "codable", "string", "iso8601", "timeInterval"] },
            "default": {
              "description": "A JSON literal checked against the type, or { \"swift\": \"expression\" }.",
              "oneOf": [
                { "not": { "type": "object" } },
                { "type": "object", "not": { "required": ["swift"] } },
                { "type": "object", "required": ["swift"], "additionalProperties": false, "properties": { "swift": { "type": "string", "minLength": 1 } } }
              ]
            },
            "key": {
              "type": "object",
              "required": ["name", "type"],
              "additionalProperties": false,
              "properties": {
                "name": { "$ref": "#/$defs/identifier" },
                "key": { "type": "string", "minLength": 1, "description": "The storage key (defaults to name); may hold {placeholders}." },
                "parameters": {
                  "type": "object",
                  "propertyNames": { "$ref": "#/$defs/identifier" },
                  "additionalProperties": { "enum": ["String", "Int", "UUID"] }
                },
                "type": { "$ref": "#/$defs/type" },
                "default": { "$ref": "#/$defs/default" },
                "debugDefault": { "$ref": "#/$defs/default" },
                "releaseDefault": { "$ref": "#/$defs/default" },
                "representation": { "$ref": "#/$defs/representation" },
                "store": { "$ref": "#/$defs/identifier" },
                "doc": { "type": "string", "description": "The key's /// documentation in generated code (comments in keys.json are not carried over)." },
                "deprecated": { "type": "string", "description": "The deprecation message." },
                "secret": { "type": "boolean", "description": "Only in a keychain store." },
                "sync": { "enum": ["iCloud", "none"], "description": "Mirror the key through iCloud (userDefaults and file stores), or not when its store syncs." },
                "migrations": { "type": "array", "items": { "$ref": "#/$defs/migration" } }
              },
              "oneOf": [
                { "required": ["default"], "not": { "anyOf": [{ "required": ["debugDefault"] }, { "required": ["releaseDefault"] }] } },
                { "required": ["debugDefault", "releaseDefault"], "not": { "required": ["default"] } }
              ]
            },
            "migration": {
              "type": "object",
              "required": ["fromKey"],
              "additionalProperties": false,
              "properties": {
                "fromKey": { "type": "string", "minLength": 1 },
                "fromStore": { "$ref": "#/$defs/identifier" },
                "fromType": { "$ref": "#/$defs/type" },
                "fromRepresentation": { "$ref": "#/$defs/representation" },
                "transform": { "type": "string", "pattern": "\#(transformPattern)", "description": "The name of a function you write, (Old) -> New?, that converts the old value (nil keeps it where it is)." }
              }
            }
          }
        }

        """#
}
