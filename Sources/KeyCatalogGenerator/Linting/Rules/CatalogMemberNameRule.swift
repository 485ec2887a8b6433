/// A name that collides with what the generated code declares or names, so the file would not
/// compile or a member would shadow another:
///
/// - a key named like a member every catalog has (`stores`, `entries`, `migrations`, `register`,
///   `reset`, `migrate`, `changes`, `observe`, `Stores`, `_DeprecatedKeyDefinitions`), or like a
///   member the catalog derives from a parameterized key (`setFoo`, `fooKey` and, with
///   migrations, `migrateFoo` for `foo`);
/// - a module the generated code qualifies names with (`Swift`, `Foundation`, `KeyCatalog`) used
///   as a key, parameter, catalog or type name;
/// - a type named `Stores` or `_DeprecatedKeyDefinitions`, or a store named `Stores` (the
///   catalog's nested types);
/// - a name of the forms the generated file declares at file scope (`FileScopeNames`: the
///   property wrapper `_KeysBoundKey`, `_KeysMigrations`, `_Keys_theme_Default`… for the catalog
///   `Keys`): as a type name (declared, or named by a key's type), a migration transform's or the
///   catalog's name, whichever catalog of the module it fits; as a key or parameter name, when it
///   is one of this catalog's;
/// - an enum case named like a member of the generated enum (`persistentKeyValueRepresentation`,
///   `RawValue`) or like a module its code names (`KeyCatalog`, `Swift`, `Foundation`);
/// - a store named like a member of the generated `Stores` (`live`, `inMemory`);
/// - a key named `Value`: its static key would hide the key type's `Value` (`PersistentKey<Int>.Value`),
///   which the generated registration table names;
/// - a migration transform named like a module the generated code names: the client's function
///   would hide the module in the generated file.
///
/// Each is reported at the offending name.
///
/// ```json
/// { "name": "reset", "type": "Bool", "default": false }
/// // error: key name 'reset' is also a member of the generated catalog 'Keys' ('Keys.reset'); rename the key, as in 'resetValue'
/// ```
struct CatalogMemberNameRule: LintRule {
    let id = "catalog-member-name"
    let summary = "A name collides with a member or module the generated code uses."

    /// The members every generated catalog has (see `SwiftRenderer`).
    static let reservedNames: Set<String> = [
        "stores", "entries", "migrations", "register", "reset", "migrate", "changes", "observe", "Stores",
        "exportSettings", "importSettings",
        "_DeprecatedKeyDefinitions",
    ]

    /// The modules generated code qualifies names with (`Swift.Int`, `Foundation.Date`,
    /// `KeyCatalog.PersistentKey`); a declaration with one of these names hides the module.
    static let moduleNames: Set<String> = ["Swift", "Foundation", "KeyCatalog"]

    /// The types the generated catalog nests; a type of the same name is hidden inside it.
    static let nestedTypeNames: Set<String> = ["Stores", "_DeprecatedKeyDefinitions"]

    /// A type (or function, or catalog) named like what a generated file declares at file scope
    /// (`FileScopeNames`) clashes with it beside that catalog in the same module, whichever
    /// manifest declares either.
    static func fileScopeFormMessage(_ what: String, _ form: FileScopeNames.Form, rename: String) -> String {
        "\(what) has the form of \(form.role) a generated catalog declares in its file ('\(form.pattern)'): beside the catalog \(form.catalogDescription) in the module, the two clash; rename \(rename)"
    }

    /// The identifiers in a type's text, like `Swift` and `Int` in `[Swift.Int]`.
    static func identifiers(in text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
    }

    /// Members of every generated enum, besides its cases.
    /// (Cases named `allCases`, `rawValue` or `hashValue` compile and round-trip with Swift 6.3:
    /// the generated goldens' compile check covers them, so they are not reserved.)
    static let enumMemberNames: Set<String> = ["persistentKeyValueRepresentation", "RawValue"]

    /// Members of the generated `Stores` besides the stores: `Keys.Stores.live`, `.inMemory()`.
    static let storesMemberNames: Set<String> = ["live", "inMemory"]

    /// Type members of every key type (`PersistentKeyProtocol.Value`) that generated code names
    /// through the key type, where a static key of the same name would be found instead.
    static let keyTypeMemberNames: Set<String> = ["Value"]

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let catalog = context.root["catalog"]?.string ?? Catalog.defaultName

        if let value = context.root["catalog"], let name = value.string {
            if Self.moduleNames.contains(name) {
                findings.append(error(Self.moduleMessage("catalog name", name, what: "the catalog"), at: value.location))
            } else if let form = FileScopeNames.form(of: name) {
                findings.append(error(Self.fileScopeFormMessage("catalog name '\(name)'", form, rename: "the catalog"), at: value.location))
            }
        }
        // A type named like the catalog is duplicate-name's to report.
        for type in context.types where type.name != catalog {
            if Self.moduleNames.contains(type.name) {
                findings.append(error(Self.moduleMessage("type name", type.name, what: "the type"), at: type.nameLocation))
            } else if let form = FileScopeNames.form(of: type.name) {
                findings.append(error(Self.fileScopeFormMessage("type name '\(type.name)'", form, rename: "the type"), at: type.nameLocation))
            } else if Self.nestedTypeNames.contains(type.name) {
                findings.append(error("type name '\(type.name)' is also a type nested in the generated catalog '\(catalog)' ('\(catalog).\(type.name)'), which hides it there; rename the type", at: type.nameLocation))
            } else if Self.keyTypeMemberNames.contains(type.name) {
                findings.append(error("type name '\(type.name)' is also the key type's '\(type.name)' ('KeyCatalog.PersistentKey<…>.\(type.name)'), which the generated code's constraints name instead; rename the type", at: type.nameLocation))
            }
            for element in type.value["cases"]?.elements ?? [] {
                guard let value = element.string != nil ? element : element["name"], let name = value.string,
                    Self.enumMemberNames.contains(name) || Self.moduleNames.contains(name)
                else { continue }
                // A String case written as a bare name stores its name: keep that as its raw value.
                let fix =
                    element.string != nil && type.value["rawType"]?.string == "String"
                    ? #"rename the case, keeping its stored value, as in {"name": "\#(name)Case", "rawValue": "\#(name)"}"#
                    : "rename the case"
                if Self.moduleNames.contains(name) {
                    // Inside the generated enum the case hides the module (`KeyCatalog.RawRepresentable…`).
                    findings.append(error("case name '\(name)' of type '\(type.name)' hides the module '\(name)' that the generated enum's code names; \(fix)", at: value.location))
                } else {
                    findings.append(error("case name '\(name)' of type '\(type.name)' is also a member of the generated enum ('\(type.name).\(name)'); \(fix)", at: value.location))
                }
            }
        }
        for store in context.stores where store.name == "Stores" {
            findings.append(error("store name 'Stores' is also the generated catalog's type of stores ('\(catalog).Stores'); rename the store, as in 'mainStore'", at: store.nameLocation))
        }
        for store in context.stores where Self.storesMemberNames.contains(store.name) {
            findings.append(error("store name '\(store.name)' is also a member of the generated catalog's stores ('\(catalog).Stores.\(store.name)'); rename the store, as in '\(store.name)Store'", at: store.nameLocation))
        }

        // The members the catalog derives from parameterized keys, by name, with their key,
        // spelled as `CatalogRenderer` spells them. Two keys of one name are duplicate-name's.
        var derived: [String: (key: String, role: String)] = [:]
        var derivedCollisions: [Diagnostic] = []
        for key in context.keys {
            guard let name = key.name, let template = key.validStorageKey, !template.isLiteral else { continue }
            var members = [("set" + SwiftSyntax.capitalized(name), "setter"), (name + "Key", "bound-key accessor")]
            if !(key.value["migrations"]?.elements ?? []).isEmpty {
                members.append(("migrate" + SwiftSyntax.capitalized(name), "migration function"))
            }
            for (member, role) in members {
                if let first = derived[member], first.key != name {
                    derivedCollisions.append(error("parameterized keys '\(first.key)' and '\(name)' both generate the catalog member '\(catalog).\(member)'; rename one of them", at: key.value["name"]?.location ?? key.value.location))
                } else if derived[member] == nil {
                    derived[member] = (name, role)
                }
            }
        }

        // Types of the client's own, named in keys' types: inside the catalog, a nested type or
        // the key type's `Value` of the same name would be found instead.
        let declaredTypes = Set(context.types.map(\.name))
        for key in context.keys {
            guard let type = key.value["type"], let text = type.string else { continue }
            // (An `_` first, by bytes: `String.contains` of a string cost 4,500 instructions a key.)
            if text.utf8.contains(UInt8(ascii: "_")) {
                for name in Self.identifiers(in: text) where !declaredTypes.contains(name) {
                    guard let form = FileScopeNames.form(of: name) else { continue }
                    findings.append(error(Self.fileScopeFormMessage("type '\(name)' of \(key.label)", form, rename: "the type"), at: type.location))
                }
            }
            for name in Self.unqualifiedHiddenTypeNames(in: text) where !declaredTypes.contains(name) {
                findings.append(error("type '\(name)' of \(key.label) is, inside the generated catalog, \(name == "Value" ? "the key type's 'Value'" : "its nested '\(catalog).\(name)'"); rename your type, or name it with its module, as in 'MyApp.\(name)'", at: type.location))
            }
        }

        // A stored key's accessor is a property wrapper, whose storage is `_` plus its name: the
        // names of stored keys that another key's name is `_` plus (rarely any, so only those).
        let underscored = Set(context.keys.compactMap { key in key.name.flatMap { $0.hasPrefix("_") ? String($0.dropFirst()) : nil } })
        let storedKeyNames =
            underscored.isEmpty
            ? []
            : Set(context.keys.compactMap { key in key.name.flatMap { underscored.contains($0) && key.validStorageKey?.isLiteral == true ? $0 : nil } })

        for key in context.keys {
            guard let value = key.value["name"], let name = key.name else { continue }
            if name.hasPrefix("_"), storedKeyNames.contains(String(name.dropFirst())) {
                findings.append(error("key name '\(name)' is also the storage the generated catalog '\(catalog)' declares for key '\(name.dropFirst())' ('\(catalog).\(name)'); rename this key", at: value.location))
            } else if let form = FileScopeNames.isDeclared(name, for: catalog) {
                findings.append(error("key name '\(name)' is also \(form.role) the generated file declares for the catalog '\(catalog)' ('\(form.pattern)'), which this key's member would hide in it; rename the key, as in '\(name.dropFirst())Value'", at: value.location))
            } else if Self.reservedNames.contains(name) {
                findings.append(error("key name '\(name)' is also a member of the generated catalog '\(catalog)' ('\(catalog).\(name)'); rename the key, as in '\(name)Value'", at: value.location))
            } else if Self.moduleNames.contains(name) {
                findings.append(error(Self.moduleMessage("key name", name, what: "the key"), at: value.location))
            } else if Self.keyTypeMemberNames.contains(name) {
                findings.append(error("key name '\(name)' is also the key type's '\(name)' ('KeyCatalog.PersistentKey<…>.\(name)'), which the generated code names; rename the key, as in '\(name.prefix(1).lowercased() + name.dropFirst())'", at: value.location))
            } else if let owner = derived[name] {
                findings.append(error("key name '\(name)' is also the \(owner.role) the generated catalog '\(catalog)' declares for parameterized key '\(owner.key)' ('\(catalog).\(name)(…)'); rename this key", at: value.location))
            }
            for migration in key.value["migrations"]?.elements ?? [] {
                guard let transform = migration["transform"], let function = transform.string else { continue }
                if let form = FileScopeNames.form(of: function) {
                    findings.append(error(Self.fileScopeFormMessage("migration transform '\(function)' of \(key.label)", form, rename: "the function"), at: transform.location))
                }
                guard Self.moduleNames.contains(function) else { continue }
                findings.append(error("migration transform '\(function)' of \(key.label) hides the module '\(function)' in the generated code ('\(function).\(Self.exampleMember[function] ?? "")'); rename the function, as in '\(function.prefix(1).lowercased() + function.dropFirst())From\(SwiftSyntax.capitalized(name))'", at: transform.location))
            }
            for parameter in key.value["parameters"]?.members ?? [] {
                if let form = FileScopeNames.isDeclared(parameter.name, for: catalog) {
                    findings.append(error("parameter name '\(parameter.name)' of \(key.label) is also \(form.role) the generated file declares for the catalog '\(catalog)' ('\(form.pattern)'), which the parameter would hide in the key's functions; rename the parameter and its placeholder", at: parameter.nameLocation))
                }
                guard Self.moduleNames.contains(parameter.name) else { continue }
                let example = parameter.name.prefix(1).lowercased() + parameter.name.dropFirst() + "Name"
                findings.append(error(Self.moduleMessage("parameter name", parameter.name, of: " of \(key.label)", what: "the parameter and its placeholder, as in '\(example)'"), at: parameter.nameLocation))
            }
        }
        return findings + derivedCollisions
    }

    /// The names that, unqualified in a key's type, the generated catalog resolves to one of its
    /// own: its nested types, and the key type's members.
    static let hiddenTypeNames = nestedTypeNames.union(keyTypeMemberNames)
    private static let hiddenTypeNameLengths = Set(hiddenTypeNames.map(\.utf8.count))

    /// The ``hiddenTypeNames`` that a type's text looks up where it is written: `Stores` in
    /// `[Stores]` and `Stores?`, not in `MyApp.Stores`.
    static func unqualifiedHiddenTypeNames(in text: String) -> [String] {
        // By UTF-8 byte: an identifier's bytes are ASCII letters, digits and '_', or (any scalar
        // past ASCII) bytes of 0x80 and up; `Character.isLetter` cost about 400 instructions a
        // character (5,800 a key at 10,000 keys). A name is made only when its length is a
        // candidate's.
        var names: [String] = []
        let bytes = text.utf8
        var start: String.Index?
        var isQualified = false
        var previous: UInt8 = 0x20
        var index = bytes.startIndex
        while true {
            let byte: UInt8 = index < bytes.endIndex ? bytes[index] : 0x20
            let isIdentifier = byte >= 0x80 || byte == 0x5F || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            if isIdentifier {
                if start == nil {
                    start = index
                    isQualified = previous == 0x2E
                }
            } else {
                if let first = start, !isQualified, hiddenTypeNameLengths.contains(bytes.distance(from: first, to: index)) {
                    let name = String(text[first..<index])
                    if hiddenTypeNames.contains(name) { names.append(name) }
                }
                start = nil
            }
            guard index < bytes.endIndex else { break }
            previous = byte
            index = bytes.index(after: index)
        }
        return names
    }

    /// The message for a declaration named like a module the generated code names.
    private static func moduleMessage(_ label: String, _ name: String, of owner: String = "", what: String) -> String {
        "\(label) '\(name)'\(owner) hides the module '\(name)' that the generated code names ('\(name).\(exampleMember[name] ?? "")'); rename \(what)"
    }

    private static let exampleMember = ["Swift": "Int", "Foundation": "Date", "KeyCatalog": "PersistentKey"]
}
