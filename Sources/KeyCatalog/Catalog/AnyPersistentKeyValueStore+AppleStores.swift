import Foundation

extension AnyPersistentKeyValueStore {
    /// The iCloud key-value store: `UbiquitousKeyValueStore.default` (over
    /// `NSUbiquitousKeyValueStore.default`), what a manifest's `"kind": "ubiquitous"` store opens.
    ///
    /// ```swift
    /// let cloud = AnyPersistentKeyValueStore.ubiquitous()
    /// cloud.set(.theme, to: .dark)
    /// ```
    ///
    /// - Important: Where iCloud does not exist (Linux), this is a ``UbiquitousKeyValueStore`` over
    ///   an in-memory stand-in, one per process: iCloud's limits are kept, so tests on Linux catch a
    ///   key or value iCloud would refuse, but values are lost when the process ends and
    ///   `synchronize()` returns `false` (so migrations into it keep their sources). The first call
    ///   in a process reports that through ``PersistentKeyValueFailure/handler``.
    public static func ubiquitous() -> AnyPersistentKeyValueStore {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        return AnyPersistentKeyValueStore(UbiquitousKeyValueStore.default)
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
                        + "using an in-memory stand-in that keeps iCloud's limits, whose values are lost when the process ends"
                )
            )
        }
        return AnyPersistentKeyValueStore(UbiquitousKeyValueStore.shared(over: InMemoryUbiquitousBackend.shared))
        #endif
    }

    /// Keychain generic passwords under `service`: what a manifest's `"kind": "keychain"` store
    /// opens (a ``KeychainKeyValueStore`` on Apple platforms).
    ///
    /// ```swift
    /// let secrets = AnyPersistentKeyValueStore.keychain(service: "com.example.app", accessibility: .afterFirstUnlockThisDeviceOnly)
    /// secrets.set(.apiToken, to: "s3cr3t")
    /// ```
    ///
    /// Every call with the same service and access group opens a store sharing one change center
    /// and one read cache, so catalogs built from `Stores.live` see each other's writes.
    ///
    /// - Parameters:
    ///   - service: The keychain service the values are filed under.
    ///   - accessGroup: The keychain access group shared with other apps, if any.
    ///   - accessibility: The class items get when written.
    /// - Important: Where there is no keychain (Linux), values go to a property-list file
    ///   readable by its owner only (mode 0600): `~/.local/share/keycatalog/keychain/<service>.plist`,
    ///   where `~` is `$HOME` when it is set. `accessGroup` and `accessibility` are ignored there.
    public static func keychain(
        service: String,
        accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .default
    ) -> AnyPersistentKeyValueStore {
        #if canImport(Security)
        AnyPersistentKeyValueStore(KeychainKeyValueStore(service: service, accessGroup: accessGroup, accessibility: accessibility))
        #else
        AnyPersistentKeyValueStore(keychainStandIn: FileKeyValueStore(url: keychainFallbackURL(service: service)))
        #endif
    }

    /// Keychain generic passwords under `service`, through `backend`: on every platform, a
    /// ``KeychainKeyValueStore`` (tests pass a backend of their own).
    ///
    /// ```swift
    /// let secrets = AnyPersistentKeyValueStore.keychain(service: "com.example.tests", backend: FakeKeychain())
    /// ```
    ///
    /// - Parameters:
    ///   - service: The keychain service the values are filed under.
    ///   - accessGroup: The keychain access group shared with other apps, if any.
    ///   - accessibility: The class items get when written.
    ///   - backend: What makes the keychain calls.
    public static func keychain(
        service: String,
        accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .default,
        backend: any KeychainBackend
    ) -> AnyPersistentKeyValueStore {
        AnyPersistentKeyValueStore(KeychainKeyValueStore(service: service, accessGroup: accessGroup, accessibility: accessibility, backend: backend))
    }

    /// Where ``keychain(service:accessGroup:accessibility:)`` keeps values without a keychain; a `/` in the
    /// service name would make a folder, so it becomes `_`.
    static func keychainFallbackURL(service: String) -> URL {
        let fileName = service.isEmpty ? "_" : service.replacingOccurrences(of: "/", with: "_")
        return _homeDirectory()
            .appendingPathComponent(".local/share/keycatalog/keychain")
            .appendingPathComponent(fileName + ".plist")
    }

    private static let ubiquitousUnavailableReported = _Locked(false)
}
