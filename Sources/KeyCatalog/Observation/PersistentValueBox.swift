/// The state behind SwiftUI's `@PersistentValue`: holds one ``PersistentValueModel``, created on
/// first use, and keeps it bound to the view's current key and store. Portable, so that Linux tests
/// exercise it.
///
/// SwiftUI re-creates a view's struct on every render of its parent, but keeps the first value of
/// its `@State`; so the wrapper keeps a box there (cheap to create: no store is read, nothing is
/// observed) and asks it for the model on each `update()`:
///
/// - the first call creates the model;
/// - a call with the same key and store returns the same model, untouched;
/// - a different key (another id, another default, a debug key in another configuration, another
///   representation) makes a new model: a view re-created for another document shows that
///   document's value;
/// - a different store (the explicit one when given, else the environment's; compared by object
///   identity) switches the model to it.
///
/// ```swift
/// let box = _PersistentValueBox<PersistentKey<Int>>()
/// let model = box.model(for: .launchCount, explicitStore: nil, environmentStore: .userDefaults())
/// ```
///
/// The underscore: the machinery of the SwiftUI adapter, public for tests.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
public final class _PersistentValueBox<Key: PersistentKeyProtocol> {
    private var current: PersistentValueModel<Key>?

    /// An empty box; the model is created by the first ``model(for:explicitStore:environmentStore:)``.
    public init() {}

    /// The model for `key` in `explicitStore`, or else in `environmentStore`: the box's model,
    /// created or rebound as needed.
    public func model(
        for key: Key,
        explicitStore: AnyPersistentKeyValueStore?,
        environmentStore: AnyPersistentKeyValueStore
    ) -> PersistentValueModel<Key> {
        let store = explicitStore ?? environmentStore
        if let current, _isSameKey(current.key, key) {
            if current.store.base !== store.base {
                current.use(store)
            }
            return current
        }
        let model = PersistentValueModel(key, store: store)
        current = model
        return model
    }
}

/// Whether two keys of one type read and write alike: same id, same store access, same
/// representation type, and (where they are `Equatable`) equal defaults and representations.
/// Values that cannot be compared count as equal, so that a view's re-render keeps its model.
func _isSameKey<Key: PersistentKeyProtocol>(_ lhs: Key, _ rhs: Key) -> Bool {
    guard lhs.id == rhs.id, lhs.isStoreAccessEnabled == rhs.isStoreAccessEnabled,
        type(of: lhs.representation) == type(of: rhs.representation)
    else { return false }
    return _isSameDefault(lhs, rhs) && (_equalIfEquatable(lhs.representation, rhs.representation) ?? true)
}

/// Whether two keys' defaults are the same: equal, or storing the same value, where a NaN is
/// the same as a NaN. With `==` alone, a key whose default holds a NaN was a new key on every
/// render (found by a review). Defaults that `==` calls different (another key's, or one holding
/// a NaN) are encoded to be compared.
private func _isSameDefault<Key: PersistentKeyProtocol>(_ lhs: Key, _ rhs: Key) -> Bool {
    guard let equal = _equalIfEquatable(lhs.defaultValue, rhs.defaultValue) else { return true }
    if equal { return true }
    let (left, right) = (try? lhs.representation.persistentValue(for: lhs.defaultValue), try? rhs.representation.persistentValue(for: rhs.defaultValue))
    return left != nil && left == right
}

/// `lhs == rhs` when `lhs`'s dynamic type is `Equatable`, else `nil`.
private func _equalIfEquatable(_ lhs: Any, _ rhs: Any) -> Bool? {
    guard let lhs = lhs as? any Equatable else { return nil }
    return lhs._isEqual(toAny: rhs)
}

extension Equatable {
    fileprivate func _isEqual(toAny other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
