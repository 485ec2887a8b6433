// expected-error: to expected dictionary key type 'String'
// kSec constants are CFStrings: a [String: Any] query needs `kSecClass as String` as its key.
import Security

let query: [String: Any] = [kSecClass: kSecClassGenericPassword]
