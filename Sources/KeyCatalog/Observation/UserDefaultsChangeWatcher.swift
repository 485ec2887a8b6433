import Foundation

/// Posts the changes made to a UserDefaults suite outside KeyCatalog (`UserDefaults.set`,
/// `@AppStorage`, another process sharing an App Group suite, `defaults write`) to the suite's
/// ``KeyValueChangeCenter``.
///
/// It watches the keys that have observers. When told that something may have changed (a
/// Key-Value Observing callback for one key, or `UserDefaults.didChangeNotification`), it reads
/// each such key and posts those whose value differs from the last one posted; the center then
/// skips posts equal to the last one, so a change announced both by KeyCatalog and by Foundation
/// reaches observers once.
///
/// On Apple platforms every UserDefaults change center gets one, fed by KVO (and by the
/// notification for keys KVO cannot observe: those containing `.` or starting with `@`). Linux has
/// neither: there the center of a suite with a file gets one fed by a watch of that file, which
/// checks the watched keys each time the file changes (another process's write, or a
/// synchronization). ``attach(to:keyValueObserving:)`` returns the watcher a center has, so a
/// write made in this process outside KeyCatalog can be checked at once:
///
/// ```swift
/// let watcher = _UserDefaultsChangeWatcher.attach(to: suite)
/// UserDefaults(suiteName: "group.example")!.set(3, forKey: "LaunchCount")   // outside KeyCatalog
/// watcher.defaultsDidChange()                                               // observers see 3
/// ```
///
/// The underscore: the machinery of Apple platforms' observation, public for tests.
public final class _UserDefaultsChangeWatcher: _KeyValueChangeWatching, Sendable {
    /// A key's value as last read (`nil`: no value), if it was read.
    private struct Seen {
        var value: PropertyListValue?
        /// `false` for a key watched for Observation's trackers alone, which take no value: it is
        /// not read as its watch starts, and its first check posts whatever it reads (at worst a
        /// tracking fired once for nothing).
        var isKnown = true

        static let unknown = Seen(value: nil, isKnown: false)
    }

    private enum Transition {
        case started, stopped, none
    }

    /// Weak: the center holds this watcher, and KeyCatalog holds the center of an instance it does
    /// not keep (one made with `UserDefaults(suiteName:)`) until the instance is released. Set in
    /// `init`, never changed.
    nonisolated(unsafe) private weak var defaults: UserDefaults?
    nonisolated(unsafe) private weak var center: KeyValueChangeCenter?
    private let keyValueObserving: (any _KeyValueObservingRegistrar)?
    /// The watched keys, with the value last read for each; without KVO, a key watched for
    /// Observation's trackers alone only once checked (see ``isWatchedWithoutEntry(_:in:)``).
    private let lastSeen = _Locked<[String: Seen]>([:])
    /// The center's mark of its observed keys at the last check of every key (see
    /// ``defaultsDidChange()``).
    private let observedKeysMark = _Locked<Int?>(nil)
    /// Serializes starting and stopping to watch a key, so that KVO registrations stay balanced.
    private let transitions = NSLock()

    init(defaults: UserDefaults, center: KeyValueChangeCenter, keyValueObserving: (any _KeyValueObservingRegistrar)?) {
        self.defaults = defaults
        self.center = center
        self.keyValueObserving = keyValueObserving
    }

    /// Attaches a watcher to the change center of `defaults` and returns it; if the center has one
    /// already, returns that one.
    ///
    /// ```swift
    /// let watcher = _UserDefaultsChangeWatcher.attach(to: suite)
    /// ```
    ///
    /// - Parameters:
    ///   - defaults: The instance whose values are read.
    ///   - keyValueObserving: Starts and stops KVO of each observed key that KVO can observe; those
    ///     keys are then checked on ``keyValueObservingDidFire(forKey:)`` only. Without it, every
    ///     observed key is checked on ``defaultsDidChange()``.
    public static func attach(
        to defaults: UserDefaults,
        keyValueObserving: (any _KeyValueObservingRegistrar)? = nil
    ) -> _UserDefaultsChangeWatcher {
        let center = defaults.keyValueChanges
        let watcher = _UserDefaultsChangeWatcher(defaults: defaults, center: center, keyValueObserving: keyValueObserving)
        guard let attached = center.attach(watcher) as? _UserDefaultsChangeWatcher else {
            preconditionFailure("a UserDefaults change center has a watcher of another kind")
        }
        if attached === watcher {
            for key in center.observedKeys { watcher.observedKeyDidChange(key, takesValue: center.hasValueReaders(forKey: key)) }
        }
        return attached
    }

    /// Whether Key-Value Observing can observe `key`: not when it contains `.` (KVO reads it as a
    /// key path) or starts with `@` (a collection operator), nor when it is empty.
    public static func canObserveWithKeyValueObserving(_ key: String) -> Bool {
        !key.isEmpty && !key.contains(".") && !key.hasPrefix("@")
    }

    /// The trigger for a KVO callback: checks `key`, if it is watched.
    public func keyValueObservingDidFire(forKey key: String) {
        check([key])
    }

    /// The trigger for `UserDefaults.didChangeNotification`: checks every watched key that KVO does
    /// not cover (all of them without KVO).
    public func defaultsDidChange() {
        var keys = lastSeen.withLock { Array($0.keys) }
        // Without KVO, keys watched for Observation's trackers alone have no entry until checked:
        // the keys that gained observers since the last such check are added (each check gives
        // them entries).
        if keyValueObserving == nil, let center {
            let mark = observedKeysMark.withLock { $0 }
            if let (observed, newMark) = center.observedKeys(since: mark) {
                keys = Array(Set(keys).union(observed))
                observedKeysMark.withLock { $0 = newMark }
            }
        }
        check(keys.filter { !isCoveredByKeyValueObserving($0) })
    }

    /// The keys being watched: those that have observers.
    public var watchedKeys: Set<String> {
        var keys = lastSeen.withLock { Set($0.keys) }
        // Without KVO, keys watched for Observation's trackers alone have no entry until checked.
        if keyValueObserving == nil, let center { keys.formUnion(center.observedKeys) }
        return keys
    }

    private func isCoveredByKeyValueObserving(_ key: String) -> Bool {
        keyValueObserving != nil && Self.canObserveWithKeyValueObserving(key)
    }

    /// Posts each watched key among `keys` whose stored value differs from the one its observers
    /// heard last: the center's last delivery (KeyCatalog's own writes reach observers without
    /// passing here), else the value when watching began. A key observed by Observation's trackers
    /// alone, to which a change was delivered since the last check (without a value: KeyCatalog's
    /// own write), is posted whatever it holds: its trackers read the value after that change, not
    /// the one read here before (found by a review: a write of "dark", then another writer's
    /// "light" back, compared equal to the "light" read before, and the trackers never heard it).
    ///
    /// The values are read outside the lock: reading one that is no property-list value reports
    /// it, and the failure handler may use this suite (a write, whose key-value observation comes
    /// back here).
    private func check(_ keys: [String]) {
        guard let center, let defaults else { return }
        let entries = lastSeen.withLock { lastSeen in keys.map { lastSeen[$0] != nil } }
        let watched = zip(keys, entries).compactMap { key, hasEntry in hasEntry || isWatchedWithoutEntry(key, in: center) ? key : nil }
        guard !watched.isEmpty else { return }
        let changedUnread = center.takeChangesPostedUnread(watched)
        let values = watched.map { defaults.persistentValue(forKey: $0) }
        let changed: [String] = lastSeen.withLock { lastSeen in
            zip(watched, zip(values, changedUnread)).compactMap { key, read in
                let (current, isChangedUnread) = read
                guard let seen = lastSeen[key] ?? (isWatchedWithoutEntry(key, in: center) ? .unknown : nil) else {
                    return nil  // No longer watched, since.
                }
                lastSeen[key] = Seen(value: current)
                if let heard = center.lastDeliveredValue(forKey: key) { return PropertyListValue.isIdentical(current, heard) ? nil : key }
                return !seen.isKnown || isChangedUnread || !PropertyListValue.isIdentical(current, seen.value) ? key : nil
            }
        }
        for key in changed {
            center.postCurrentValueFromWatcher(forKey: key, in: defaults)
        }
    }

    // MARK: - The center's hooks

    /// Whether `key`, which has no entry, is watched all the same: without KVO, a key watched for
    /// Observation's trackers alone gets no entry as it gains them (on Linux the entry cost a
    /// key's first read through a catalog about 2,700-3,500 of its 22,227 instructions), and its
    /// first check takes it for ``Seen/unknown``, which is what its entry held.
    private func isWatchedWithoutEntry(_ key: String, in center: KeyValueChangeCenter) -> Bool {
        keyValueObserving == nil && center.hasObservers(forKey: key)
    }

    func observedKeyDidChange(_ key: String, takesValue: Bool) {
        // A key that gained or lost observers that take no value, with no entry: nothing to
        // record (see ``isWatchedWithoutEntry(_:in:)``), nor to stop.
        if !takesValue, keyValueObserving == nil, lastSeen.withLock({ $0[key] == nil }) { return }
        // Read before the locks, as in ``check(_:)``: the failure handler may use this suite
        // (observe a key of it, whose first observer comes back here). Only for observers that
        // take the value: Observation's trackers of a read do not (the read, and the check after
        // it, cost a parameterized key's first read on Linux about 23,000 instructions, about half
        // of what it cost over a raw read).
        let value = takesValue ? defaults?.persistentValue(forKey: key) : nil
        let isRead: Bool = transitions.withLock {
            guard let center else { return false }
            let isObserved = center.hasObservers(forKey: key)
            let (transition, isRead): (Transition, Bool) = lastSeen.withLock { lastSeen in
                switch (isObserved, lastSeen[key]) {
                case (true, nil):
                    lastSeen[key] = takesValue ? Seen(value: value) : .unknown
                    return (.started, takesValue)
                case (true, let seen?) where takesValue && !seen.isKnown:
                    // A first observer that takes the value, of a key watched for Observation's
                    // trackers alone (the center tells of it): compared with from now on.
                    lastSeen[key] = Seen(value: value)
                    return (.none, true)
                case (false, _?):
                    lastSeen[key] = nil
                    return (.stopped, false)
                default:
                    return (.none, false)
                }
            }
            if let keyValueObserving, Self.canObserveWithKeyValueObserving(key) {
                switch transition {
                case .started: keyValueObserving.startObserving(key: key)
                case .stopped: keyValueObserving.stopObserving(key: key)
                case .none: break
                }
            }
            return isRead
        }
        // A change between the read above and the watch (its KVO registration, or its entry for
        // the next notification) would otherwise go unseen, and a check that ran in between
        // would have its newer value replaced by that read's.
        if isRead { check([key]) }
    }
}

/// Starts and stops Key-Value Observing of UserDefaults keys for a ``_UserDefaultsChangeWatcher``,
/// which calls it for keys that KVO can observe, once per key as it gains its first observer and
/// loses its last one.
///
/// ```swift
/// final class Registrar: _KeyValueObservingRegistrar {
///     func startObserving(key: String) { defaults.addObserver(self, forKeyPath: key, context: nil) }
///     func stopObserving(key: String) { defaults.removeObserver(self, forKeyPath: key, context: nil) }
/// }
/// ```
///
/// The underscore: the machinery of Apple platforms' observation, public for tests.
public protocol _KeyValueObservingRegistrar: AnyObject, Sendable {
    /// Starts observing `key`; its callbacks call the watcher's
    /// ``_UserDefaultsChangeWatcher/keyValueObservingDidFire(forKey:)``.
    func startObserving(key: String)

    /// Stops observing `key`.
    func stopObserving(key: String)
}
