/// The Security framework's status codes (`OSStatus`) that ``KeychainKeyValueStore`` tells apart,
/// with the same values, for backends and tests where the Security framework does not exist.
///
/// ```swift
/// func delete(matching query: KeychainItemQuery) -> Int32 {
///     items.removeValue(forKey: query.account) == nil ? KeychainStatus.itemNotFound : KeychainStatus.success
/// }
/// ```
public enum KeychainStatus {
    /// `errSecSuccess`.
    public static let success: Int32 = 0
    /// `errSecItemNotFound`: no item matches.
    public static let itemNotFound: Int32 = -25300
    /// `errSecDuplicateItem`: adding an item that exists.
    public static let duplicateItem: Int32 = -25299
    /// `errSecInteractionNotAllowed`: the item cannot be reached now, typically because the device
    /// is locked (before its first unlock since a restart, or the item is accessible only while
    /// unlocked).
    public static let interactionNotAllowed: Int32 = -25308
    /// `errSecMissingEntitlement`: the app is not signed with the keychain entitlement, or the
    /// access group is not in its `keychain-access-groups`.
    public static let missingEntitlement: Int32 = -34018

    /// The Security framework's name for `status`, like `errSecItemNotFound`, when it is one of
    /// the above.
    public static func name(of status: Int32) -> String? {
        switch status {
        case success: "errSecSuccess"
        case itemNotFound: "errSecItemNotFound"
        case duplicateItem: "errSecDuplicateItem"
        case interactionNotAllowed: "errSecInteractionNotAllowed"
        case missingEntitlement: "errSecMissingEntitlement"
        default: nil
        }
    }
}
