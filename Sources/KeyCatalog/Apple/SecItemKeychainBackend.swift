#if canImport(Security)
import Foundation
import Security

/// The system keychain: ``KeychainBackend``'s calls made with the Security framework's SecItem
/// functions, on generic-password items in the data-protection keychain.
///
/// ```swift
/// let secrets = KeychainKeyValueStore(service: "com.example.app", backend: SecItemKeychainBackend.shared)
/// ```
public final class SecItemKeychainBackend: KeychainBackend {
    /// The one instance: stores on it share their state.
    public static let shared = SecItemKeychainBackend()

    private init() {}

    public func copyData(matching query: KeychainItemQuery) -> (status: Int32, data: Data?) {
        var dictionary = Self.dictionary(for: query)
        dictionary[kSecReturnData as String] = true
        dictionary[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(dictionary as CFDictionary, &result)
        return (status, result as? Data)
    }

    public func add(_ query: KeychainItemQuery, data: Data) -> Int32 {
        var dictionary = Self.dictionary(for: query)
        dictionary[kSecValueData as String] = data
        return SecItemAdd(dictionary as CFDictionary, nil)
    }

    public func update(matching query: KeychainItemQuery, data: Data, accessibility: KeychainAccessibility) -> Int32 {
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: accessibility.secAttrAccessible,
        ]
        return SecItemUpdate(Self.dictionary(for: query) as CFDictionary, attributes as CFDictionary)
    }

    public func delete(matching query: KeychainItemQuery) -> Int32 {
        SecItemDelete(Self.dictionary(for: query) as CFDictionary)
    }

    public func message(for status: Int32) -> String? {
        SecCopyErrorMessageString(status, nil) as String?
    }

    /// The SecItem dictionary of a query.
    static func dictionary(for query: KeychainItemQuery) -> [String: Any] {
        var dictionary: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: query.service,
            kSecAttrAccount as String: query.account,
        ]
        if let accessGroup = query.accessGroup {
            dictionary[kSecAttrAccessGroup as String] = accessGroup
        }
        if let accessibility = query.accessibility {
            dictionary[kSecAttrAccessible as String] = accessibility.secAttrAccessible
        }
        if query.usesDataProtectionKeychain {
            // macOS 10.15, iOS 13, tvOS 13, watchOS 6, visionOS 1: below every platform in Package.swift.
            dictionary[kSecUseDataProtectionKeychain as String] = true
        }
        return dictionary
    }
}

extension KeychainAccessibility {
    /// The `kSecAttrAccessible` value of the class.
    var secAttrAccessible: CFString {
        switch self {
        case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        }
    }
}
#endif
