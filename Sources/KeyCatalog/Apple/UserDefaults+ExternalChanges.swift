#if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
import Foundation

/// Feeds a UserDefaults center's ``_UserDefaultsChangeWatcher`` on Apple platforms: Key-Value
/// Observing for each observed key KVO can observe (it sees other processes' writes too), and
/// `UserDefaults.didChangeNotification` for the others (keys with `.`: writes in this process only).
final class _UserDefaultsKeyValueObserver: _KeyValueObservingBase, _KeyValueObservingRegistrar, @unchecked Sendable {
    /// Weak: the watcher holds this object, and its center holds the watcher (see
    /// ``_UserDefaultsChangeWatcher``), kept by KeyCatalog until an instance it does not keep is
    /// released.
    private weak var defaults: UserDefaults?
    /// The instance, held while some key is observed through KVO (so that it is never released
    /// with observers registered), and those keys. Changed only by ``startObserving(key:)`` and
    /// ``stopObserving(key:)``, which the watcher calls one at a time.
    private var observed: (defaults: UserDefaults, keys: Set<String>)?
    /// Set once, before any key is observed.
    private weak var watcher: _UserDefaultsChangeWatcher?
    private var notificationToken: (any NSObjectProtocol)?

    private init(defaults: UserDefaults) {
        self.defaults = defaults
    }

    deinit {
        if let notificationToken { NotificationCenter.default.removeObserver(notificationToken) }
    }

    /// Attaches a watcher fed by KVO and the notification to `center`, which `defaults` posts to.
    static func watchExternalChanges(of defaults: UserDefaults, postingTo center: KeyValueChangeCenter) {
        let observer = _UserDefaultsKeyValueObserver(defaults: defaults)
        let watcher = _UserDefaultsChangeWatcher(defaults: defaults, center: center, keyValueObserving: observer)
        observer.watcher = watcher
        _ = center.attach(watcher)
        observer.notificationToken = NotificationCenter.default.addObserver(
            forName: UserDefaults.didChangeNotification,
            object: nil,
            queue: nil
        ) { [weak watcher] _ in
            watcher?.defaultsDidChange()
        }
    }

    func startObserving(key: String) {
        // Released: nothing to observe (the watcher's center is about to be released too).
        guard let defaults = observed?.defaults ?? defaults else { return }
        guard observed?.keys.contains(key) != true else { return }
        defaults.addObserver(self, forKeyPath: key, options: [], context: nil)
        observed = (defaults, (observed?.keys ?? []).union([key]))
    }

    func stopObserving(key: String) {
        guard var observed, observed.keys.remove(key) != nil else { return }
        observed.defaults.removeObserver(self, forKeyPath: key, context: nil)
        self.observed = observed.keys.isEmpty ? nil : observed
    }

    override func observeValue(
        forKeyPath keyPath: String?,
        of object: Any?,
        change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        guard let keyPath else { return }
        watcher?.keyValueObservingDidFire(forKey: keyPath)
    }
}

#if KEYCATALOG_APPLE_TYPECHECK
/// The Apple type-check's NSObject with KVO's overridable `observeValue` (Linux Foundation's NSObject
/// has none), so that the override above is checked: see Tests/AppleTypeCheck.
typealias _KeyValueObservingBase = NSObjectWithKeyValueObserving
#else
typealias _KeyValueObservingBase = NSObject
#endif
#endif
