// expected-error: cannot convert value of type 'String' to expected argument type 'CFString'
import Foundation

// A Swift string is bridged to CoreFoundation's with `as CFString`, never passed as it is.
func storedObject(forKey key: String, inDomainNamed domain: String) -> Any? {
    CFPreferencesCopyValue(key, domain as CFString, kCFPreferencesCurrentUser, kCFPreferencesAnyHost)
}
