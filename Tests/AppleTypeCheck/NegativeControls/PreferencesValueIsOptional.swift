// expected-error: value of optional type 'CFPropertyList?' (aka 'Optional<AnyObject>') must be unwrapped
import Foundation

// CFPreferencesCopyValue returns nil when the domain stores nothing for the key.
func storedObject(forKey key: String, inDomainNamed domain: String) -> AnyObject {
    CFPreferencesCopyValue(key as CFString, domain as CFString, kCFPreferencesCurrentUser, kCFPreferencesAnyHost)
}
