/// Renders the catalog's migrations: the table of where keys' values used to live, `migrate()`,
/// which runs it against the catalog's stores, and a `migrate…(parameters)` function per
/// parameterized key with migrations.
///
/// The table itself is built at file scope, outside the catalog, so that the names it holds (old
/// types, transforms) mean there what they mean in the client's module: inside the catalog a key
/// named `Theme` or `percent`, or a member such as `entries`, would hide them. Each transform is
/// called through a private `@Sendable` forwarder, so any function the client writes converts
/// without a Sendable warning in Swift 5 and Swift 6 modes.
///
/// ```swift
/// internal static var migrations: [KeyCatalog.KeyMigration] {
///     _AppKeysMigrations()
/// }
///
/// private func _AppKeysMigrations() -> [KeyCatalog.KeyMigration] {
///     var migrations: [KeyCatalog.KeyMigration] = []
///     migrations.append(KeyCatalog.KeyMigration(
///         name: "theme",
///         key: KeyCatalog.PersistentKey<Theme>.theme,
///         store: "standard",
///         sources: [
///             KeyCatalog.KeyMigrationSource(fromKey: "ThemeIndex", store: "standard", representation: Swift.Int.persistentKeyValueRepresentation, transform: _AppKeysTransform0),
///         ]
///     ))
///     return migrations
/// }
///
/// // Write this function in your module (return nil to keep a value that does not convert):
/// //     func themeFromIndex(_ oldValue: Swift.Int) -> Theme?
/// @Sendable private func _AppKeysTransform0(_ oldValue: Swift.Int) -> Theme? {
///     themeFromIndex(oldValue)
/// }
/// ```
struct MigrationsRenderer {
    let catalog: Catalog
    let access: String

    /// The keys with migrations, in manifest order.
    private var migrating: [KeyDeclaration] { catalog.keys.filter { !$0.migrations.isEmpty } }

    /// The members inside the catalog: the table, `migrate()`, and `migrate…(parameters)`.
    func render(into writer: inout CodeWriter) {
        let migrating = self.migrating
        let hasTable = migrating.contains { !$0.isParameterized }

        writer.line("/// Where keys' values used to live (the manifest's `migrations`), in manifest order.")
        writer.block("nonisolated \(access) static var migrations: [KeyCatalog.KeyMigration] {") { writer in
            writer.line(hasTable ? "\(FileScopeNames.migrations(catalog: catalog.name))()" : "[]")
        }
        writer.blank()
        writer.line("/// Moves values from where they used to live into their keys, never losing one: run it at")
        writer.line("/// launch, before reading keys. Running it again changes nothing; see `KeyCatalog.KeyMigrator`.")
        writer.block("nonisolated \(access) func migrate() -> KeyCatalog.KeyMigrationReport {") { writer in
            writer.line("KeyCatalog.KeyMigrator.run(Self.migrations) { self.stores[$0] }")
        }

        for (index, key) in migrating.enumerated() where key.isParameterized {
            let name = SwiftSyntax.identifier("migrate" + SwiftSyntax.capitalized(key.name))
            let arguments = key.parameters.map { "\(SwiftSyntax.argumentLabel($0.name)): \(SwiftSyntax.identifier($0.name))" }
            writer.blank()
            writer.line("/// Runs the migrations of `\(key.name)` for one set of parameters.")
            writer.block("nonisolated \(access) func \(name)(\(KeyAccessorRenderer.parameterList(of: key))) -> KeyCatalog.KeyMigrationReport {") { writer in
                writer.line("KeyCatalog.KeyMigrator.run([\(FileScopeNames.migration(catalog: catalog.name, index: index))(\(arguments.joined(separator: ", ")))]) { self.stores[$0] }")
            }
        }
    }

    /// The table's builders and the transforms' forwarders, at file scope after the catalog;
    /// nothing when no key migrates.
    func renderFileScope(into writer: inout CodeWriter) {
        let migrating = self.migrating
        guard !migrating.isEmpty else { return }
        var forwarders = Forwarders(catalog: catalog.name)
        writer.blank()
        writer.line("// MARK: - Migrations of \(SwiftSyntax.identifier(catalog.name))")
        let table = migrating.filter { !$0.isParameterized }
        if !table.isEmpty {
            writer.blank()
            writer.line("/// `\(SwiftSyntax.identifier(catalog.name)).migrations`, built outside the catalog so its members cannot hide the names it uses.")
            writer.block("nonisolated private func \(FileScopeNames.migrations(catalog: catalog.name))() -> [KeyCatalog.KeyMigration] {") { writer in
                writer.line("var migrations: [KeyCatalog.KeyMigration] = []")
                writer.line("migrations.reserveCapacity(\(table.count))")
                for key in table {
                    renderMigration(of: key, opening: "migrations.append(", closing: "))", forwarders: &forwarders, into: &writer)
                }
                writer.line("return migrations")
            }
        }
        for (index, key) in migrating.enumerated() where key.isParameterized {
            writer.blank()
            writer.line("/// The migration of `\(key.name)` for one set of parameters.")
            writer.block("nonisolated private func \(FileScopeNames.migration(catalog: catalog.name, index: index))(\(KeyAccessorRenderer.parameterList(of: key))) -> KeyCatalog.KeyMigration {") { writer in
                renderMigration(of: key, opening: "", closing: ")", forwarders: &forwarders, into: &writer)
            }
        }
        for forwarder in forwarders.all {
            writer.blank()
            writer.line("// Write this function in your module (return nil to keep a value that does not convert):")
            writer.line("//     func \(forwarder.transform)(_ oldValue: \(forwarder.oldType)) -> \(forwarder.newType)")
            let parameter = CatalogRenderer.unusedName("oldValue", avoiding: [forwarder.firstComponent])
            writer.block("@Sendable nonisolated private func \(forwarder.name)(_ \(parameter): \(forwarder.oldType)) -> \(forwarder.newType) {") { writer in
                writer.line("\(forwarder.call)(\(parameter))")
            }
        }
    }

    /// One private function per distinct transform and signature, calling the client's.
    private struct Forwarders {
        struct Forwarder {
            var name: String
            var transform: String
            var call: String
            var firstComponent: String
            var oldType: String
            var newType: String
        }

        let catalog: String
        private(set) var all: [Forwarder] = []
        private var indices: [String: Int] = [:]

        init(catalog: String) { self.catalog = catalog }

        /// The forwarder's name for `transform` from `oldType` to `newType`, made on first use.
        mutating func name(for transform: String, from oldType: ValueType, to newType: ValueType) -> String {
            let old = SwiftTypes.name(of: oldType)
            let new = SwiftTypes.name(of: newType) + "?"
            let signature = transform + "\u{0}" + old + "\u{0}" + new
            if let index = indices[signature] { return all[index].name }
            let components = MigrationsRenderer.components(of: transform)
            let forwarder = Forwarder(
                name: FileScopeNames.transform(catalog: catalog, index: all.count),
                transform: transform,
                call: components.map(SwiftSyntax.identifier).joined(separator: "."),
                firstComponent: components.first ?? transform,
                oldType: old,
                newType: new
            )
            indices[signature] = all.count
            all.append(forwarder)
            return forwarder.name
        }
    }

    /// `Theme.fromIndex` -> `["Theme", "fromIndex"]`; backticks the manifest wrote are dropped
    /// (the renderer escapes keywords itself).
    static func components(of transform: String) -> [String] {
        transform.split(separator: ".", omittingEmptySubsequences: false).map { part in
            part.count >= 2 && part.first == "`" && part.last == "`" ? String(part.dropFirst().dropLast()) : String(part)
        }
    }

    private func renderMigration(of key: KeyDeclaration, opening: String, closing: String, forwarders: inout Forwarders, into writer: inout CodeWriter) {
        let keyExpression = self.keyExpression(key)
        writer.line("\(opening)KeyCatalog.KeyMigration(")
        writer.indented { writer in
            writer.line("name: \(SwiftSyntax.stringLiteral(key.name)),")
            writer.line("key: \(keyExpression),")
            writer.line("store: \(SwiftSyntax.stringLiteral(key.store)),")
            writer.line("sources: [")
            writer.indented { writer in
                for migration in key.migrations {
                    renderSource(migration, of: key, keyExpression: keyExpression, forwarders: &forwarders, into: &writer)
                }
            }
            writer.line("]")
        }
        writer.line(closing)
    }

    private func renderSource(_ migration: MigrationDeclaration, of key: KeyDeclaration, keyExpression: String, forwarders: inout Forwarders, into writer: inout CodeWriter) {
        var arguments = [
            "fromKey: \(storageKeyLiteral(migration.fromKey, of: key))",
            "store: \(SwiftSyntax.stringLiteral(migration.fromStore))",
        ]
        let fromType = migration.fromType ?? key.type
        // The key's parameters are in scope here (its migration function's): a type named like one
        // is spelled where only types are looked up.
        let parameters = Set(key.parameters.map(\.name))
        // Without `fromType` the source is stored as the key stores its values: through the key's
        // own representation unless `fromRepresentation` names another. With it, through
        // `fromRepresentation` or the old type's usual one.
        let representation =
            migration.fromType == nil
            ? migration.fromRepresentation ?? key.representation
            : migration.fromRepresentation
        switch (migration.transform, migration.fromType, migration.fromRepresentation) {
        case (nil, nil, nil):
            // A rename or a store move: the value is stored as the key stores it.
            arguments.append("representationOf: \(keyExpression)")
        case (nil, _, _):
            arguments.append("representation: \(Self.representationExpression(representation, for: fromType, hiddenBy: parameters))")
        case (let transform?, _, _):
            arguments.append("representation: \(Self.representationExpression(representation, for: fromType, hiddenBy: parameters))")
            arguments.append("transform: \(forwarders.name(for: transform, from: fromType, to: key.type))")
        }
        writer.line("KeyCatalog.KeyMigrationSource(\(arguments.joined(separator: ", "))),")
    }

    /// The key, from where the registration table takes it (deprecated keys without warnings,
    /// through the file-scope alias: a parameter named like the catalog would hide its name).
    private func keyExpression(_ key: KeyDeclaration) -> String {
        let owner = key.deprecated != nil ? KeyAccessorRenderer.deprecatedAlias(of: catalog) : SwiftTypes.keyType(of: key)
        return "\(owner).\(KeyAccessorRenderer.reference(to: key))"
    }

    /// An old storage key as a literal; its placeholders are the key's parameters.
    private func storageKeyLiteral(_ template: StorageKeyTemplate, of key: KeyDeclaration) -> String {
        var old = key
        old.storageKey = template
        return KeyAccessorRenderer.storageKeyLiteral(of: old)
    }

    /// A complete representation expression for `type`: the named representation (wrapped for an
    /// optional) or the type's own, `Swift.Int.persistentKeyValueRepresentation`. `hidden`: the
    /// names in scope that are not types (``expressionTypeName(of:hiddenBy:)``).
    static func representationExpression(_ representation: Representation?, for type: ValueType, hiddenBy hidden: Set<String> = []) -> String {
        guard let named = SwiftTypes.representation(representation, for: type) else {
            return "\(expressionTypeName(of: type, hiddenBy: hidden)).persistentKeyValueRepresentation"
        }
        return type.isOptional ? "KeyCatalog.OptionalPersistentKeyValueRepresentation(wrapping: \(named))" : named
    }

    /// A type spelled so it can start an expression: `Swift.Optional<Foundation.Date>`, not
    /// `Foundation.Date?`. A type whose name starts with one of `hidden` (a parameter's name, which
    /// an expression would find first) is named as a generic argument, where only types are looked
    /// up: `Swift.Array<Theme>.Element`.
    static func expressionTypeName(of type: ValueType, hiddenBy hidden: Set<String> = []) -> String {
        switch type {
        case .optional(let wrapped): "Swift.Optional<\(expressionTypeName(of: wrapped))>"
        case .array(let element): "Swift.Array<\(expressionTypeName(of: element))>"
        case .dictionary(let value): "Swift.Dictionary<Swift.String, \(expressionTypeName(of: value))>"
        default: hiddenFirstName(of: type, by: hidden) ? "Swift.Array<\(SwiftTypes.name(of: type))>.Element" : SwiftTypes.name(of: type)
        }
    }

    /// Whether the first name of `type`'s spelling (`MyApp` in `MyApp.Layout`, `Box` in
    /// `Box<Int>` and `Box<A.B>`) is one of `hidden`, compared by Unicode scalars as Swift does.
    private static func hiddenFirstName(of type: ValueType, by hidden: Set<String>) -> Bool {
        guard !hidden.isEmpty, let first = leadingName(of: SwiftTypes.name(of: type)) else { return false }
        return hidden.contains { $0.isSameIdentifier(as: first) }
    }

    /// The name a type's spelling starts with, which an expression looks up first: `MyApp` in
    /// `MyApp.Layout`, `Box` in `Box<Int>`, `Box<A.B>`, `Box?` and `Box[…]`, `default` in
    /// `` `default`.Inner `` (backticks dropped); `nil` when it starts with no name (`[Int]`).
    static func leadingName(of type: String) -> String? {
        let scalars = type.unicodeScalars
        if scalars.first == "`" {
            let rest = scalars.dropFirst()
            guard let close = rest.firstIndex(of: "`"), close > rest.startIndex else { return nil }
            return String(rest[rest.startIndex..<close])
        }
        let name = scalars.prefix { SwiftIdentifier.isCharacter($0) }
        guard let head = name.first, SwiftIdentifier.isHead(head) else { return nil }
        return String(name)
    }
}
