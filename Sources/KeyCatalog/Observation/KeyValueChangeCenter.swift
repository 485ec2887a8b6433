/// Where a store announces the changes made through it, and where observers listen.
///
/// Every built-in store has one. The typed observation API (``PersistentKeyValueStore/observe(_:_:)``,
/// ``PersistentKeyValueStore/values(for:)``, ``PersistentKeyValueStore/changes(for:)``) is built on
/// it, and so are platform adapters (Combine, SwiftUI, iCloud's external changes), which post here.
///
/// Handlers run synchronously on the thread that made the change.
public final class KeyValueChangeCenter: Sendable {
    /// A function called with a key's new stored value, or `nil` when it was removed.
    public typealias Handler = @Sendable (PropertyListValue?) -> Void

    private struct State {
        var nextID = 0
        var handlers: [String: [Int: Handler]] = [:]
    }

    private let state = _Locked(State())

    public init() {}

    /// Calls `handler` whenever `key` changes, until the returned observation is cancelled or released.
    public func addObserver(forKey key: String, _ handler: @escaping Handler) -> PersistentKeyObservation {
        let id = state.withLock { state in
            state.nextID += 1
            state.handlers[key, default: [:]][state.nextID] = handler
            return state.nextID
        }
        return PersistentKeyObservation { [weak self] in
            self?.state.withLock { state in
                state.handlers[key]?[id] = nil
                if state.handlers[key]?.isEmpty == true { state.handlers[key] = nil }
            }
        }
    }

    /// Announces that `key` now holds `value` (`nil`: removed).
    public func post(key: String, value: PropertyListValue?) {
        let handlers = state.withLock { state in state.handlers[key].map { Array($0.values) } }
        guard let handlers else { return }
        for handler in handlers {
            handler(value)
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
