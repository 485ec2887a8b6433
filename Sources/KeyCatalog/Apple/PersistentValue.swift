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
/// }
/// ```
///
/// Without `store:`, it uses the environment's ``SwiftUI/EnvironmentValues/defaultPersistentKeyValueStore``,
/// `UserDefaults.standard` unless a view sets another with `.defaultPersistentKeyValueStore(_:)`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@propertyWrapper
public struct PersistentValue<Key: PersistentKeyProtocol>: DynamicProperty {
    @Environment(\.defaultPersistentKeyValueStore) private var environmentStore
    @State private var model: PersistentValueModel<Key>
    private let usesEnvironmentStore: Bool

    public init(_ key: Key, store: (any PersistentKeyValueStore)? = nil) {
        usesEnvironmentStore = store == nil
        _model = State(initialValue: PersistentValueModel(key, store: store.map(AnyPersistentKeyValueStore.init) ?? .userDefaults()))
    }

    public func update() {
        if usesEnvironmentStore { model.use(environmentStore) }
    }

    public var wrappedValue: Key.Value {
        get { model.value }
        nonmutating set { model.value = newValue }
    }

    public var projectedValue: Binding<Key.Value> {
        Binding(get: { model.value }, set: { model.value = $0 })
    }
}

private struct DefaultPersistentKeyValueStoreKey: EnvironmentKey {
    static let defaultValue = AnyPersistentKeyValueStore.userDefaults()
}

extension EnvironmentValues {
    /// The store `@PersistentValue` uses when it names none: `UserDefaults.standard` by default.
    public var defaultPersistentKeyValueStore: AnyPersistentKeyValueStore {
        get { self[DefaultPersistentKeyValueStoreKey.self] }
        set { self[DefaultPersistentKeyValueStoreKey.self] = newValue }
    }
}

extension View {
    /// Sets the store that `@PersistentValue` properties in this view and its descendants use.
    public func defaultPersistentKeyValueStore(_ store: some PersistentKeyValueStore) -> some View {
        environment(\.defaultPersistentKeyValueStore, AnyPersistentKeyValueStore(store))
    }
}
#endif
