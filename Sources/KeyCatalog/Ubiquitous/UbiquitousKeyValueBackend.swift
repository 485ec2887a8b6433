/// What ``UbiquitousKeyValueStore`` needs from iCloud's key-value store: the requirements are
/// spelled exactly as `NSUbiquitousKeyValueStore` declares them, so it conforms as it is, and a
/// test or another platform can supply its own.
///
/// ```swift
/// final class DictionaryBackend: UbiquitousKeyValueBackend {
///     var values: [String: Any] = [:]
///     func object(forKey aKey: String) -> Any? { values[aKey] }
///     func set(_ anObject: Any?, forKey aKey: String) { values[aKey] = anObject }
///     func removeObject(forKey aKey: String) { values[aKey] = nil }
///     func synchronize() -> Bool { true }
///     var dictionaryRepresentation: [String: Any] { values }
///     func observeExternalChanges(_ handler: @escaping @Sendable (UbiquitousExternalChange) -> Void) {}
/// }
/// let store = UbiquitousKeyValueStore.shared(over: DictionaryBackend())
/// ```
///
/// - Important: The store calls a backend from any thread: it must be thread-safe, as
///   `NSUbiquitousKeyValueStore` is. It may raise, or misbehave, for keys longer than
///   ``UbiquitousKeyValueStore/maximumKeyBytes``: the store never passes it one.
public protocol UbiquitousKeyValueBackend: AnyObject {
    /// The stored property-list object for `aKey`, or `nil`.
    func object(forKey aKey: String) -> Any?

    /// Stores a property-list object (or removes the value, for `nil`) under `aKey`.
    func set(_ anObject: Any?, forKey aKey: String)

    /// Removes the value under `aKey`, if any.
    func removeObject(forKey aKey: String)

    /// Writes pending changes to disk and exchanges them with iCloud when it can.
    ///
    /// - Returns: `false` when that failed, as when the app lacks the iCloud key-value store
    ///   entitlement.
    func synchronize() -> Bool

    /// Every stored key and value.
    var dictionaryRepresentation: [String: Any] { get }

    /// Starts calling `handler` with every change that comes from outside the app (iCloud's
    /// `didChangeExternallyNotification`), on any thread. The store calls it once.
    func observeExternalChanges(_ handler: @escaping @Sendable (UbiquitousExternalChange) -> Void)
}
