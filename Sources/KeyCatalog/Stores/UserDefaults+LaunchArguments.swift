import Foundation

/// Launch arguments (`-Theme dark`, UserDefaults' argument domain) override what a suite stores:
/// `object(forKey:)` reads the argument while it is given, and a write goes to the suite beneath
/// it. A value read so was never written, so it must not travel as one (iCloud sync pushes only
/// what the suite stores).
extension UserDefaults {
    /// Whether a launch argument overrides `key` in this process.
    func isOverriddenByLaunchArgument(_ key: String) -> Bool {
        let arguments = volatileDomain(forName: UserDefaults.argumentDomain)
        // Usually empty (no `-key value` arguments): then the key is not hashed.
        return !arguments.isEmpty && arguments[key] != nil
    }

    /// The value the instance's own domain stores for `key`, beneath any launch argument:
    /// `.some(nil)` when it stores none, and `nil` when UserDefaults cannot tell (an instance not
    /// opened through ``UserDefaultsPersistence/suite(named:)``, whose domain name it does not
    /// give, or `.standard` on an Apple platform in a process without a bundle identifier).
    func storedValueBeneathLaunchArguments(forKey key: String) -> PropertyListValue?? {
        #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
        if let kept = UserDefaultsPersistence.deferredValue(forKey: key, in: self) { return kept }
        if self === UserDefaults.standard {
            return .some(UserDefaultsPersistence.synchronizedStandardDomainFileContents()?[key].flatMap(PropertyListValue.init(foundationObject:)))
        }
        #endif
        guard let domain = UserDefaultsPersistence.persistentDomainName(of: self) else { return nil }
        return .some(persistentDomain(forName: domain)?[key].flatMap(PropertyListValue.init(foundationObject:)))
    }
}
