/// Where a store announces the changes made through it, and where observers listen.
///
/// Every built-in store has one. The typed observation API (``PersistentKeyValueStore/observe(_:_:)``,
/// ``PersistentKeyValueStore/values(for:)``, ``PersistentKeyValueStore/changes(for:)``) is built on
/// it, and so are platform adapters (Combine, SwiftUI, iCloud's external changes), which post here.
///
/// Handlers run synchronously on the thread that made the change.
///
/// A center may have a watcher (UserDefaults' on Apple platforms) that also posts the changes made
/// outside KeyCatalog; then a value equal to the last one posted for a key is not posted again.
public final class KeyValueChangeCenter: Sendable {
    /// A function called with a key's new stored value, or `nil` when it was removed.
    public typealias Handler = @Sendable (PropertyListValue?) -> Void

    private struct State {
        var nextID = 0
        var handlers: [String: [Int: Handler]] = [:]
        var watcher: (any _KeyValueChangeWatching)?
    }

    private let state = _Locked(State())

    public init() {}

    /// Calls `handler` whenever `key` changes, until the returned observation is cancelled or released.
    public func addObserver(forKey key: String, _ handler: @escaping Handler) -> PersistentKeyObservation {
        let (id, watcherToTell) = state.withLock { state in
            state.nextID += 1
            let isFirst = state.handlers[key] == nil
            state.handlers[key, default: [:]][state.nextID] = handler
            return (state.nextID, isFirst ? state.watcher : nil)
        }
        watcherToTell?.observedKeyDidChange(key)
        return PersistentKeyObservation { [weak self] in
            guard let self else { return }
            let watcherToTell = state.withLock { state -> (any _KeyValueChangeWatching)? in
                guard state.handlers[key]?.removeValue(forKey: id) != nil else { return nil }
                guard state.handlers[key]?.isEmpty == true else { return nil }
                state.handlers[key] = nil
                return state.watcher
            }
            watcherToTell?.observedKeyDidChange(key)
        }
    }

    /// Announces that `key` now holds `value` (`nil`: removed).
    public func post(key: String, value: PropertyListValue?) {
        let (handlers, watcher) = state.withLock { state in (state.handlers[key].map { Array($0.values) }, state.watcher) }
        guard let handlers else { return }
        if let watcher, !watcher.shouldPost(key: key, value: value) { return }
        for handler in handlers {
            handler(value)
        }
    }

    /// Calls the handlers of `key`, bypassing the watcher.
    func deliver(key: String, value: PropertyListValue?) {
        let handlers = state.withLock { state in state.handlers[key].map { Array($0.values) } }
        guard let handlers else { return }
        for handler in handlers {
            handler(value)
        }
    }

    /// Attaches the watcher that posts changes made outside KeyCatalog, unless one is attached;
    /// returns the attached one.
    func attach(_ newWatcher: any _KeyValueChangeWatching) -> any _KeyValueChangeWatching {
        state.withLock { state in
            if let watcher = state.watcher { return watcher }
            state.watcher = newWatcher
            return newWatcher
        }
    }

    /// Whether anybody observes `key`; posting can be skipped otherwise.
    public func hasObservers(forKey key: String) -> Bool {
        state.withLock { $0.handlers[key] != nil }
    }

    /// Every key somebody observes, sorted: what a store posts when all its values may have
    /// changed at once (iCloud's account change).
    var observedKeys: [String] {
        state.withLock { $0.handlers.keys.sorted() }
    }
}

/// Watches a store for changes made outside KeyCatalog and posts them to its center
/// (``_UserDefaultsChangeWatcher``).
protocol _KeyValueChangeWatching: AnyObject, Sendable {
    /// `key` got its first observer, or lost its last one.
    func observedKeyDidChange(_ key: String)

    /// Whether `value` differs from the last value posted for `key` (remembering it if so).
    func shouldPost(key: String, value: PropertyListValue?) -> Bool
}

/// An observation in progress; it ends when cancelled or released.
///
/// ```swift
/// let observation = store.observe(.launchCount) { count in print(count) }
/// // …
/// observation.cancel()
/// ```
public final class PersistentKeyObservation: Sendable, Hashable {
    private let onCancel: _Locked<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = _Locked(onCancel)
    }

    /// Stops the observation; calling it again does nothing.
    public func cancel() {
        let onCancel = onCancel.withLock { onCancel in
            defer { onCancel = nil }
            return onCancel
        }
        onCancel?()
    }

    deinit {
        cancel()
    }

    public static func == (lhs: PersistentKeyObservation, rhs: PersistentKeyObservation) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
