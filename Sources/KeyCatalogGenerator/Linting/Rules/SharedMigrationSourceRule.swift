/// A migration source that another migration also names, or that is a declared key's own storage
/// key: the migrator moves a source's value into the first key that asks and removes it, so a
/// second key never gets it, and a declared key's value would be moved out of it at every launch
/// while the migrating key is empty. Stores compare by what they open, not by their names
/// (``StoreIdentities``): a source in a store named `defaults` that opens `UserDefaults.standard`
/// is the storage key of a key in `standard`.
///
/// ```json
/// { "name": "a", "type": "Int", "default": 0, "migrations": [{ "fromKey": "old" }] },
/// { "name": "b", "type": "Int", "default": 0, "migrations": [{ "fromKey": "old" }] }
/// // warning: key 'b' migrates from 'old' in store 'standard', which key 'a' (3:60) migrates from too: …
/// { "name": "c", "type": "Int", "default": 0, "migrations": [{ "fromKey": "a" }] }
/// // error: key 'c' migrates from 'a' in store 'standard', the storage key of key 'a' (3:14): …
/// ```
struct SharedMigrationSourceRule: LintRule {
    let id = "shared-migration-source"
    let summary = "A migration source is another migration's source, or a declared key's storage key (in one store, however named)."

    func check(_ context: LintContext) -> [Diagnostic] {
        // The migrations first: most keys have none, so only their sources' names are looked
        // up among the storage keys (not every storage key indexed: 3,000 instructions a key).
        let stores = context.storeIdentities
        var migrations: [(key: LintContext.Key, fromKey: JSONValue, name: String, store: String, storeID: String)] = []
        var names: Set<String> = []
        for key in context.keys {
            guard let elements = key.value["migrations"]?.elements, !elements.isEmpty else { continue }
            let ownStorageKey = key.validStorageKey?.text
            for migration in elements {
                guard let fromKey = migration["fromKey"], let name = fromKey.string, !name.isEmpty else { continue }
                let store = migration["fromStore"]?.string ?? key.store
                let storeID = stores.id(of: store)
                // A change of type or representation in place is the key's own value.
                if name == ownStorageKey, storeID == stores.id(of: key.store) { continue }
                migrations.append((key, fromKey, name, store, storeID))
                names.insert(name)
            }
        }
        guard !migrations.isEmpty else { return [] }
        var storageKeys: [String: [String: (label: String, location: SourceLocation, store: String)]] = [:]
        for key in context.keys {
            guard let template = key.validStorageKey, template.isLiteral, names.contains(template.text) else { continue }
            let storeID = stores.id(of: key.store)
            if storageKeys[storeID]?[template.text] == nil {
                storageKeys[storeID, default: [:]][template.text] = (key.label, key.storageKeyLocation, key.store)
            }
        }
        var findings: [Diagnostic] = []
        var sources: [String: [String: (label: String, location: SourceLocation, store: String)]] = [:]
        for (key, fromKey, name, store, storeID) in migrations {
            let quoted = "'\(name.truncatedForMessage)' in store '\(store)'"
            /// Where the other key is, when its store has another name.
            func elsewhere(_ other: String) -> String { other == store ? "" : " " + stores.inStore(other, alsoOpenedBy: store) }
            if let owner = storageKeys[storeID]?[name] {
                findings.append(
                    error(
                        "\(key.label) migrates from \(quoted), the storage key of \(owner.label) (\(owner.location.line):\(owner.location.column))\(elsewhere(owner.store)): its value would be moved out of it at every launch while \(key.label) is empty; migrate from a key no longer declared",
                        at: fromKey.location
                    )
                )
            } else if let first = sources[storeID]?[name] {
                // A warning: the second key only misses the value; nothing is lost.
                findings.append(
                    warning(
                        "\(key.label) migrates from \(quoted), which \(first.label) (\(first.location.line):\(first.location.column)) migrates from too\(elsewhere(first.store)): the first key takes the value and removes it, and this one never gets it; keep one of the two migrations",
                        at: fromKey.location
                    )
                )
            } else {
                sources[storeID, default: [:]][name] = (key.label, fromKey.location, store)
            }
        }
        return findings + overlaps(context, migrations.map { ($0.key, $0.fromKey, $0.name, $0.store, $0.storeID) })
    }

    /// Found by a review: a source that a parameterized key's template can spell (`doc-legacy`
    /// against `doc-{id}`), or a parameterized source that can spell a key's storage key (`t{id}`
    /// against `tdark`), moved a live value out of that key when the migration ran. A warning, as
    /// for two storage keys that can meet (`duplicate-storage-key`): whether they meet depends on
    /// the parameter values.
    private func overlaps(
        _ context: LintContext, _ migrations: [(key: LintContext.Key, fromKey: JSONValue, name: String, store: String, storeID: String)]
    ) -> [Diagnostic] {
        let stores = context.storeIdentities
        var findings: [Diagnostic] = []
        // The parameterized keys, by store; every key, only once a source is parameterized.
        let parameterized = migrations.contains { $0.name.contains("{") }
        var keys: [String: [(key: LintContext.Key, template: StorageKeyTemplate)]] = [:]
        for key in context.keys {
            guard let template = key.validStorageKey, !template.text.isEmpty, parameterized || !template.isLiteral else { continue }
            keys[stores.id(of: key.store), default: []].append((key, template))
        }
        guard !keys.isEmpty else { return [] }
        for (migrating, fromKey, name, store, storeID) in migrations {
            guard let source = try? StorageKeyParser.parse(name).get() else { continue }
            let sourcePattern = StorageKeyPattern(source, parameterTypes: migrating.parameterTypes)
            for (key, template) in keys[storeID] ?? [] where !(source.isLiteral && template.isLiteral) {
                // The key's own storage key, in place, is a change of type or representation.
                if key.index == migrating.index, source.text == template.text { continue }
                if source.isLiteral ? !Self.canSpell(template, source.text) : template.isLiteral && !Self.canSpell(source, template.text) { continue }
                guard let spelling = StorageKeyPattern(template, parameterTypes: key.parameterTypes).commonSpelling(with: sourcePattern) else {
                    continue
                }
                let when = (spelling.values + spelling.otherValues).map { "\($0.name) is '\($0.value)'" }.joined(separator: " and ")
                findings.append(
                    warning(
                        "\(migrating.label) migrates from '\(name.truncatedForMessage)' in store '\(store)', which is also the storage key of \(key.label) (\(key.storageKeyLocation.line):\(key.storageKeyLocation.column))\(key.store == store ? "" : " " + stores.inStore(key.store, alsoOpenedBy: store)) when \(when) ('\(spelling.text.truncatedForMessage)'): the migration would move that key's value out of it; change the source or the storage key so they cannot meet",
                        at: fromKey.location
                    ))
            }
        }
        return findings
    }

    /// Whether `template`'s fixed ends allow it to spell `text`: a cheap test before the pattern's
    /// (most keys of a store start or end otherwise). By scalar, as stores compare keys.
    private static func canSpell(_ template: StorageKeyTemplate, _ text: String) -> Bool {
        let scalars = text.unicodeScalars
        if case .literal(let head)? = template.segments.first, !scalars.starts(with: head.unicodeScalars) { return false }
        if case .literal(let tail)? = template.segments.last, !scalars.reversed().starts(with: tail.unicodeScalars.reversed()) { return false }
        return true
    }
}
