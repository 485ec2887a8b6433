/// A keychain call that did not succeed: what ``KeychainKeyValueStore`` throws from writes, and
/// describes in the failures it reports for reads.
///
/// ```swift
/// do {
///     try store.setPersistentValue(.string("s3cr3t"), forKey: "apiToken")
/// } catch let error as KeychainError where error.status == KeychainStatus.interactionNotAllowed {
///     // The device is locked: try again after it is unlocked.
/// }
/// ```
public struct KeychainError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed: `SecItemCopyMatching`, `SecItemAdd`, `SecItemUpdate` or `SecItemDelete`.
    public var operation: String
    /// Its status (`OSStatus`).
    public var status: Int32
    /// The system's description of the status, if the backend gave one.
    public var systemMessage: String?

    /// An error for `operation` returning `status`.
    public init(operation: String, status: Int32, systemMessage: String? = nil) {
        self.operation = operation
        self.status = status
        self.systemMessage = systemMessage
    }

    public var description: String {
        let name = KeychainStatus.name(of: status).map { "\($0), " } ?? ""
        return "\(operation) returned \(name)\(status): \(explanation)"
    }

    private var explanation: String {
        switch status {
        case KeychainStatus.interactionNotAllowed:
            "the keychain cannot be read or written now: the device is locked (not yet unlocked since "
                + "it restarted, or the item is accessible only while unlocked)"
        case KeychainStatus.missingEntitlement:
            "the app lacks the keychain entitlement: sign it with one, and list the access group in its "
                + "keychain-access-groups"
        case KeychainStatus.duplicateItem:
            "an item with this service and account already exists"
        case KeychainStatus.itemNotFound:
            "no such item"
        default:
            systemMessage ?? "unexpected status"
        }
    }
}
