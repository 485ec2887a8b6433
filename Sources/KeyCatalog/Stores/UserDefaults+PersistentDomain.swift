import Foundation

extension UserDefaults {
    /// Whether the persistent domain named `domain` stores a value for `key`: whether
    /// `persistentDomain(forName: domain)?[key]` is not `nil`, without copying the whole domain
    /// for a key it stores.
    ///
    /// On Apple platforms `persistentDomain(forName:)` copies every value of the domain into a
    /// new dictionary, and iCloud sync asks this for each synced key it writes, and for each one it
    /// takes at a launch: a launch with n synced keys copied the suite n times. CoreFoundation's
    /// `CFPreferencesCopyValue` reads one key of one domain, here the current user's, any host's:
    /// the domain `CFPreferencesSetAppValue` writes, and presumably what
    /// `persistentDomain(forName:)` holds. Nothing here can run it to check that, for every suite
    /// (`standard`, an app group's, a sandboxed app's), so see
    /// ``domainStoresValue(forKey:in:store:lookupFinds:verifies:copyHolds:)`` for how the two answers are
    /// combined. Not reached on Linux, where suites with a known name are asked through
    /// ``PreferencesDomain``.
    func storesPersistentValue(forKey key: String, inDomainNamed domain: String) -> Bool {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        let lookupFinds = CFPreferencesCopyValue(key as CFString, domain as CFString, kCFPreferencesCurrentUser, kCFPreferencesAnyHost) != nil
        #else
        let lookupFinds = false
        #endif
        #if DEBUG
        let verifies = true
        #else
        let verifies = false
        #endif
        return Self.domainStoresValue(
            forKey: key, in: domain, store: persistentStoreDescription, lookupFinds: lookupFinds, verifies: verifies
        ) { persistentDomain(forName: domain)?[key] != nil }
    }

    /// Whether a persistent domain stores a value for `key`, from a lookup of the one key
    /// (`lookupFinds`) and the domain's copy (`copyHolds`, asked only when needed).
    ///
    /// - When the lookup finds nothing, the copy answers, as it did before the lookup existed: if
    ///   the lookup read another domain than the copy, a stored value is never taken for a missing
    ///   one (which iCloud sync would push as a removal).
    /// - When it finds a value, the key is stored, and the copy is not made. In a debug build
    ///   (`verifies`) the copy is made too: if it does not hold the key, the two read different
    ///   domains, which is reported, and the copy answers. So a Debug build on an Apple platform
    ///   checks, each time, what this code cannot check on Linux, and a Release build is spared
    ///   the copy.
    static func domainStoresValue(
        forKey key: String, in domain: String, store: @autoclosure () -> String, lookupFinds: Bool, verifies: Bool, copyHolds: () -> Bool
    ) -> Bool {
        guard lookupFinds else { return copyHolds() }
        guard verifies, !copyHolds() else { return true }
        PersistentKeyValueFailure.report(
            PersistentKeyValueFailure(
                operation: .read,
                key: key,
                store: store(),
                message: "CFPreferencesCopyValue finds a value in domain '\(domain)' that persistentDomain(forName:) does not hold;"
                    + " the key counts as not stored, as persistentDomain(forName:) says (a KeyCatalog defect: please report it)"
            )
        )
        return false
    }
}
