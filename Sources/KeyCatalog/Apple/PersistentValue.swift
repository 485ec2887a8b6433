#if canImport(SwiftUI)
import SwiftUI

/// A key's value in a SwiftUI view, kept current as the store changes.
///
/// ```swift
/// struct SettingsView: View {
///     @PersistentValue(.runtimeColorScheme)
///     var runtimeColorScheme
///
///     @PersistentValue(.isAppStoreRatingEnabled, store: UbiquitousKeyValueStore.default)
///     var isAppStoreRatingEnabled: Bool
///
///     var body: some View {
///         Toggle("Rate the app", isOn: $isAppStoreRatingEnabled)
///     }
/// }
/// ```
///
/// Without `store:`, it uses the environment's ``SwiftUI/EnvironmentValues/defaultPersistentKeyValueStore``,
/// `UserDefaults.standard` unless a view sets another with `.defaultPersistentKeyValueStore(_:)`.
///
/// With a generated catalog, name the key by its key path: the key's declared store is used, in
/// the catalog instance of the environment (the live one unless a view sets another with
/// `.keyCatalog(_:)`, as tests and previews do once for the whole tree):
///
/// ```swift
/// struct ThemePicker: View {
///     @PersistentValue(\AppKeys.$theme) var theme
///     var body: some View { Picker("Theme", selection: $theme) { … } }
/// }
///
/// #Preview { ThemePicker().keyCatalog(AppKeys(stores: .inMemory())) }
/// ```
///
/// The store is read and observed once per view identity, not on every render. When the view is
/// re-created with another key (a parameterized key for another document) or another store (the
/// explicit one, else the environment's), it follows that one from then on.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@propertyWrapper
public struct PersistentValue<Key: PersistentKeyProtocol>: @preconcurrency DynamicProperty {
    @Environment(\.defaultPersistentKeyValueStore) private var environmentStore
    @Environment(\.keyCatalogs) private var catalogs
    /// Kept by SwiftUI across renders; the boxes of later renders are dropped unused.
    @State private var box = _PersistentValueBox<Key>()
    private let source: Source

    private enum Source {
        case key(Key, explicitStore: AnyPersistentKeyValueStore?)
        case catalog(@Sendable (KeyCatalogs) -> (Key, AnyPersistentKeyValueStore))
    }

    /// Follows `key` in `store`, or in the environment's store when `store` is `nil`.
    public init(_ key: Key, store: (any PersistentKeyValueStore)? = nil) {
        source = .key(key, explicitStore: store.map { AnyPersistentKeyValueStore($0) })
    }

    /// Follows `key` in `store`: `@PersistentValue(.key, store: .ubiquitous)`.
    public init(_ key: Key, store: some PersistentKeyValueStore) {
        source = .key(key, explicitStore: AnyPersistentKeyValueStore(store))
    }

    /// Follows a catalog's key in its declared store, in the environment's catalog of that type.
    ///
    /// ```swift
    /// @PersistentValue(\AppKeys.$theme) var theme
    /// ```
    public init<Catalog: PersistentKeyCatalog, Value>(
        _ keyPath: KeyPath<Catalog, CatalogKey<Value>> & Sendable
    ) where Key == AnyPersistentKey<Value> {
        source = .catalog { catalogs in
            let key = catalogs.key(keyPath)
            return (key.key, key.store)
        }
    }

    /// Binds the view's model to the current key and store; SwiftUI calls it before each render.
    public mutating func update() {
        _ = model
    }

    private var model: PersistentValueModel<Key> {
        switch source {
        case .key(let key, let explicitStore):
            return box.model(for: key, explicitStore: explicitStore, environmentStore: environmentStore)
        case .catalog(let resolve):
            let (key, store) = resolve(catalogs)
            return box.model(for: key, explicitStore: store, environmentStore: environmentStore)
        }
    }

    public var wrappedValue: Key.Value {
        get { model.value }
        nonmutating set { model.value = newValue }
    }

    public var projectedValue: Binding<Key.Value> {
        Bindable(model).value
    }
}

private struct KeyCatalogsKey: EnvironmentKey {
    static let defaultValue = KeyCatalogs()
}

private struct DefaultPersistentKeyValueStoreKey: EnvironmentKey {
    static let defaultValue = AnyPersistentKeyValueStore.userDefaults()
}

extension EnvironmentValues {
    /// The store `@PersistentValue` uses when it names none: `UserDefaults.standard` by default.
    ///
    /// ```swift
    /// @Environment(\.defaultPersistentKeyValueStore) private var store
    /// ```
    public var defaultPersistentKeyValueStore: AnyPersistentKeyValueStore {
        get { self[DefaultPersistentKeyValueStoreKey.self] }
        set { self[DefaultPersistentKeyValueStoreKey.self] = newValue }
    }
}

extension EnvironmentValues {
    /// The catalogs `@PersistentValue(\Catalog.$key)` reads from: the live ones unless a view sets
    /// another with `.keyCatalog(_:)`.
    public var keyCatalogs: KeyCatalogs {
        get { self[KeyCatalogsKey.self] }
        set { self[KeyCatalogsKey.self] = newValue }
    }
}

extension View {
    /// Makes `@PersistentValue(\Catalog.$key)` properties in this view and its descendants use
    /// `catalog` (and its stores) for keys of its type.
    ///
    /// ```swift
    /// SettingsView()
    ///     .keyCatalog(AppKeys(stores: .inMemory()))   // previews and tests: nothing persists
    /// ```
    public func keyCatalog<Catalog: PersistentKeyCatalog>(_ catalog: Catalog) -> some View {
        modifier(KeyCatalogModifier(catalog: catalog))
    }

    /// Sets the store that `@PersistentValue` properties in this view and its descendants use.
    ///
    /// ```swift
    /// SettingsView()
    ///     .defaultPersistentKeyValueStore(UserDefaultsPersistence.suite(named: "group.com.example.app")!)
    /// ```
    public func defaultPersistentKeyValueStore(_ store: some PersistentKeyValueStore) -> some View {
        environment(\.defaultPersistentKeyValueStore, AnyPersistentKeyValueStore(store))
    }
}
/// Sets one catalog in the environment's catalogs, keeping the others.
private struct KeyCatalogModifier<Catalog: PersistentKeyCatalog>: ViewModifier {
    @Environment(\.keyCatalogs) private var catalogs
    let catalog: Catalog

    func body(content: Content) -> some View {
        var catalogs = catalogs
        catalogs[Catalog.self] = catalog
        return content.environment(\.keyCatalogs, catalogs)
    }
}
#endif
