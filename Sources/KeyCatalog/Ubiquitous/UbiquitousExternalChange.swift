/// A change to iCloud's key-value store that came from outside the app: what
/// `NSUbiquitousKeyValueStore.didChangeExternallyNotification` says, without Foundation's
/// `userInfo` dictionary.
///
/// ```swift
/// let change = UbiquitousExternalChange(reason: .serverChange, changedKeys: ["theme"])
/// ```
public struct UbiquitousExternalChange: Sendable, Hashable {
    /// Why the values changed (`NSUbiquitousKeyValueStoreChangeReasonKey`).
    public enum Reason: Sendable, Hashable, CaseIterable {
        /// Another device changed values (`NSUbiquitousKeyValueStoreServerChange`).
        case serverChange
        /// The first download from iCloud for this device and account arrived
        /// (`NSUbiquitousKeyValueStoreInitialSyncChange`).
        case initialSync
        /// iCloud refused a write that exceeded its quota: 1 MB in all, 1 MB per value, 1,024 keys
        /// (`NSUbiquitousKeyValueStoreQuotaViolationChange`).
        case quotaViolation
        /// The person signed in to another iCloud account; its values replaced the local ones
        /// (`NSUbiquitousKeyValueStoreAccountChange`).
        case accountChange
    }

    /// Why the values changed.
    public var reason: Reason
    /// The keys whose values changed (`NSUbiquitousKeyValueStoreChangedKeysKey`); may be empty.
    public var changedKeys: [String]

    /// A change for `reason` to the values of `changedKeys`.
    public init(reason: Reason, changedKeys: [String]) {
        self.reason = reason
        self.changedKeys = changedKeys
    }
}
