import Foundation

extension AnyPersistentKeyValueStore {
    /// The iCloud key-value store (`NSUbiquitousKeyValueStore`): what a manifest's
    /// `"kind": "ubiquitous"` store opens.
    ///
    /// ```swift
    /// let cloud = AnyPersistentKeyValueStore.ubiquitous()
    /// cloud.set(.theme, to: .dark)
    /// ```
    ///
    /// - Important: Where iCloud does not exist (Linux), this is an in-memory store: values are
    ///   lost when the process ends. The first call in a process reports that once through
    ///   ``PersistentKeyValueFailure/handler``.
    public static func ubiquitous() -> AnyPersistentKeyValueStore {
        #if canImport(Darwin) && !os(Linux)
        return AnyPersistentKeyValueStore(NSUbiquitousKeyValueStore.default)
        #else
        if ubiquitousUnavailableReported.withLock({ reported in
            defer { reported = true }
            return !reported
        }) {
            PersistentKeyValueFailure.report(
                PersistentKeyValueFailure(
                    operation: .load,
                    key: nil,
                    store: "iCloud key-value store",
                    message: "iCloud (NSUbiquitousKeyValueStore) is unavailable on this platform; "
                        + "using an in-memory store, whose values are lost when the process ends"
                )
            )
        }
        return .memory()
        #endif
    }

    /// Keychain generic passwords under `service`: what a manifest's `"kind": "keychain"` store
    /// opens.
    ///
    /// ```swift
    /// let secrets = AnyPersistentKeyValueStore.keychain(service: "com.example.app", accessGroup: nil)
    /// secrets.set(.apiToken, to: "s3cr3t")
    /// ```
    ///
    /// - Parameters:
    ///   - service: The keychain service the values are filed under.
    ///   - accessGroup: The keychain access group shared with other apps, if any.
    /// - Important: Where there is no keychain (Linux), values go to a property-list file
    ///   readable by its owner only (mode 0600): `~/.local/share/keycatalog/keychain/<service>.plist`,
    ///   where `~` is `$HOME` when it is set.
    ///   `accessGroup` is ignored there.
    public static func keychain(service: String, accessGroup: String? = nil) -> AnyPersistentKeyValueStore {
        #if canImport(Security)
        AnyPersistentKeyValueStore(KeychainKeyValueStore(service: service, accessGroup: accessGroup))
        #else
        AnyPersistentKeyValueStore(FileKeyValueStore(url: keychainFallbackURL(service: service)))
        #endif
    }

    /// Where ``keychain(service:accessGroup:)`` keeps values without a keychain; a `/` in the
    /// service name would make a folder, so it becomes `_`.
    static func keychainFallbackURL(service: String) -> URL {
        let fileName = service.isEmpty ? "_" : service.replacingOccurrences(of: "/", with: "_")
        return _homeDirectory()
            .appending(path: ".local/share/keycatalog/keychain")
            .appending(path: fileName + ".plist")
    }

    private static let ubiquitousUnavailableReported = _Locked(false)
}
