/// The manifest's JSON tree, indexed once for every lint rule (the raw, positioned form).
///
/// Rules read it and never fail: each looks only at values of the JSON kind it expects, since
/// wrong kinds are the field-type rule's to report.
struct LintContext {
    /// A named entry of `stores` or `types`.
    struct NamedEntry {
        var name: String
        var nameLocation: SourceLocation
        var value: JSONValue
    }

    /// One element of `keys` that is an object, with its interesting fields decoded.
    ///
    /// A class: every rule walks every key, and copying a reference is much cheaper than
    /// copying these fields (10,000-key manifests spent a fifth of linting on copies).
    final class Key {
        let index: Int
        let value: JSONValue
        /// `name`, when it is a string.
        let name: String?
        /// How messages name the key: `key 'launchCount'` or `key #3`.
        let label: String
        /// The parsed `type`, when it is a string.
        let type: Result<ValueType, TypeParser.Failure>?
        /// A near miss for a type name the manifest does not know (`Integer` -> `Int`); set only
        /// when the default is not Swift source.
        let typeSuggestion: (unknown: String, suggestion: String)?
        /// The parsed storage key: `key`, or `name` when absent.
        let storageKey: Result<StorageKeyTemplate, StorageKeyParser.Failure>?
        /// Where the storage key is written: the `key` value, else the `name` value.
        let storageKeyLocation: SourceLocation
        /// The resolved store: `store`, else the catalog's default store.
        let store: String

        init(
            index: Int,
            value: JSONValue,
            name: String?,
            label: String,
            type: Result<ValueType, TypeParser.Failure>?,
            typeSuggestion: (unknown: String, suggestion: String)?,
            storageKey: Result<StorageKeyTemplate, StorageKeyParser.Failure>?,
            storageKeyLocation: SourceLocation,
            store: String
        ) {
            self.index = index
            self.value = value
            self.name = name
            self.label = label
            self.type = type
            self.typeSuggestion = typeSuggestion
            self.storageKey = storageKey
            self.storageKeyLocation = storageKeyLocation
            self.store = store
        }

        /// The valid parsed type, if any.
        var validType: ValueType? { try? type?.get() }

        /// `DefaultChecker`'s verdict on this key's `field` (`default`, `debugDefault` or
        /// `releaseDefault`) as its valid type; `nil` without that field or a valid type.
        /// Checked once: default-mismatch reports the problems, the catalog builder takes the value.
        func checkedDefault(_ field: String, enums: [String: [String]]) -> (value: DefaultValue?, problems: [DefaultChecker.Problem])? {
            let slot = Self.defaultFields.firstIndex(of: field)
            if let slot, let checked = checkedDefaults[slot] { return checked }
            guard let type = validType, let value = self.value[field] else { return nil }
            let checked = DefaultChecker(keyName: name ?? "#\(index + 1)", field: field, enums: enums).check(value, as: type)
            if let slot { checkedDefaults[slot] = checked }
            return checked
        }

        private static let defaultFields = ["default", "debugDefault", "releaseDefault"]

        /// ``checkedDefault(_:enums:)``'s results, by the field's place in `defaultFields`.
        private var checkedDefaults: [(value: DefaultValue?, problems: [DefaultChecker.Problem])?] = [nil, nil, nil]
        /// The valid storage key, if any.
        var validStorageKey: StorageKeyTemplate? { try? storageKey?.get() }

        /// The key's parameters' types as the manifest names them, by parameter name (those given
        /// as strings): what ``StorageKeyPattern`` spells each placeholder by.
        var parameterTypes: [String: String] {
            var types: [String: String] = [:]
            for parameter in value["parameters"]?.members ?? [] {
                if let type = parameter.value.string { types[parameter.name] = type }
            }
            return types
        }
    }

    let file: String
    let root: JSONValue
    /// `stores` entries in order.
    let stores: [NamedEntry]
    /// `types` entries in order.
    let types: [NamedEntry]
    /// Every element of `keys` that is an object.
    let keys: [Key]
    /// Store kinds by store name, `standard` included (`userDefaults`); only known kinds.
    let storeKinds: [String: String]
    /// Case names of each declared enum.
    let enumCases: [String: [String]]
    /// The resolved `defaultStore`.
    let defaultStore: String
    /// What each store opens: stores of one identity are one store.
    let storeIdentities: StoreIdentities

    init(root: JSONValue, file: String) {
        self.file = file
        self.root = root
        let stores = (root["stores"]?.members ?? []).map { NamedEntry(name: $0.name, nameLocation: $0.nameLocation, value: $0.value) }
        let types = (root["types"]?.members ?? []).map { NamedEntry(name: $0.name, nameLocation: $0.nameLocation, value: $0.value) }
        self.stores = stores
        self.types = types

        var storeKinds = [StoreDeclaration.standardName: "userDefaults"]
        for store in stores where store.name != StoreDeclaration.standardName {
            if let kind = store.value["kind"]?.string, StoreKind.names.contains(kind), storeKinds[store.name] == nil {
                storeKinds[store.name] = kind
            }
        }
        self.storeKinds = storeKinds
        self.storeIdentities = StoreIdentities(stores: stores)

        var enumCases: [String: [String]] = [:]
        for type in types where enumCases[type.name] == nil {
            enumCases[type.name] = (type.value["cases"]?.elements ?? []).compactMap { $0.string ?? $0["name"]?.string }
        }
        self.enumCases = enumCases
        let enumNames = Set(enumCases.keys)

        let defaultStore = root["defaultStore"]?.string ?? StoreDeclaration.standardName
        self.defaultStore = defaultStore

        var keys: [Key] = []
        // Keys share a few types ("Int", "String?"): each spelling is parsed once.
        var parsedTypes: [String: Result<ValueType, TypeParser.Failure>] = [:]
        for (index, element) in (root["keys"]?.elements ?? []).enumerated() where element.members != nil {
            let name = element["name"]?.string
            let type = element["type"]?.string.map { text in
                if let parsed = parsedTypes[text] { return parsed }
                let parsed = TypeParser.parse(text, enums: enumNames)
                parsedTypes[text] = parsed
                return parsed
            }
            var suggestion: (String, String)?
            if case .success(let parsed)? = type, let custom = Self.firstCustomName(in: parsed) {
                let defaults = ["default", "debugDefault", "releaseDefault"].compactMap { element[$0] }
                let swiftDefault = defaults.contains { $0.member("swift") != nil }
                let candidates = ValueType.scalars.map(\.name) + enumNames.sorted()
                let caseOnly = candidates.first { $0.lowercased() == custom.lowercased() }
                if let near = caseOnly ?? (swiftDefault ? nil : NearMiss.suggestion(for: custom, among: candidates)) {
                    suggestion = (custom, near)
                }
            }
            let keyValue = element["key"]
            let storageKey = keyValue?.string ?? name
            keys.append(
                Key(
                    index: index,
                    value: element,
                    name: name,
                    label: name.map { "key '\($0)'" } ?? "key #\(index + 1)",
                    type: type,
                    typeSuggestion: suggestion,
                    storageKey: storageKey.map(StorageKeyParser.parse),
                    storageKeyLocation: (keyValue?.string != nil ? keyValue : element["name"])?.location ?? element.location,
                    store: element["store"]?.string ?? defaultStore
                )
            )
        }
        self.keys = keys
        self.schemaObjects = Self.schemaObjects(root: root, stores: stores, types: types, keys: keys)
    }

    /// The first custom type name inside `type` (`[Foo]?` -> `Foo`).
    static func firstCustomName(in type: ValueType) -> String? {
        switch type {
        case .custom(let name): name
        case .array(let inner), .dictionary(let inner), .optional(let inner): firstCustomName(in: inner)
        default: nil
        }
    }

    /// Every object the schema describes, with its kind and how messages name it: the
    /// manifest, stores, types, enum cases written as objects, keys and migrations.
    /// Built once: three rules walk it.
    let schemaObjects: [(kind: ManifestSchema.ObjectKind, value: JSONValue, label: String)]

    private static func schemaObjects(
        root: JSONValue,
        stores: [NamedEntry],
        types: [NamedEntry],
        keys: [Key]
    ) -> [(kind: ManifestSchema.ObjectKind, value: JSONValue, label: String)] {
        var objects: [(ManifestSchema.ObjectKind, JSONValue, String)] = []
        if root.members != nil { objects.append((.manifest, root, "the manifest")) }
        for store in stores where store.value.members != nil { objects.append((.store, store.value, "store '\(store.name)'")) }
        for type in types where type.value.members != nil {
            objects.append((.type, type.value, "type '\(type.name)'"))
            for element in type.value["cases"]?.elements ?? [] where element.members != nil {
                let label = element["name"]?.string.map { "case '\($0)' of type '\(type.name)'" } ?? "a case of type '\(type.name)'"
                objects.append((.enumCase, element, label))
            }
        }
        for key in keys {
            objects.append((.key, key.value, key.label))
            for migration in key.value["migrations"]?.elements ?? [] where migration.members != nil {
                objects.append((.migration, migration, "a migration of \(key.label)"))
            }
        }
        return objects
    }
}
