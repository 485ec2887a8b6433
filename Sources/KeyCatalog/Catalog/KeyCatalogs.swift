/// The catalog instances a SwiftUI view tree uses, one per catalog type: what
/// `@PersistentValue(\AppKeys.$theme)` reads its catalog from, and what `.keyCatalog(_:)` replaces
/// for a subtree. Portable, so Linux tests exercise it.
///
/// ```swift
/// var catalogs = KeyCatalogs()
/// catalogs[AppKeys.self].theme            // the live catalog: AppKeys()
/// catalogs[AppKeys.self] = AppKeys(stores: .inMemory())
/// catalogs.key(\AppKeys.$theme).value      // now in memory
/// ```
///
/// A catalog type not set here is its live catalog (`Catalog()`), made once per process and type.
public struct KeyCatalogs: Sendable {
    private var catalogs: [ObjectIdentifier: any PersistentKeyCatalog] = [:]

    /// No catalog set: every type gives its live catalog.
    public init() {}

    /// The catalog of this type: the one set, else the live one.
    public subscript<Catalog: PersistentKeyCatalog>(_ type: Catalog.Type) -> Catalog {
        get { catalogs[ObjectIdentifier(type)] as? Catalog ?? Self.live(type) }
        set { catalogs[ObjectIdentifier(type)] = newValue }
    }

    /// The key at `keyPath` in this type's catalog, bound to its store there.
    public func key<Catalog: PersistentKeyCatalog, Value>(_ keyPath: KeyPath<Catalog, CatalogKey<Value>>) -> CatalogKey<Value> {
        self[Catalog.self][keyPath: keyPath]
    }

    private static let liveCatalogs = _Locked<[ObjectIdentifier: any PersistentKeyCatalog]>([:])

    /// One live catalog per type, so a view's re-render does not reopen the stores.
    private static func live<Catalog: PersistentKeyCatalog>(_ type: Catalog.Type) -> Catalog {
        if let catalog = liveCatalogs.withLock({ $0[ObjectIdentifier(type)] }) as? Catalog { return catalog }
        let catalog = Catalog()  // outside the lock: opening stores may report failures
        return liveCatalogs.withLock { catalogs in
            if let existing = catalogs[ObjectIdentifier(type)] as? Catalog { return existing }
            catalogs[ObjectIdentifier(type)] = catalog
            return catalog
        }
    }
}
