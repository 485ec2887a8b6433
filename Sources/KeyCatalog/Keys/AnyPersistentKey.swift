/// Any key of a value type, erased: a ``PersistentKey``, a ``PersistentDebugKey`` or one of yours.
///
/// ```swift
/// let key = AnyPersistentKey(PersistentKey<Int>("LaunchCount", defaultValue: 0))
/// userDefaults.set(key, to: 3)
/// ```
///
/// What ``CatalogKey`` holds, so that a catalog key's type names only its value:
/// `CatalogKey<Int>`, whatever kind of key it binds. The key's parts are read once, when it is
/// erased (a debug key's store access is fixed by its build configuration then).
public struct AnyPersistentKey<Value: Sendable>: PersistentKeyProtocol {
    public let id: String
    public let defaultValue: Value
    public let representation: any PersistentKeyValueRepresentation<Value>
    public let isStoreAccessEnabled: Bool
    /// The key that was erased.
    public var base: any PersistentKeyProtocol<Value> {
        erased ?? PersistentKey(id, defaultValue: defaultValue, representation: representation)
    }

    /// The key that was erased, unless it is a ``PersistentKey``, which its parts above make
    /// again: that one would not fit in an existential's inline buffer, and erasing a key made
    /// for one read (a parameterized catalog accessor) would allocate a box for it and free it.
    @usableFromInline let erased: (any PersistentKeyProtocol<Value>)?

    /// `key`, erased.
    ///
    /// (Inlinable: specialized for the key's type, the check for an already erased key is
    /// decided where it is compiled, not by a dynamic cast at each call.)
    @inlinable
    public init<Key: PersistentKeyProtocol>(_ key: Key) where Key.Value == Value {
        if let key = key as? AnyPersistentKey<Value> {
            self = key
            return
        }
        id = key.id
        defaultValue = key.defaultValue
        representation = key.representation
        isStoreAccessEnabled = key.isStoreAccessEnabled
        erased = Key.self == PersistentKey<Value>.self ? nil : key
    }
}
