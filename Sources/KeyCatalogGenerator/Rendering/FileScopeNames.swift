/// The names a generated file declares at file scope beside its catalog, each `_` and the
/// catalog's name first (for the catalog `Keys`): the property wrapper of a catalog of many keys
/// (`_KeysBoundKey`), the alias of its deprecated keys' definitions
/// (`_KeysDeprecatedKeyDefinitions`), its migration table and each parameterized key's migration
/// (`_KeysMigrations`, `_KeysMigration0`), each migration transform's forwarder
/// (`_KeysTransform0`), and each default built by a function (`_Keys_holidays_Default`,
/// `_Keys_level_DebugDefault`).
///
/// A type of one of these forms anywhere in the module clashes with them; a key, parameter or
/// transform so named hides them in the catalog's code. `CatalogMemberNameRule` reserves them.
enum FileScopeNames {
    static func boundKey(catalog: String) -> String { "_" + catalog + "BoundKey" }
    static func deprecatedAlias(catalog: String) -> String { "_" + catalog + "DeprecatedKeyDefinitions" }
    static func migrations(catalog: String) -> String { "_" + catalog + "Migrations" }
    static func migration(catalog: String, index: Int) -> String { "_\(catalog)Migration\(index)" }
    static func transform(catalog: String, index: Int) -> String { "_\(catalog)Transform\(index)" }

    /// A default's builder; `role` is `""`, `"Debug"` or `"Release"`. (`_` before the role: key
    /// `a`'s debug default and key `aDebug`'s default differ.)
    static func defaultBuilder(catalog: String, key: String, role: String) -> String { "_\(catalog)_\(key)_\(role)Default" }

    /// A name of one of these forms: what it is (`the property wrapper`), the form
    /// (`_<Catalog>BoundKey`), and the catalog it would be declared for (`Keys`; for a default's
    /// builder, the name up to its second `_`).
    struct Form: Equatable {
        let role: String
        let pattern: String
        let catalog: Substring

        /// The catalog, as a message names it: for a default's builder, whose key may hold a
        /// `_`, also the catalogs whose names go on past it (`App` or `App_Keys` for
        /// `_App_Keys_theme_Default`).
        var catalogDescription: String {
            pattern.hasPrefix("_<Catalog>_<key>_") ? "'\(catalog)' (or one whose name starts with '\(catalog)_')" : "'\(catalog)'"
        }
    }

    /// The form `name` has, or `nil`. Most names do not start with `_`, and are told apart by
    /// their first byte.
    static func form(of name: some StringProtocol) -> Form? {
        guard name.utf8.first == UInt8(ascii: "_"), name.utf8.count > 1 else { return nil }
        let body = Substring(name.dropFirst())
        for (suffix, role) in fixedSuffixes where body.hasSuffix(suffix) && body.utf8.count > suffix.utf8.count {
            return Form(role: role, pattern: "_<Catalog>" + suffix, catalog: body.dropLast(suffix.count))
        }
        let digits = body.reversed().prefix { $0.isASCII && $0.isNumber }.count
        if digits > 0 {
            let stem = body.dropLast(digits)
            for (word, role) in numberedWords where stem.hasSuffix(word) && stem.utf8.count > word.utf8.count {
                return Form(role: role, pattern: "_<Catalog>\(word)<N>", catalog: stem.dropLast(word.count))
            }
        }
        for role in ["", "Debug", "Release"] {
            let suffix = "_\(role)Default"
            guard body.hasSuffix(suffix), let separator = body.firstIndex(of: "_"), separator > body.startIndex,
                body.distance(from: separator, to: body.endIndex) > suffix.count
            else { continue }
            return Form(role: "the builder of a key's \(role.isEmpty ? "" : role.lowercased() + " ")default", pattern: "_<Catalog>_<key>\(suffix)", catalog: body[..<separator])
        }
        return nil
    }

    /// The form of `name` when it is one of the names the generated file declares, or could
    /// declare, for `catalog`; else `nil`.
    static func isDeclared(_ name: some StringProtocol, for catalog: String) -> Form? {
        guard let form = form(of: name), name.dropFirst().hasPrefix(catalog) else { return nil }
        if form.catalog == catalog { return form }
        // A default's builder, for a catalog whose name holds a `_`.
        return form.pattern.hasPrefix("_<Catalog>_<key>_") && name.dropFirst(1 + catalog.count).hasPrefix("_") ? form : nil
    }

    private static let fixedSuffixes = [
        ("BoundKey", "the property wrapper"), ("DeprecatedKeyDefinitions", "the alias of the deprecated keys' definitions"),
        ("Migrations", "the migration table"),
    ]
    private static let numberedWords = [("Migration", "the migration of a parameterized key"), ("Transform", "the forwarder of a migration transform")]
}
