/// A validated manifest: what the renderer consumes.
///
/// A `Catalog` only exists for a manifest without errors; ``ManifestLoader`` builds it.
/// Every name it holds is resolved: each key's store names a store in ``stores``, each
/// ``ValueType/declaredEnum(_:)`` names an enum in ``types``.
///
/// ```swift
/// let (catalog, diagnostics) = ManifestLoader.load(contents: bytes, path: "keys.json")
/// for key in catalog?.keys ?? [] {
///     print(key.name, key.storageKey.text, key.type)
/// }
/// ```
public struct Catalog: Sendable, Equatable {
    /// The manifest format version; always 1 today.
    public var version: Int
    /// The generated namespace, a Swift identifier (`catalog` in the manifest, `Keys` if absent).
    public var name: String
    /// The access level of the generated declarations.
    public var access: AccessLevel
    /// The modules the generated file imports besides Foundation and KeyCatalog (`imports`), for
    /// the keys' types declared in them.
    public var imports: [String]
    /// The store keys use when they name none (`defaultStore`, `standard` if absent).
    public var defaultStore: String
    /// The implicit `standard` store first, then the declared stores in manifest order.
    public var stores: [StoreDeclaration]
    /// The declared enums, in manifest order.
    public var types: [EnumDeclaration]
    /// The keys, in manifest order.
    public var keys: [KeyDeclaration]
    /// Where the manifest's top-level object starts.
    public var location: SourceLocation

    /// Creates a catalog.
    public init(
        version: Int = 1,
        name: String = Catalog.defaultName,
        access: AccessLevel = .internal,
        imports: [String] = [],
        defaultStore: String = StoreDeclaration.standardName,
        stores: [StoreDeclaration] = [.standard()],
        types: [EnumDeclaration] = [],
        keys: [KeyDeclaration] = [],
        location: SourceLocation
    ) {
        self.version = version
        self.name = name
        self.access = access
        self.imports = imports
        self.defaultStore = defaultStore
        self.stores = stores
        self.types = types
        self.keys = keys
        self.location = location
    }

    /// The namespace name when the manifest gives no `catalog`: `Keys`.
    public static let defaultName = "Keys"

    /// The store with this name, if declared (or `standard`).
    public func store(named name: String) -> StoreDeclaration? {
        stores.first { $0.name == name }
    }

    /// The enum with this name, if declared.
    public func type(named name: String) -> EnumDeclaration? {
        types.first { $0.name == name }
    }

    /// The keys that live in the store with this name, in manifest order.
    public func keys(in storeName: String) -> [KeyDeclaration] {
        keys.filter { $0.store == storeName }
    }
}
