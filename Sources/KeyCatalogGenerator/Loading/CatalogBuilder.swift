/// Builds the validated ``Catalog`` from a manifest the linter found no errors in.
///
/// It trusts the linter but never traps: anything unexpected makes it return `nil`.
struct CatalogBuilder {
    let context: LintContext

    func build() -> Catalog? {
        let root = context.root
        let file = context.file
        guard root.members != nil else { return nil }
        let access = root["access"]?.string.flatMap(AccessLevel.init(rawValue:)) ?? .internal

        var stores = [StoreDeclaration.standard(file: file)]
        for entry in context.stores {
            guard let kind = storeKind(entry.value) else { return nil }
            stores.append(StoreDeclaration(name: entry.name, kind: kind, location: entry.nameLocation))
        }

        var types: [EnumDeclaration] = []
        for entry in context.types {
            guard let declaration = enumDeclaration(entry) else { return nil }
            types.append(declaration)
        }

        var keys: [KeyDeclaration] = []
        keys.reserveCapacity(context.keys.count)
        for key in context.keys {
            guard let declaration = keyDeclaration(key) else { return nil }
            keys.append(declaration)
        }

        return Catalog(
            version: 1,
            name: root["catalog"]?.string ?? Catalog.defaultName,
            access: access,
            imports: (root["imports"]?.elements ?? []).compactMap(\.string),
            defaultStore: context.defaultStore,
            stores: stores,
            types: types,
            keys: keys,
            location: root.location
        )
    }

    private func storeKind(_ value: JSONValue) -> StoreKind? {
        switch value["kind"]?.string {
        case "userDefaults": .userDefaults(suite: value["suite"]?.string)
        case "ubiquitous": .ubiquitous
        case "keychain": keychainKind(value)
        case "file": value["path"]?.string.map { .file(path: $0) }
        case "memory": .memory
        default: nil
        }
    }

    /// A keychain store: `accessibility` is `afterFirstUnlock` when absent.
    private func keychainKind(_ value: JSONValue) -> StoreKind? {
        guard let service = value["service"]?.string else { return nil }
        var accessibility = StoreKind.KeychainAccessibility.default
        if let field = value["accessibility"] {
            guard let given = field.string.flatMap(StoreKind.KeychainAccessibility.init(rawValue:)) else { return nil }
            accessibility = given
        }
        return .keychain(service: service, accessGroup: value["accessGroup"]?.string, accessibility: accessibility)
    }

    private func enumDeclaration(_ entry: LintContext.NamedEntry) -> EnumDeclaration? {
        guard let rawType = entry.value["rawType"]?.string.flatMap(EnumDeclaration.RawType.init(rawValue:)),
            let elements = entry.value["cases"]?.elements
        else { return nil }
        var cases: [EnumDeclaration.Case] = []
        var nextInt = 0
        for element in elements {
            guard let name = element.string ?? element["name"]?.string else { return nil }
            let rawValue: EnumDeclaration.RawValue
            switch (rawType, element["rawValue"]) {
            case (.string, let value?):
                guard let text = value.string else { return nil }
                rawValue = .string(text)
            case (.string, nil):
                rawValue = .string(name)
            case (.int, let value?):
                guard let number = value.number.flatMap({ Int($0) }) else { return nil }
                rawValue = .int(number)
                nextInt = number &+ 1
            case (.int, nil):
                rawValue = .int(nextInt)
                nextInt &+= 1
            }
            let location = element.string != nil ? element.location : (element["name"]?.location ?? element.location)
            cases.append(EnumDeclaration.Case(name: name, rawValue: rawValue, location: location))
        }
        return EnumDeclaration(name: entry.name, rawType: rawType, cases: cases, doc: entry.value["doc"]?.string, location: entry.nameLocation)
    }

    private func keyDeclaration(_ key: LintContext.Key) -> KeyDeclaration? {
        guard let name = key.name, let nameValue = key.value["name"], let type = key.validType,
            let storageKey = key.validStorageKey
        else { return nil }
        // Converted once, when default-mismatch checked them.
        let checked = { (field: String) in key.checkedDefault(field, enums: context.enumCases)?.value }
        let defaultValue: KeyDefault
        if key.value["default"] != nil {
            guard let converted = checked("default") else { return nil }
            defaultValue = .value(converted)
        } else {
            guard let debug = checked("debugDefault"), let release = checked("releaseDefault") else { return nil }
            defaultValue = .debugRelease(debug: debug, release: release)
        }

        let parameterTypes = Dictionary(
            (key.value["parameters"]?.members ?? []).compactMap { member in
                member.value.string.flatMap(ParameterType.init(rawValue:)).map { (member.name, ($0, member.nameLocation)) }
            },
            uniquingKeysWith: { first, _ in first }
        )
        var parameters: [KeyParameter] = []
        // Each placeholder's name once (by its scalars, as `isSameIdentifier` compares): looking
        // each up among the parameters so far was quadratic (found by a review: 40 s for one key
        // of 20,000 placeholders).
        var named: Set<[Unicode.Scalar]> = []
        for placeholder in storageKey.placeholders where named.insert(Array(placeholder.unicodeScalars)).inserted {
            guard let (parameterType, location) = parameterTypes[placeholder] else { return nil }
            parameters.append(KeyParameter(name: placeholder, type: parameterType, location: location))
        }

        var representation: Representation?
        if let text = key.value["representation"]?.string {
            guard let parsed = Representation(rawValue: text) else { return nil }
            representation = parsed
        }

        var migrations: [MigrationDeclaration] = []
        for entry in key.value["migrations"]?.elements ?? [] {
            guard let fromKeyValue = entry["fromKey"], let fromKeyText = fromKeyValue.string,
                let fromKey = try? StorageKeyParser.parse(fromKeyText).get()
            else { return nil }
            var fromType: ValueType?
            if let text = entry["fromType"]?.string {
                guard let parsed = try? TypeParser.parse(text, enums: Set(context.enumCases.keys)).get() else { return nil }
                fromType = parsed
            }
            migrations.append(
                MigrationDeclaration(
                    fromKey: fromKey,
                    fromStore: entry["fromStore"]?.string ?? key.store,
                    fromType: fromType,
                    fromRepresentation: entry["fromRepresentation"]?.string.flatMap(Representation.init(rawValue:)),
                    transform: entry["transform"]?.string,
                    location: fromKeyValue.location
                )
            )
        }

        return KeyDeclaration(
            name: name,
            storageKey: storageKey,
            parameters: parameters,
            type: type,
            default: defaultValue,
            representation: representation,
            store: key.store,
            doc: key.value["doc"]?.string,
            deprecated: key.value["deprecated"]?.string,
            secret: key.value["secret"]?.bool ?? false,
            migrations: migrations,
            isSynced: ICloudSyncRule.isSynced(key, in: context),
            location: nameValue.location
        )
    }
}
