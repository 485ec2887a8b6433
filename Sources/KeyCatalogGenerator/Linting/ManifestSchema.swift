/// The fields each kind of manifest object accepts: the one table the unknown-field,
/// field-type and missing-field rules, and the JSON Schema, agree on.
enum ManifestSchema {
    /// The kinds of objects in a manifest.
    enum ObjectKind: String, Sendable, CaseIterable {
        case manifest, store, type, enumCase = "case", key, migration

        /// The kind's place in `allCases`.
        fileprivate var position: Int {
            switch self {
            case .manifest: 0
            case .store: 1
            case .type: 2
            case .enumCase: 3
            case .key: 4
            case .migration: 5
            }
        }
    }

    /// One accepted field.
    struct Field: Sendable {
        var name: String
        /// The JSON kinds accepted; empty means any.
        var kinds: [JSONKind]
        var required: Bool
        /// An example value for messages (`"type": "Bool"`).
        var example: String
    }

    /// The fields of `kind`, in documentation order.
    static func fields(of kind: ObjectKind) -> [Field] {
        allFields[kind.position]
    }

    /// The names of the fields of `kind`.
    static func fieldNames(of kind: ObjectKind) -> Set<String> {
        allFieldNames[kind.position]
    }

    /// Whether `name` is a field of `kind`: the lengths first, then the names, through a
    /// dozen fields at most, which is cheaper than hashing `name` for ``fieldNames(of:)``.
    static func isField(_ name: String, of kind: ObjectKind) -> Bool {
        let length = name.utf8.count
        return allFields[kind.position].contains { $0.name.utf8.count == length && $0.name == name }
    }

    /// Built once: three rules look them up for every object of a manifest. Arrays by the
    /// kind's position rather than dictionaries by kind: hashing the kind cost more than the
    /// rest of a lookup.
    private static let allFields = ObjectKind.allCases.map(makeFields(of:))
    private static let allFieldNames = allFields.map { Set($0.map(\.name)) }

    private static func makeFields(of kind: ObjectKind) -> [Field] {
        switch kind {
        case .manifest:
            [
                Field(name: "$schema", kinds: [.string], required: false, example: "\"https://…\""),
                // `version` is checked by its own rule, which reads it first.
                Field(name: "version", kinds: [], required: false, example: "1"),
                Field(name: "catalog", kinds: [.string], required: false, example: "\"Keys\""),
                Field(name: "access", kinds: [.string], required: false, example: "\"internal\""),
                Field(name: "imports", kinds: [.array], required: false, example: "[\"Models\"]"),
                Field(name: "defaultStore", kinds: [.string], required: false, example: "\"standard\""),
                Field(name: "stores", kinds: [.object], required: false, example: "{}"),
                Field(name: "types", kinds: [.object], required: false, example: "{}"),
                Field(name: "keys", kinds: [.array], required: true, example: "[]"),
            ]
        case .store:
            [
                Field(name: "kind", kinds: [.string], required: true, example: "\"userDefaults\""),
                Field(name: "suite", kinds: [.string], required: false, example: "\"group.com.example.app\""),
                Field(name: "service", kinds: [.string], required: false, example: "\"com.example.app\""),
                Field(name: "accessGroup", kinds: [.string], required: false, example: "\"TEAMID.com.example.shared\""),
                Field(name: "accessibility", kinds: [.string], required: false, example: "\"afterFirstUnlockThisDeviceOnly\""),
                Field(name: "path", kinds: [.string], required: false, example: "\"settings.plist\""),
                Field(name: "sync", kinds: [.string], required: false, example: "\"iCloud\""),
            ]
        case .type:
            [
                Field(name: "kind", kinds: [.string], required: true, example: "\"enum\""),
                Field(name: "rawType", kinds: [.string], required: true, example: "\"String\""),
                Field(name: "cases", kinds: [.array], required: true, example: "[\"light\", \"dark\"]"),
                Field(name: "doc", kinds: [.string], required: false, example: "\"…\""),
            ]
        case .enumCase:
            [
                Field(name: "name", kinds: [.string], required: true, example: "\"light\""),
                Field(name: "rawValue", kinds: [.string, .number], required: false, example: "\"light\""),
            ]
        case .key:
            [
                Field(name: "name", kinds: [.string], required: true, example: "\"launchCount\""),
                Field(name: "key", kinds: [.string], required: false, example: "\"LaunchCount\""),
                Field(name: "parameters", kinds: [.object], required: false, example: "{ \"listID\": \"String\" }"),
                Field(name: "type", kinds: [.string], required: true, example: "\"Bool\""),
                Field(name: "default", kinds: [], required: false, example: "false"),
                Field(name: "debugDefault", kinds: [], required: false, example: "true"),
                Field(name: "releaseDefault", kinds: [], required: false, example: "false"),
                Field(name: "representation", kinds: [.string], required: false, example: "\"codable\""),
                Field(name: "store", kinds: [.string], required: false, example: "\"standard\""),
                Field(name: "doc", kinds: [.string], required: false, example: "\"…\""),
                Field(name: "deprecated", kinds: [.string], required: false, example: "\"Use 'newKey' instead.\""),
                Field(name: "secret", kinds: [.bool], required: false, example: "true"),
                Field(name: "sync", kinds: [.string], required: false, example: "\"iCloud\""),
                Field(name: "migrations", kinds: [.array], required: false, example: "[{ \"fromKey\": \"oldKey\" }]"),
            ]
        case .migration:
            [
                Field(name: "fromKey", kinds: [.string], required: true, example: "\"oldKey\""),
                Field(name: "fromStore", kinds: [.string], required: false, example: "\"standard\""),
                Field(name: "fromType", kinds: [.string], required: false, example: "\"String\""),
                Field(name: "fromRepresentation", kinds: [.string], required: false, example: "\"string\""),
                Field(name: "transform", kinds: [.string], required: false, example: "\"launchCountFromString\""),
            ]
        }
    }
}
