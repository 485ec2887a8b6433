import Foundation

extension UserDefaults {
    /// Whether the persistent domain named `domain` stores a value for `key`: whether
    /// `persistentDomain(forName: domain)?[key]` is not `nil`, without copying the whole domain
    /// for a key it stores.
    ///
    /// On Apple platforms `persistentDomain(forName:)` copies every value of the domain into a
    /// new dictionary, and iCloud sync asks this for each synced key it writes, and for each one it
    /// takes at a launch: a launch with n synced keys copied the suite n times. CoreFoundation's
    /// `CFPreferencesCopyValue` reads one key of a domain: the current user's, any host's, where
    /// `set(_:forKey:)` writes and what `persistentDomain(forName:)` holds. A value it finds is
    /// stored. When it finds none, the copy answers, as before: that the two read the same
    /// domain for every suite (an app group's, a sandboxed app's) cannot be checked without an
    /// Apple platform, and this way a difference could only cost time, never count a stored value
    /// as missing (which sync would take for a removal).
    ///
    /// On Linux the suites KeyCatalog opens are asked through ``PreferencesDomain``, and this is
    /// reached only by other instances.
    func storesPersistentValue(forKey key: String, inDomainNamed domain: String) -> Bool {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        if CFPreferencesCopyValue(key as CFString, domain as CFString, kCFPreferencesCurrentUser, kCFPreferencesAnyHost) != nil {
            return true
        }
        #endif
        return persistentDomain(forName: domain)?[key] != nil
    }
}
