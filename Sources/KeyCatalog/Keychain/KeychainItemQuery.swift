/// One keychain generic-password item, as a ``KeychainBackend`` is asked about it: the portable
/// form of a SecItem query dictionary.
///
/// ```swift
/// let query = KeychainItemQuery(service: "com.example.app", account: "apiToken")
/// let (status, data) = backend.copyData(matching: query)
/// ```
///
/// An item is identified by its service, account and access group; its accessibility is an
/// attribute, not part of its identity.
public struct KeychainItemQuery: Sendable, Hashable, CustomStringConvertible {
    /// `kSecAttrService`.
    public var service: String
    /// `kSecAttrAccount`: the storage key.
    public var account: String
    /// `kSecAttrAccessGroup`; `nil` leaves it out (the app's default group when adding; every
    /// group the app can reach when searching).
    public var accessGroup: String?
    /// `kSecAttrAccessible`: set when adding an item, `nil` in searches so that an item matches
    /// whatever its class (``KeychainBackend/update(matching:data:accessibility:)`` sets the class
    /// separately).
    public var accessibility: KeychainAccessibility?
    /// `kSecUseDataProtectionKeychain`: on macOS, use the data-protection keychain (the one where
    /// access groups and accessibility apply) instead of the legacy file keychain. Other platforms
    /// ignore it. ``KeychainKeyValueStore`` always sets it.
    public var usesDataProtectionKeychain: Bool

    /// A query for the item `account` under `service`.
    public init(
        service: String,
        account: String,
        accessGroup: String? = nil,
        accessibility: KeychainAccessibility? = nil,
        usesDataProtectionKeychain: Bool = true
    ) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.usesDataProtectionKeychain = usesDataProtectionKeychain
    }

    public var description: String {
        var text = "service \"\(service)\", account \"\(account)\""
        if let accessGroup { text += ", access group \"\(accessGroup)\"" }
        if let accessibility { text += ", accessible \(accessibility)" }
        return text
    }
}
