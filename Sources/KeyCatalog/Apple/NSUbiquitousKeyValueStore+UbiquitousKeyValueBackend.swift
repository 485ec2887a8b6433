#if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
import Foundation

// The Apple shell of UbiquitousKeyValueStore: NSUbiquitousKeyValueStore declares the backend's
// storage requirements itself; this file only translates its external-change notification.

extension NSUbiquitousKeyValueStore: UbiquitousKeyValueBackend {
    /// Forwards `didChangeExternallyNotification` for this store to `handler`, for good.
    public func observeExternalChanges(_ handler: @escaping @Sendable (UbiquitousExternalChange) -> Void) {
        _ = NotificationCenter.default.addObserver(
            forName: NSUbiquitousKeyValueStore.didChangeExternallyNotification,
            object: self,
            queue: nil
        ) { notification in
            handler(UbiquitousExternalChange(userInfo: notification.userInfo))
        }
    }
}

extension UbiquitousKeyValueStore {
    /// The store over `NSUbiquitousKeyValueStore.default`: what a manifest's `"kind": "ubiquitous"`
    /// store opens.
    ///
    /// ```swift
    /// UbiquitousKeyValueStore.default.set(.theme, to: .dark)
    /// ```
    public static var `default`: UbiquitousKeyValueStore {
        shared(over: NSUbiquitousKeyValueStore.default)
    }
}

extension UbiquitousExternalChange {
    /// The change a `didChangeExternallyNotification`'s user info describes. The reason is an
    /// `NSNumber` holding an `Int`; an absent or unknown one counts as a server change, so that
    /// observers re-read the changed keys.
    init(userInfo: [AnyHashable: Any]?) {
        let keys = userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] as? [String] ?? []
        let reason: Reason =
            switch userInfo?[NSUbiquitousKeyValueStoreChangeReasonKey] as? Int {
            case NSUbiquitousKeyValueStoreInitialSyncChange?: .initialSync
            case NSUbiquitousKeyValueStoreQuotaViolationChange?: .quotaViolation
            case NSUbiquitousKeyValueStoreAccountChange?: .accountChange
            default: .serverChange
            }
        self.init(reason: reason, changedKeys: keys)
    }
}
#endif
