/// When a keychain item can be read: the item's `kSecAttrAccessible` class.
///
/// ```swift
/// let tokens = KeychainKeyValueStore(service: "com.example.app", accessibility: .afterFirstUnlockThisDeviceOnly)
/// ```
///
/// Classes ending in `ThisDeviceOnly` keep the item out of backups restored to another device and
/// out of iCloud Keychain: what session tokens usually want.
public enum KeychainAccessibility: String, Sendable, Hashable, CaseIterable {
    /// After the first unlock since the device restarted, until it restarts again; background
    /// launches can read it. The default.
    case afterFirstUnlock
    /// Like ``afterFirstUnlock``, and never migrated to another device.
    case afterFirstUnlockThisDeviceOnly
    /// Only while the device is unlocked.
    case whenUnlocked
    /// Like ``whenUnlocked``, and never migrated to another device.
    case whenUnlockedThisDeviceOnly
    /// Only while the device is unlocked and has a passcode; the item is deleted when the passcode
    /// is removed, and adding it fails on a device without one.
    case whenPasscodeSetThisDeviceOnly

    /// The class an item gets when none is chosen: ``afterFirstUnlock``.
    public static let `default` = KeychainAccessibility.afterFirstUnlock
}
