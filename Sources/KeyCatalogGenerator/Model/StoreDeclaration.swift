/// A named key-value store (an entry of `stores` in the manifest, or the implicit `standard`).
///
/// ```json
/// "stores": {
///     "shared": { "kind": "userDefaults", "suite": "group.com.example.app" },
///     "secrets": { "kind": "keychain", "service": "com.example.app" }
/// }
/// ```
public struct StoreDeclaration: Sendable, Equatable {
    /// The store's name, a Swift identifier; keys refer to it with `store`.
    public var name: String
    /// What backs the store.
    public var kind: StoreKind
    /// `true` only for the `standard` store every catalog has without declaring it.
    public var isImplicit: Bool
    /// Where the store's name is written (the manifest's start for the implicit store).
    public var location: SourceLocation

    /// Creates a store declaration.
    public init(name: String, kind: StoreKind, isImplicit: Bool = false, location: SourceLocation) {
        self.name = name
        self.kind = kind
        self.isImplicit = isImplicit
        self.location = location
    }

    /// The reserved name of `UserDefaults.standard`: `standard`.
    public static let standardName = "standard"

    /// The implicit store named `standard`, backed by `UserDefaults.standard`.
    public static func standard(file: String = "") -> StoreDeclaration {
        StoreDeclaration(
            name: standardName,
            kind: .userDefaults(suite: nil),
            isImplicit: true,
            location: SourceLocation(file: file, line: 1, column: 1)
        )
    }
}

/// What backs a store (`kind` and its fields in the manifest).
public enum StoreKind: Sendable, Hashable {
    /// `UserDefaults`, `UserDefaults.standard` when `suite` is `nil`.
    case userDefaults(suite: String?)
    /// The iCloud key-value store (`NSUbiquitousKeyValueStore`): 64-byte keys, 1024 keys at most.
    case ubiquitous
    /// Keychain generic passwords under `service`, optionally shared through `accessGroup`, given
    /// the class `accessibility` when written.
    case keychain(service: String, accessGroup: String?, accessibility: KeychainAccessibility)
    /// A property-list file at `path`.
    case file(path: String)
    /// An in-memory store, emptied when the process ends.
    case memory

    /// The manifest spelling of the kind: `userDefaults`, `ubiquitous`, `keychain`, `file`, `memory`.
    public var name: String {
        switch self {
        case .userDefaults: "userDefaults"
        case .ubiquitous: "ubiquitous"
        case .keychain: "keychain"
        case .file: "file"
        case .memory: "memory"
        }
    }

    /// Every manifest spelling of a kind, in documentation order.
    public static let names = ["userDefaults", "ubiquitous", "keychain", "file", "memory"]

    /// When a keychain store's items can be read: its `accessibility` field, named like the
    /// runtime's `KeychainAccessibility` cases.
    ///
    /// ```json
    /// "secrets": { "kind": "keychain", "service": "com.example.app", "accessibility": "afterFirstUnlockThisDeviceOnly" }
    /// ```
    public enum KeychainAccessibility: String, Sendable, Hashable, CaseIterable {
        /// Readable after the first unlock since boot; migrates to a new device (the default).
        case afterFirstUnlock
        /// Readable after the first unlock since boot; stays on this device.
        case afterFirstUnlockThisDeviceOnly
        /// Readable while the device is unlocked; migrates to a new device.
        case whenUnlocked
        /// Readable while the device is unlocked; stays on this device.
        case whenUnlockedThisDeviceOnly
        /// Readable while unlocked, only on a device with a passcode; stays on this device.
        case whenPasscodeSetThisDeviceOnly

        /// The class when the manifest gives none: `afterFirstUnlock`.
        public static let `default` = KeychainAccessibility.afterFirstUnlock
    }
}
