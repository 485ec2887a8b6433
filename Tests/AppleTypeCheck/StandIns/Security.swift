// Stand-in for Apple's Security framework: the keychain-item API (SecItem.h) and the
// CoreFoundation types it speaks (which `import Security` re-exports on Darwin).
// Signatures copy the Swift declarations in Apple's documentation:
// https://developer.apple.com/documentation/security/keychain-services
// SDK headers: Security/SecItem.h, Security/SecBase.h, CoreFoundation/CFBase.h, MacTypes.h.
@_exported import AppleFoundationStandIns
import Foundation

// MARK: - CoreFoundation types
// CFDictionary, CFString and CFTypeRef are AppleFoundationStandIns' (CoreFoundation, which
// Foundation and Security both re-export on Darwin).

/// https://developer.apple.com/documentation/kernel/osstatus: `typealias OSStatus = Int32` (MacTypes.h)
public typealias OSStatus = Int32

// MARK: - Keychain item functions (SecItem.h)
// Functions imported from C are implicitly @discardableResult in Swift; so are these.

/// https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
@discardableResult public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/secitemadd(_:_:)
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
@discardableResult public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/secitemupdate(_:_:)
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
@discardableResult public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/secitemdelete(_:)
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
@discardableResult public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/seccopyerrormessagestring(_:_:)
/// (SecBase.h; macOS 10.3, iOS 11.3)
@available(macOS 10.3, iOS 11.3, tvOS 11.3, watchOS 4.3, *)
@discardableResult public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    fatalError("stand-in")
}

// MARK: - Attribute keys and values (SecItem.h)
// Imported C constants (`extern const CFStringRef kSecClass;` -> `let kSecClass: CFString`). The
// compiler does not check Sendability of imported C globals; `nonisolated(unsafe)` is the Swift
// spelling of that. Values are placeholders.

/// https://developer.apple.com/documentation/security/ksecclass
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecClass: CFString = "class"
/// https://developer.apple.com/documentation/security/ksecclassgenericpassword
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
/// https://developer.apple.com/documentation/security/ksecattrservice
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
/// https://developer.apple.com/documentation/security/ksecattraccount
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
/// https://developer.apple.com/documentation/security/ksecattraccessgroup
@available(macOS 10.9, iOS 3.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
/// https://developer.apple.com/documentation/security/ksecattraccessible
@available(macOS 10.9, iOS 4.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
/// https://developer.apple.com/documentation/security/ksecattraccessibleafterfirstunlock
@available(macOS 10.9, iOS 4.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
/// https://developer.apple.com/documentation/security/ksecattraccessibleafterfirstunlockthisdeviceonly
@available(macOS 10.9, iOS 4.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// https://developer.apple.com/documentation/security/ksecattraccessiblewhenunlocked
@available(macOS 10.9, iOS 4.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
/// https://developer.apple.com/documentation/security/ksecattraccessiblewhenunlockedthisdeviceonly
@available(macOS 10.9, iOS 4.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
/// https://developer.apple.com/documentation/security/ksecattraccessiblewhenpasscodesetthisdeviceonly
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"
/// https://developer.apple.com/documentation/security/ksecusedataprotectionkeychain
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"
/// https://developer.apple.com/documentation/security/ksecattrsynchronizable
@available(macOS 10.9, iOS 7.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = "sync"
/// https://developer.apple.com/documentation/security/ksecvaluedata
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
/// https://developer.apple.com/documentation/security/ksecreturndata
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
/// https://developer.apple.com/documentation/security/ksecreturnattributes
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"
/// https://developer.apple.com/documentation/security/ksecmatchlimit
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
/// https://developer.apple.com/documentation/security/ksecmatchlimitone
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
/// https://developer.apple.com/documentation/security/ksecmatchlimitall
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"

// MARK: - Result codes (SecBase.h)
// Imported from a C enum as `var errSecSuccess: OSStatus { get }`.
// https://developer.apple.com/documentation/security/security-framework-result-codes

public var errSecSuccess: OSStatus { 0 }
public var errSecParam: OSStatus { -50 }
public var errSecAuthFailed: OSStatus { -25293 }
public var errSecDuplicateItem: OSStatus { -25299 }
public var errSecItemNotFound: OSStatus { -25300 }
public var errSecInteractionNotAllowed: OSStatus { -25308 }
public var errSecMissingEntitlement: OSStatus { -34018 }
