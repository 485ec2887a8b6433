import Foundation

/// The four SecItem calls ``KeychainKeyValueStore`` makes, in portable types: the seam between
/// the store's logic (which runs and is tested everywhere) and the Security framework.
///
/// On Apple platforms `SecItemKeychainBackend` makes the real calls. Tests provide their own, which
/// can answer any status:
///
/// ```swift
/// final class LockedKeychain: KeychainBackend {
///     func copyData(matching query: KeychainItemQuery) -> (status: Int32, data: Data?) {
///         (KeychainStatus.interactionNotAllowed, nil)
///     }
///     func add(_ query: KeychainItemQuery, data: Data) -> Int32 { KeychainStatus.interactionNotAllowed }
///     func update(matching query: KeychainItemQuery, data: Data, accessibility: KeychainAccessibility) -> Int32 {
///         KeychainStatus.interactionNotAllowed
///     }
///     func delete(matching query: KeychainItemQuery) -> Int32 { KeychainStatus.interactionNotAllowed }
/// }
/// let store = KeychainKeyValueStore(service: "com.example.app", backend: LockedKeychain())
/// ```
///
/// Status codes are `OSStatus` values (``KeychainStatus`` names those the store tells apart).
/// Calls may block and come from any thread. A backend is a class: stores share their state (change
/// announcements, cached reads) only with stores on the same backend instance.
public protocol KeychainBackend: AnyObject, Sendable {
    /// `SecItemCopyMatching` with `kSecReturnData` and `kSecMatchLimitOne`: the item's bytes.
    ///
    /// - Returns: The status, and the item's data when it is `errSecSuccess`.
    func copyData(matching query: KeychainItemQuery) -> (status: Int32, data: Data?)

    /// `SecItemAdd` of an item with `data` as its `kSecValueData`; `query.accessibility` is set.
    func add(_ query: KeychainItemQuery, data: Data) -> Int32

    /// `SecItemUpdate` of the item `query` matches, setting `kSecValueData` and `kSecAttrAccessible`.
    func update(matching query: KeychainItemQuery, data: Data, accessibility: KeychainAccessibility) -> Int32

    /// `SecItemDelete` of the item `query` matches.
    func delete(matching query: KeychainItemQuery) -> Int32

    /// The system's description of `status` (`SecCopyErrorMessageString`), if it has one. The
    /// default has none.
    func message(for status: Int32) -> String?
}

extension KeychainBackend {
    public func message(for status: Int32) -> String? { nil }
}
