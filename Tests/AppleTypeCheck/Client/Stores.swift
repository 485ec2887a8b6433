// KeychainKeyValueStore, UbiquitousKeyValueStore (over NSUbiquitousKeyValueStore) and Combine used as an app would.
import Combine
import Foundation
import KeyCatalog
import Security

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
final class LaunchCounter {
    private var cancellables: Set<AnyCancellable> = []
    private(set) var lastSeen = 0

    init(store: some PersistentKeyValueStore) {
        store.publisher(for: .handLaunchCount)
            .removeDuplicates()
            .map { $0 * 2 }
            .sink { [weak self] in self?.lastSeen = $0 }
            .store(in: &cancellables)
    }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
func useStores() throws {
    let secrets = KeychainKeyValueStore(service: "com.example.app", accessGroup: nil)
    secrets.set(.handUsername, to: "ada")
    print(secrets.get(.handUsername), secrets.contains(.handUsername))
    try secrets.flushPersistentValues()

    let cloud = UbiquitousKeyValueStore.default
    cloud.set(.handLaunchCount, to: cloud.get(.handLaunchCount) + 1)
    do {
        try cloud.flushPersistentValues()
    } catch {
        print("not synchronized (no iCloud entitlement?): \(error)")
    }
    print("initial sync arrived:", cloud.hasReceivedInitialSync)
    let observation = cloud.observe(.handLaunchCount) { print("launchCount is now \($0)") }
    observation.cancel()
    if !NSUbiquitousKeyValueStore.default.synchronize() {
        print("no iCloud entitlement")
    }

    let keys = Keys(stores: .init(standard: .keychain(service: "com.example.app")))
    keys.launchCount += 1
    var cancellables: Set<AnyCancellable> = []
    keys.$launchCount.publisher.sink { print("launchCount is now \($0)") }.store(in: &cancellables)
    _ = LaunchCounter(store: AnyPersistentKeyValueStore.ubiquitous())

    // The external-change notification, read as Apple documents it.
    NotificationCenter.default.addObserver(
        forName: NSUbiquitousKeyValueStore.didChangeExternallyNotification, object: cloud, queue: .main
    ) { notification in
        let reason = notification.userInfo?[NSUbiquitousKeyValueStoreChangeReasonKey] as? Int
        let keys = notification.userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] as? [String] ?? []
        switch reason {
        case NSUbiquitousKeyValueStoreServerChange?, NSUbiquitousKeyValueStoreInitialSyncChange?: print("changed:", keys)
        case NSUbiquitousKeyValueStoreQuotaViolationChange?: print("over quota")
        case NSUbiquitousKeyValueStoreAccountChange?: print("account changed")
        default: break
        }
    }
}

/// The keychain API called directly, the right way (the negative controls hold the wrong ways).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
func keychainItemExists(service: String, account: String) -> Bool {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: account,
        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        kSecUseDataProtectionKeychain as String: true,
        kSecReturnAttributes as String: true,
        kSecMatchLimit as String: kSecMatchLimitOne,
    ]
    var result: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    if status != errSecSuccess && status != errSecItemNotFound {
        print(SecCopyErrorMessageString(status, nil) as String? ?? "keychain error \(status)")
    }
    return status == errSecSuccess
}

/// PersistentKeyValueKit's README reads the iCloud store itself as a store.
func readsTheUbiquitousStoreDirectly() -> Int {
    NSUbiquitousKeyValueStore.default.set(.handLaunchCount, to: 2)
    return NSUbiquitousKeyValueStore.default.get(.handLaunchCount)
}
