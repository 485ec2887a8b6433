/// A typed key: where a value lives in a store, its default, and how it is represented.
///
/// ``PersistentKey`` and ``PersistentDebugKey`` conform. Declare keys as static members
/// constrained on `Self`, so that call sites read `store.get(.launchCount)`:
///
/// ```swift
/// extension PersistentKeyProtocol where Self == PersistentKey<Int> {
///     static var launchCount: Self {
///         Self("LaunchCount", defaultValue: 0)
///     }
/// }
/// ```
public protocol PersistentKeyProtocol<Value>: Sendable {
    /// The type of the key's value.
    associatedtype Value: Sendable

    /// The storage key, as the store sees it.
    var id: String { get }

    /// What reading the key gives when the store holds no value for it, or one that does not decode.
    var defaultValue: Value { get }

    /// How the value is stored.
    var representation: any PersistentKeyValueRepresentation<Value> { get }

    /// Whether reads and writes reach the store; `false` for a debug key in a Release build,
    /// whose reads give the default and whose writes are ignored.
    var isStoreAccessEnabled: Bool { get }
}

extension PersistentKeyProtocol {
    @inlinable
    public var isStoreAccessEnabled: Bool { true }
}
