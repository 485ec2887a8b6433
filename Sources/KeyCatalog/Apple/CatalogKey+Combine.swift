#if canImport(Combine)
import Combine

extension CatalogKey {
    /// The key's current value, then its value after each change, as a Combine publisher over
    /// its declared store (see ``PersistentKeyValueStore/publisher(for:)``).
    ///
    /// ```swift
    /// keys.$theme.publisher.sink { theme in apply(theme) }
    /// ```
    public var publisher: AnyPublisher<Value, Never> {
        store.publisher(for: key)
    }
}
#endif
