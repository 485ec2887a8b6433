#if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
import Foundation

/// Feeds a UserDefaults center's ``_UserDefaultsChangeWatcher`` on Apple platforms: Key-Value
/// Observing for each observed key KVO can observe (it sees other processes' writes too), and
/// `UserDefaults.didChangeNotification` for the others (keys with `.`: writes in this process only).
final class _UserDefaultsKeyValueObserver: _KeyValueObservingBase, _KeyValueObservingRegistrar, @unchecked Sendable {
    private let defaults: UserDefaults
    /// Set once, before any key is observed.
    private weak var watcher: _UserDefaultsChangeWatcher?
    private var notificationToken: (any NSObjectProtocol)?

    private init(defaults: UserDefaults) {
        self.defaults = defaults
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
        defaults.addObserver(self, forKeyPath: key, options: [], context: nil)
    }

    func stopObserving(key: String) {
        defaults.removeObserver(self, forKeyPath: key, context: nil)
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
