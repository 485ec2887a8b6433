/// A key named like a member the generated catalog already has: `stores`, `entries`,
/// `register`, `reset`, `migrate`, `Stores`, `_DeprecatedKeyDefinitions`.
///
/// Each key becomes a member of the catalog (`Keys().launchCount`), so these names would not
/// compile, or would shadow the catalog's own member.
///
/// ```json
/// { "name": "reset", "type": "Bool", "default": false }
/// // error: key name 'reset' is also a member of the generated catalog 'Keys' ('Keys.reset'); rename the key, as in 'resetValue'
/// ```
struct CatalogMemberNameRule: LintRule {
    let id = "catalog-member-name"
    let summary = "A key name is also a member of the generated catalog."

    /// The members every generated catalog has (see `SwiftRenderer`).
    static let reservedNames: Set<String> = [
        "stores", "entries", "register", "reset", "migrate", "Stores", "_DeprecatedKeyDefinitions",
    ]

    func check(_ context: LintContext) -> [Diagnostic] {
        let catalog = context.root["catalog"]?.string ?? Catalog.defaultName
        return context.keys.compactMap { key in
            guard let value = key.value["name"], let name = value.string, Self.reservedNames.contains(name) else { return nil }
            return error(
                "key name '\(name)' is also a member of the generated catalog '\(catalog)' ('\(catalog).\(name)'); rename the key, as in '\(name)Value'",
                at: value.location
            )
        }
    }
}
