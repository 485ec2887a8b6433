#if canImport(Security)
import Foundation
import Security

/// A store in the keychain: one generic-password item per key, for the given service.
///
/// ```swift
/// let secrets = KeychainKeyValueStore(service: "com.example.app")
/// secrets.set(.apiToken, to: token)
/// ```
///
/// Items are accessible after first unlock. Values are encoded by ``KeychainItemCoding``.
public final class KeychainKeyValueStore: PersistentKeyValueStore, Sendable {
    public let service: String
    public let accessGroup: String?
    public let keyValueChanges = KeyValueChangeCenter()
    private let registered = _Locked<[String: PropertyListValue]>([:])

    public init(service: String, accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    public var persistentStoreDescription: String { "keychain (service \"\(service)\")" }

    private func query(_ key: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: key,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    public func persistentValue(forKey key: String) -> PropertyListValue? {
        var query = query(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess, let data = result as? Data else {
            return registered.withLock { $0[key] }
        }
        do {
            return try KeychainItemCoding.value(from: data)
        } catch {
            PersistentKeyValueFailure.report(
                PersistentKeyValueFailure(operation: .read, key: key, store: persistentStoreDescription, message: "\(error); default used")
            )
            return nil
        }
    }

    public func hasPersistentValue(forKey key: String) -> Bool {
        SecItemCopyMatching(query(key) as CFDictionary, nil) == errSecSuccess
    }

    public func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        let data = try KeychainItemCoding.data(for: value)
        var status = SecItemUpdate(query(key) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        if status == errSecItemNotFound {
            var item = query(key)
            item[kSecValueData as String] = data
            item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
            status = SecItemAdd(item as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
    }

    public func removePersistentValue(forKey key: String) throws {
        let status = SecItemDelete(query(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }

    public func registerPersistentValues(_ values: [String: PropertyListValue]) {
        registered.withLock { $0.merge(values) { _, new in new } }
    }

    struct KeychainError: Error, CustomStringConvertible {
        let status: OSStatus
        var description: String {
            "keychain error \(status): \(SecCopyErrorMessageString(status, nil) as String? ?? "unknown")"
        }
    }
}
#endif
