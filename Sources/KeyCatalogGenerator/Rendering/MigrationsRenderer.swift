/// Renders the catalog's migrations: the table of where keys' values used to live, `migrate()`,
/// which runs it against the catalog's stores, and a `migrate…(parameters)` function per
/// parameterized key with migrations.
///
/// ```swift
/// static var migrations: [KeyCatalog.KeyMigration] {
///     var migrations: [KeyCatalog.KeyMigration] = []
///     migrations.append(KeyCatalog.KeyMigration(
///         name: "theme",
///         key: KeyCatalog.PersistentKey<Theme>.theme,
///         store: "standard",
///         sources: [
///             // Write this function in your module (return nil to keep a value that does not convert):
///             //     func themeFromIndex(_ oldValue: Swift.Int) -> Theme?
///             KeyCatalog.KeyMigrationSource(fromKey: "ThemeIndex", store: "standard", representation: Swift.Int.persistentKeyValueRepresentation, transform: themeFromIndex),
///         ]
///     ))
///     return migrations
/// }
/// ```
struct MigrationsRenderer {
    let catalog: Catalog
    let access: String

    func render(into writer: inout CodeWriter) {
        let migrating = catalog.keys.filter { !$0.migrations.isEmpty }
        let table = migrating.filter { !$0.isParameterized }

        writer.line("/// Where keys' values used to live (the manifest's `migrations`), in manifest order.")
        writer.block("\(access) static var migrations: [KeyCatalog.KeyMigration] {") { writer in
            guard !table.isEmpty else {
                writer.line("[]")
                return
            }
            writer.line("var migrations: [KeyCatalog.KeyMigration] = []")
            writer.line("migrations.reserveCapacity(\(table.count))")
            for key in table {
                renderMigration(of: key, opening: "migrations.append(", closing: "))", into: &writer)
            }
            writer.line("return migrations")
        }
        writer.blank()
        writer.line("/// Moves values from where they used to live into their keys, never losing one: run it at")
        writer.line("/// launch, before reading keys. Running it again changes nothing; see `KeyCatalog.KeyMigrator`.")
        writer.block("\(access) func migrate() -> KeyCatalog.KeyMigrationReport {") { writer in
            writer.line("KeyCatalog.KeyMigrator.run(Self.migrations) { self.stores[$0] }")
        }

        for key in migrating where key.isParameterized {
            let name = SwiftSyntax.identifier("migrate" + SwiftSyntax.capitalized(key.name))
            writer.blank()
            writer.line("/// Runs the migrations of `\(key.name)` for one set of parameters.")
            writer.block("\(access) func \(name)(\(KeyAccessorRenderer.parameterList(of: key))) -> KeyCatalog.KeyMigrationReport {") { writer in
                renderMigration(of: key, opening: "let migration = ", closing: ")", into: &writer)
                writer.line("return KeyCatalog.KeyMigrator.run([migration]) { self.stores[$0] }")
            }
        }
    }

    private func renderMigration(of key: KeyDeclaration, opening: String, closing: String, into writer: inout CodeWriter) {
        let keyExpression = self.keyExpression(key)
        writer.line("\(opening)KeyCatalog.KeyMigration(")
        writer.indented { writer in
            writer.line("name: \(SwiftSyntax.stringLiteral(key.name)),")
            writer.line("key: \(keyExpression),")
            writer.line("store: \(SwiftSyntax.stringLiteral(key.store)),")
            writer.line("sources: [")
            writer.indented { writer in
                for migration in key.migrations {
                    renderSource(migration, of: key, keyExpression: keyExpression, into: &writer)
                }
            }
            writer.line("]")
        }
        writer.line(closing)
    }

    private func renderSource(_ migration: MigrationDeclaration, of key: KeyDeclaration, keyExpression: String, into writer: inout CodeWriter) {
        var arguments = [
            "fromKey: \(storageKeyLiteral(migration.fromKey, of: key))",
            "store: \(SwiftSyntax.stringLiteral(migration.fromStore))",
        ]
        let fromType = migration.fromType ?? key.type
        // Without `fromType` the source is stored as the key stores its values: through the key's
        // own representation unless `fromRepresentation` names another. With it, through
        // `fromRepresentation` or the old type's usual one.
        let representation = migration.fromType == nil
            ? migration.fromRepresentation ?? key.representation
            : migration.fromRepresentation
        switch (migration.transform, migration.fromType, migration.fromRepresentation) {
        case (nil, nil, nil):
            // A rename or a store move: the value is stored as the key stores it.
            arguments.append("representationOf: \(keyExpression)")
        case (nil, _, _):
            arguments.append("representation: \(Self.representationExpression(representation, for: fromType))")
        case (let transform?, _, _):
            writer.line("// Write this function in your module (return nil to keep a value that does not convert):")
            writer.line("//     func \(transform)(_ oldValue: \(SwiftTypes.name(of: fromType))) -> \(SwiftTypes.name(of: key.type))?")
            arguments.append("representation: \(Self.representationExpression(representation, for: fromType))")
            arguments.append("transform: \(transform)")
        }
        writer.line("KeyCatalog.KeyMigrationSource(\(arguments.joined(separator: ", "))),")
    }

    /// The key, from where the registration table takes it (deprecated keys without warnings).
    private func keyExpression(_ key: KeyDeclaration) -> String {
        let owner = key.deprecated != nil ? KeyAccessorRenderer.deprecatedDefinitionsName : SwiftTypes.keyType(of: key)
        return "\(owner).\(KeyAccessorRenderer.reference(to: key))"
    }

    /// An old storage key as a literal; its placeholders are the key's parameters.
    private func storageKeyLiteral(_ template: StorageKeyTemplate, of key: KeyDeclaration) -> String {
        var old = key
        old.storageKey = template
        return KeyAccessorRenderer.storageKeyLiteral(of: old)
    }

    /// A complete representation expression for `type`: the named representation (wrapped for an
    /// optional) or the type's own, `Swift.Int.persistentKeyValueRepresentation`.
    static func representationExpression(_ representation: Representation?, for type: ValueType) -> String {
        guard let named = SwiftTypes.representation(representation, for: type) else {
            return "\(expressionTypeName(of: type)).persistentKeyValueRepresentation"
        }
        return type.isOptional ? "KeyCatalog.OptionalPersistentKeyValueRepresentation(wrapping: \(named))" : named
    }

    /// A type spelled so it can start an expression: `Swift.Optional<Foundation.Date>`, not `Foundation.Date?`.
    static func expressionTypeName(of type: ValueType) -> String {
        switch type {
        case .optional(let wrapped): "Swift.Optional<\(expressionTypeName(of: wrapped))>"
        case .array(let element): "Swift.Array<\(expressionTypeName(of: element))>"
        case .dictionary(let value): "Swift.Dictionary<Swift.String, \(expressionTypeName(of: value))>"
        default: SwiftTypes.name(of: type)
        }
    }
}
