// expected-error: cannot convert value of type '[String : Any]' to expected argument type 'CFDictionary'
// A keychain query passed as a Swift dictionary: SecItemCopyMatching takes a CFDictionary, and
// only `query as CFDictionary` bridges.
import Security

func read(service: String) -> OSStatus {
    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
    var result: CFTypeRef?
    return SecItemCopyMatching(query, &result)
}
