import Foundation
#if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
import Synchronization
#endif

/// Where a store announces the changes made through it, and where observers listen.
///
/// Every built-in store has one. The typed observation API (``PersistentKeyValueStore/observe(_:_:)``,
/// ``PersistentKeyValueStore/values(for:)``, ``PersistentKeyValueStore/changes(for:)``) is built on
/// it, and so are platform adapters (Combine, SwiftUI, iCloud's external changes), which post here.
///
/// Ordering: the handlers of one key run one call at a time, never concurrently, and after any
/// burst of changes from any number of threads every handler's last call carries the store's
/// final value. Stores post with ``postCurrentValue(forKey:in:)`` after their write; the value is
/// read from the store when it is delivered, not when it is posted, so an announcement that
/// arrives late cannot deliver an old value last. A change posted while another thread is
/// delivering the same key is handed to that thread, which delivers again once its round ends;
/// intermediate values may be coalesced into one call.
///
/// Handlers run synchronously, on the thread that made the change or on the thread that was
/// already delivering that key. A handler may change the key it observes: that change is
/// delivered after the handler returns.
///
/// A center may have a watcher (UserDefaults' on Apple platforms) that also announces the changes
/// made outside KeyCatalog; then a value equal to the last one delivered for a key is not
/// delivered again, however many announcements carry it.
public final class KeyValueChangeCenter: Sendable {
    /// A function called with a key's new stored value, or `nil` when it was removed.
    public typealias Handler = @Sendable (PropertyListValue?) -> Void

    /// Where a delivery round gets its value.
    private enum Source {
        case value(PropertyListValue?)
        case current(@Sendable () -> PropertyListValue?)

        var value: PropertyListValue? {
            switch self {
            case .value(let value): value
            case .current(let read): read()
            }
        }
    }

    private struct State {
        var nextID = 0
        var handlers: [String: [Int: Handler]] = [:]
        /// The keys being delivered now, each with the newest change posted meanwhile, if any.
        var deliveries: [String: Source?] = [:]
        var watcher: (any _KeyValueChangeWatching)?
        /// With a watcher: the value last delivered for each observed key.
        var lastDelivered: [String: PropertyListValue?] = [:]
    }

    private let state = _Locked(State())
    #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
    /// How many keys have handlers: every write posts, and with none (the common case) a post
    /// is this one load, inlined into the write, without the lock. (`Atomic` needs macOS 15 and
    /// iOS 18: there, the lock.)
    @usableFromInline let observedKeyCount = Atomic<Int>(0)
    #endif
    /// Observation's view of the keys read through catalogs (`_ReadTracking`), made on
    /// first use; `AnyObject` because Observation needs newer Apple platforms than the package.
    let observationTracking = _Locked<AnyObject?>(nil)

    /// A change center with no observers; a store of your own keeps one and posts to it after each write.
    public init() {}

    /// Calls `handler` whenever `key` changes, until the returned observation is cancelled or released.
    public func addObserver(forKey key: String, _ handler: @escaping Handler) -> PersistentKeyObservation {
        let (id, watcherToTell) = state.withLock { state in
            state.nextID += 1
            let isFirst = state.handlers[key] == nil
            state.handlers[key, default: [:]][state.nextID] = handler
            #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
            if isFirst { observedKeyCount.add(1, ordering: .releasing) }
            #endif
            return (state.nextID, isFirst ? state.watcher : nil)
        }
        watcherToTell?.observedKeyDidChange(key)
        return PersistentKeyObservation { [weak self] in
            guard let self else { return }
            let watcherToTell = state.withLock { state -> (any _KeyValueChangeWatching)? in
                guard state.handlers[key]?.removeValue(forKey: id) != nil else { return nil }
                guard state.handlers[key]?.isEmpty == true else { return nil }
                state.handlers[key] = nil
                #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
                observedKeyCount.subtract(1, ordering: .releasing)
                #endif
                state.lastDelivered[key] = nil
                return state.watcher
            }
            watcherToTell?.observedKeyDidChange(key)
        }
    }

    /// Announces that `key` now holds `value` (`nil`: removed).
    ///
    /// Posts of one key are delivered in the order they are posted; prefer
    /// ``postCurrentValue(forKey:in:)`` after a write that other threads may race with.
    public func post(key: String, value: PropertyListValue?) {
        deliver(key) { .value(value) }
    }

    /// Announces that `key` changed in `store`: its observers get the value the store holds when
    /// the change is delivered (``PersistentKeyValueStore/persistentValue(forKey:)``).
    ///
    /// ```swift
    /// try store.setPersistentValue(.int(3), forKey: "launchCount")
    /// store.keyValueChanges.postCurrentValue(forKey: "launchCount", in: store)
    /// ```
    ///
    /// The store may be read from another thread that is delivering the same key: post only for
    /// stores that are safe to use from any thread (every built-in store is).
    @inlinable
    public func postCurrentValue(forKey key: String, in store: some PersistentKeyValueStore) {
        #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
        // Nobody observes anything: the common case on every write, without a call.
        guard observedKeyCount.load(ordering: .acquiring) > 0 else { return }
        #endif
        postCurrentValueToObservers(forKey: key, in: store)
    }

    /// ``postCurrentValue(forKey:in:)`` once some key has observers.
    @usableFromInline
    func postCurrentValueToObservers(forKey key: String, in store: some PersistentKeyValueStore) {
        deliver(key) {
            let store = _UncheckedSendable<any PersistentKeyValueStore>(store)
            return .current { store.value.persistentValue(forKey: key) }
        }
    }

    /// Delivers `source` to the key's handlers, or hands it to the thread already delivering the
    /// key; loops while changes arrive during a round, so the last round reads after the last change.
    ///
    /// `makeSource` runs only when the key has observers: with none (the common case on every
    /// write) a post costs one lock and one lookup, and allocates nothing.
    private func deliver(_ key: String, _ makeSource: () -> Source) {
        #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
        guard observedKeyCount.load(ordering: .acquiring) > 0 else { return }
        #endif
        let source = state.withLock { state -> Source? in
            // Nobody observes anything (checked before hashing the key), or not this key.
            guard !state.handlers.isEmpty, state.handlers[key] != nil else { return nil }
            let source = makeSource()
            // Held on this thread (``holdingDeliveries(_:)``): made when the hold ends.
            if let held = Self.heldDeliveriesOfThisThread() {
                held.deliveries.append { [self] in deliver(key) { source } }
                return nil
            }
            if state.deliveries[key] != nil {
                state.deliveries[key] = .some(source)
                return nil
            }
            state.deliveries[key] = .some(nil)
            return source
        }
        guard var source else { return }
        while true {
            let value = source.value
            let handlers = state.withLock { state -> [Handler] in
                if state.watcher != nil {
                    // Rounds of one key never overlap, so this is the order observers saw.
                    if let last = state.lastDelivered[key], last == value { return [] }
                    state.lastDelivered[key] = .some(value)
                }
                return (state.handlers[key] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
            }
            for handler in handlers {
                handler(value)
            }
            let next = state.withLock { state -> Source? in
                guard case .some(.some(let pending)) = state.deliveries[key] else {
                    state.deliveries[key] = nil
                    return nil
                }
                state.deliveries[key] = .some(nil)
                return pending
            }
            guard let next else { return }
            source = next
        }
    }

    /// Runs `body` with the deliveries it causes on this thread held, and makes them (on this
    /// thread) once it returned: for code that writes a store while it holds a lock that an
    /// observer may take, since a store may announce a write before the write returns
    /// (UserDefaults' Key-Value Observing does, on Apple platforms). Nested calls hold until the
    /// outermost returns.
    static func holdingDeliveries<Result>(_ body: () throws -> Result) rethrows -> Result {
        let thread = Thread.current.threadDictionary
        if thread[heldDeliveriesKey] is _HeldDeliveries { return try body() }
        let held = _HeldDeliveries()
        thread[heldDeliveriesKey] = held
        holdingThreads.withLock { $0 += 1 }
        defer {
            thread.removeObject(forKey: heldDeliveriesKey)
            holdingThreads.withLock { $0 -= 1 }
            for delivery in held.deliveries { delivery() }
        }
        return try body()
    }

    /// The deliveries held on this thread, if it is in ``holdingDeliveries(_:)``.
    private static func heldDeliveriesOfThisThread() -> _HeldDeliveries? {
        // Nobody holds (the common case): one lock, no thread dictionary.
        guard holdingThreads.withLock({ $0 }) > 0 else { return nil }
        return Thread.current.threadDictionary[heldDeliveriesKey] as? _HeldDeliveries
    }

    private static let heldDeliveriesKey = "KeyCatalog.KeyValueChangeCenter.heldDeliveries"
    /// How many threads are in ``holdingDeliveries(_:)``.
    private static let holdingThreads = _Locked(0)

    /// Whether anybody observes `key`; posting can be skipped otherwise.
    public func hasObservers(forKey key: String) -> Bool {
        state.withLock { $0.handlers[key] != nil }
    }

    /// The value last delivered for `key` while a watcher is attached (`.some(nil)`: a removal);
    /// `nil` when none was since the key gained observers.
    func lastDeliveredValue(forKey key: String) -> PropertyListValue?? {
        state.withLock { $0.lastDelivered[key] }
    }

    /// Attaches the watcher that announces changes made outside KeyCatalog, unless one is
    /// attached; returns the attached one.
    func attach(_ newWatcher: any _KeyValueChangeWatching) -> any _KeyValueChangeWatching {
        state.withLock { state in
            if let watcher = state.watcher { return watcher }
            state.watcher = newWatcher
            return newWatcher
        }
    }

    /// Every key somebody observes, sorted: what a store posts when all its values may have
    /// changed at once (iCloud's account change).
    var observedKeys: [String] {
        state.withLock { $0.handlers.keys.sorted() }
    }
}

/// Watches a store for changes made outside KeyCatalog and announces them to its center
/// (``_UserDefaultsChangeWatcher``).
protocol _KeyValueChangeWatching: AnyObject, Sendable {
    /// `key` got its first observer, or lost its last one.
    func observedKeyDidChange(_ key: String)
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

/// The deliveries one thread holds (``KeyValueChangeCenter/holdingDeliveries(_:)``); only that
/// thread touches it.
private final class _HeldDeliveries {
    var deliveries: [() -> Void] = []
}
