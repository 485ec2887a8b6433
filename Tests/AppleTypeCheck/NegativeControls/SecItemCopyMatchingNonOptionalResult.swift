// expected-error: to expected argument type 'UnsafeMutablePointer<CFTypeRef?>'
// The result out-parameter must be `CFTypeRef?` (nil when nothing matched), not `CFTypeRef`.
import Foundation
import Security

func read(query: [String: Any]) -> OSStatus {
    var result: CFTypeRef = NSNull()
    return SecItemCopyMatching(query as CFDictionary, &result)
}
