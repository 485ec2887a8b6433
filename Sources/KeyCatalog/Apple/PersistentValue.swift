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
/// The store is read and observed once per view identity, not on every render. When the view is
/// re-created with another key (a parameterized key for another document) or another store (the
/// explicit one, else the environment's), it follows that one from then on.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@propertyWrapper
public struct PersistentValue<Key: PersistentKeyProtocol>: @preconcurrency DynamicProperty {
    @Environment(\.defaultPersistentKeyValueStore) private var environmentStore
    /// Kept by SwiftUI across renders; the boxes of later renders are dropped unused.
    @State private var box = _PersistentValueBox<Key>()
    private let key: Key
    private let explicitStore: AnyPersistentKeyValueStore?

    /// Follows `key` in `store`, or in the environment's store when `store` is `nil`.
    public init(_ key: Key, store: (any PersistentKeyValueStore)? = nil) {
        self.key = key
        explicitStore = store.map { AnyPersistentKeyValueStore($0) }
    }

    /// Binds the view's model to the current key and store; SwiftUI calls it before each render.
    public mutating func update() {
        _ = model
    }

    private var model: PersistentValueModel<Key> {
        box.model(for: key, explicitStore: explicitStore, environmentStore: environmentStore)
    }

    public var wrappedValue: Key.Value {
        get { model.value }
        nonmutating set { model.value = newValue }
    }

    public var projectedValue: Binding<Key.Value> {
        Bindable(model).value
    }
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

extension View {
    /// Sets the store that `@PersistentValue` properties in this view and its descendants use.
    ///
    /// ```swift
    /// SettingsView()
    ///     .defaultPersistentKeyValueStore(UserDefaults(suiteName: "group.com.example.app")!)
    /// ```
    public func defaultPersistentKeyValueStore(_ store: some PersistentKeyValueStore) -> some View {
        environment(\.defaultPersistentKeyValueStore, AnyPersistentKeyValueStore(store))
    }
}
#endif
