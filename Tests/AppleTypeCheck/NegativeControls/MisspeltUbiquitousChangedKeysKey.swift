// expected-error: cannot find 'NSUbiquitousKeyValueStoreChangedKeyKey' in scope
// The userInfo key is NSUbiquitousKeyValueStoreChangedKeysKey (Keys, plural).
import Foundation

func changedKeys(_ notification: Notification) -> [String] {
    notification.userInfo?[NSUbiquitousKeyValueStoreChangedKeyKey] as? [String] ?? []
}
