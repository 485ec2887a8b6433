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
/// A center may have a watcher (UserDefaults' and the file store's) that also announces the
/// changes made outside KeyCatalog; then a value equal to the last one delivered for a key is not
/// delivered again, however many announcements carry it. (Observation's trackers of catalog keys,
/// which take no value, may be told of a change twice.)
public final class KeyValueChangeCenter: Sendable {
    /// A function called with a key's new stored value, or `nil` when it was removed.
    public typealias Handler = @Sendable (PropertyListValue?) -> Void

    /// Where a delivery round gets its value.
    private enum Source {
        case value(PropertyListValue?)
        /// What the store holds when the round reads it.
        case current(_UncheckedSendable<any PersistentKeyValueStore>)

        func value(forKey key: String) -> PropertyListValue? {
            switch self {
            case .value(let value): value
            case .current(let store): store.value.persistentValue(forKey: key)
            }
        }
    }

    private struct Registration {
        let id: Int
        let handler: Handler
        /// Whether the handler uses the value (Observation's handlers are only told of a change).
        let readsValue: Bool
    }

    /// A key with handlers, or being delivered. A class, so that a delivery finds it again
    /// without hashing the key. Touched only under `state`'s lock, which makes the run-time
    /// exclusivity checks of its properties (about 40 instructions an access) needless.
    private final class ObservedKey {
        /// The spelling its first handler was added under, which the filter of observed keys
        /// noted (another spelling, equal as a `String`, may remove its last handler).
        @exclusivity(unchecked) var name: String
        /// In the order they were added.
        @exclusivity(unchecked) var handlers: [Registration] = []
        /// How many of `handlers` use the value: with none, a round reads nothing (and, with a
        /// watcher, is not compared with the last one: a handler that takes no value may be called
        /// again for an unchanged one).
        @exclusivity(unchecked) var valueReaders = 0
        /// Whether some thread is delivering the key now.
        @exclusivity(unchecked) var isDelivering = false
        /// The newest change posted while the key was being delivered.
        @exclusivity(unchecked) var pending: Source?
        /// With a watcher: the value last delivered (`.some(nil)`: a removal), or `nil` when none
        /// was since the key gained handlers that use it.
        @exclusivity(unchecked) var lastDelivered: PropertyListValue??
        /// Whether a change was posted, other than by the watcher, while no handler used the
        /// value (so that none was read or recorded in ``lastDelivered``), since the watcher last
        /// took it (``takeChangesPostedUnread(_:)``): the watcher's next check then posts what it
        /// reads, even a value equal to the one it read before.
        @exclusivity(unchecked) var isChangedUnread = false
        /// Its slot in ``ObservedKeys``' table of keys declared in code, or -1.
        @exclusivity(unchecked) var slot = -1

        init(name: String) {
            self.name = name
        }
    }

    /// The keys with handlers or being delivered, by name; those declared in code
    /// (``_StringIdentity``) are also found by their `String` value's words, without a hash of the
    /// name (about 350 instructions, a sixth of a write to a tracked key).
    private struct ObservedKeys {
        private static let slotBits = 5
        private(set) var byName: [String: ObservedKey] = [:]
        /// A key of `byName` in the slot its name's words choose, with those words; the first one
        /// there keeps it, and leaves it when it leaves `byName`.
        private var bySlot = [(identity: _StringIdentity, observed: ObservedKey?)](
            repeating: (.none, nil), count: 1 << slotBits)

        var isEmpty: Bool { byName.isEmpty }

        subscript(name: String) -> ObservedKey? {
            get {
                if let identity = _StringIdentity(name) {
                    let slot = bySlot[identity.slot(amongPowerOfTwo: Self.slotBits)]
                    // Equal words, equal names. Other words may still name a key: asked by name.
                    if slot.identity == identity { return slot.observed }
                }
                return byName[name]
            }
            set {
                let old = if let newValue { byName.updateValue(newValue, forKey: name) } else { byName.removeValue(forKey: name) }
                if let old, old.slot >= 0 {
                    bySlot[old.slot] = (.none, nil)
                    old.slot = -1
                }
                if let newValue { claimSlot(for: newValue, named: name) }
            }
        }

        /// The key named `name`, added if there is none: one hash of the name either way (a
        /// lookup, then a `set` of the subscript, is two).
        mutating func findOrAdd(_ name: String) -> ObservedKey {
            if let identity = _StringIdentity(name) {
                let slot = bySlot[identity.slot(amongPowerOfTwo: Self.slotBits)]
                if slot.identity == identity, let observed = slot.observed { return observed }
            }
            var added = false
            let observed = Self.value(
                &byName[
                    name,
                    default: {
                        added = true
                        return ObservedKey(name: name)
                    }()
                ])
            if added { claimSlot(for: observed, named: name) }
            return observed
        }

        /// Puts `observed`, just added, in its name's slot, if the name has words and the slot is free.
        private mutating func claimSlot(for observed: ObservedKey, named name: String) {
            guard let identity = _StringIdentity(name) else { return }
            let slot = identity.slot(amongPowerOfTwo: Self.slotBits)
            guard bySlot[slot].observed == nil else { return }
            bySlot[slot] = (identity, observed)
            observed.slot = slot
        }

        /// What `value` holds: through `inout`, a dictionary's `subscript(_:default:)` finds a
        /// key or adds it in one lookup.
        @inline(__always)
        private static func value<Value>(_ value: inout Value) -> Value {
            value
        }
    }

    private struct State {
        var nextID = 0
        var keys = ObservedKeys()
        /// How many of `keys` have handlers (the others are being delivered).
        var observedCount = 0
        /// How many times a key gained its first handler (see ``observedKeys(since:)``).
        var keysObservedAnew = 0
        var watcher: (any _KeyValueChangeWatching)?
    }

    /// One round of a delivery: where it reads its value, if a handler takes it, and, unless a
    /// watcher compares the value with the last one delivered, the handlers to call.
    private struct Round {
        /// `nil` when no handler takes the value: nothing is read.
        let source: Source?
        /// `nil` when a watcher compares values: the handlers are taken once the value is known.
        let handlers: [Registration]?

        init(_ observed: ObservedKey, _ source: () -> Source, hasWatcher: Bool) {
            let readsValue = observed.valueReaders > 0
            self.source = readsValue ? source() : nil
            handlers = readsValue && hasWatcher ? nil : observed.handlers
        }
    }

    private let state = _Locked(State())
    #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
    /// How many keys have handlers: every write posts, and with none (the common case) a post
    /// is this one load, inlined into the write, without the lock. (`Atomic` needs macOS 15 and
    /// iOS 18: there, the lock.)
    @usableFromInline let observedKeyCount = Atomic<Int>(0)
    /// Which keys may have handlers: a post of another key returns without the lock.
    private let observedKeyFilter = _ObservedKeyFilter()
    #endif
    /// Observation's view of the keys read through catalogs (`_ReadTracking`), made on
    /// first use; `AnyObject` because Observation needs newer Apple platforms than the package.
    let observationTracking = _SetOnceReference<AnyObject & Sendable>()

    /// What each observation keeps while it lasts (``addObserver(forKey:_:)``): a file store's
    /// shared state, which holds this center, so that an observer keeps hearing of the file's
    /// changes after every store of it is released. Weak: it holds the center. Set before the
    /// center is shared, never changed.
    nonisolated(unsafe) weak var keptByObservations: (AnyObject & Sendable)?
    /// A file store's: the center of the file's shared state now, where an observer added here
    /// goes once this center's state is gone (a center held without a store). Set with
    /// ``keptByObservations``.
    nonisolated(unsafe) var currentCenterOfFile: (@Sendable () -> (center: KeyValueChangeCenter, state: AnyObject & Sendable))?
    /// A file store's: told of Observation's view of this center's keys when it is made, so that
    /// the file's next state adopts it (``adoptObservationTracking(_:)``) and catalog reads
    /// tracked before keep hearing of changes. Set with ``keptByObservations``.
    nonisolated(unsafe) var observationTrackingMade: (@Sendable (AnyObject & Sendable) -> Void)?

    /// A change center with no observers; a store of your own keeps one and posts to it after each write.
    public init() {}

    /// Calls `handler` whenever `key` changes, until the returned observation is cancelled or released.
    ///
    /// The observation of a file store's key keeps the file's shared state while it lasts: it
    /// hears the changes made through stores opened on the file later. (A file store's center held
    /// after every store and observer of the file was released adds the observer to the center
    /// of the file's state now; its other methods act on the center held, which no store posts
    /// to any more: take `keyValueChanges` from a store you keep.)
    public func addObserver(forKey key: String, _ handler: @escaping Handler) -> PersistentKeyObservation {
        addObserver(forKey: key, readsValue: true, handler)
    }

    /// ``addObserver(forKey:_:)``; a handler that does not read its value (`readsValue: false`)
    /// may be called with `nil`, and spares the store a read when only such handlers observe a key.
    ///
    /// A delivery that starts after the observation's `cancel()` returned, or reaches this
    /// observer after it (one under way on another thread, or by an earlier handler of the same
    /// change, which took the handlers before the cancellation), does not call `handler`. A call
    /// that had already passed that check on another thread may still be running, or just
    /// starting, as `cancel()` returns: `cancel()` does not wait for it, so that a handler that
    /// waits for the cancelling thread (as `DispatchQueue.main.sync` from a background
    /// delivery, with `cancel()` on the main thread) cannot deadlock.
    func addObserver(forKey key: String, readsValue: Bool, _ handler: @escaping Handler) -> PersistentKeyObservation {
        addObserver(forKey: key, readsValue: readsValue) { value, isObserving in
            if isObserving() { handler(value) }
        }
    }

    /// ``addObserver(forKey:readsValue:_:)`` for a handler that prepares its call (decodes the
    /// value) before it calls out: it asks `isObserving` just before, so that a cancellation made
    /// during the preparation stops the call (found by a review: a slow decode let a handler run
    /// after `cancel()` returned, every time).
    func addObserver(
        forKey key: String, readsValue: Bool, preparing handler: @escaping @Sendable (PropertyListValue?, _ isObserving: () -> Bool) -> Void
    ) -> PersistentKeyObservation {
        let kept = keptByObservations
        if kept == nil, let current = currentCenterOfFile?(), current.center !== self {
            // The state is held while the observer is added: the new observation keeps it then.
            return withExtendedLifetime(current.state) { current.center.addObserver(forKey: key, readsValue: readsValue, preparing: handler) }
        }
        let isCancelled = _Locked(false)
        let id = register(
            { value in
                if !isCancelled.withLock({ $0 }) { handler(value) { !isCancelled.withLock { $0 } } }
            }, forKey: key, readsValue: readsValue)
        return PersistentKeyObservation { [weak self] in
            withExtendedLifetime(kept) {}
            isCancelled.withLock { $0 = true }
            self?.removeHandler(id, forKey: key)
        }
    }

    /// Calls `handler` whenever `key` changes, for the center's whole life: for Observation's
    /// trackers of catalog reads, which nothing ends. No ``PersistentKeyObservation`` is made for
    /// it (an object, its lock and its closure, which the tracking kept: about 1,800 instructions
    /// and 4 heap blocks of a key's first read).
    func addObserverForCentersLife(forKey key: String, readsValue: Bool, _ handler: @escaping Handler) {
        register(handler, forKey: key, readsValue: readsValue)
    }

    /// Adds `handler` to the handlers of `key`; returns its id.
    @discardableResult
    private func register(_ handler: @escaping Handler, forKey key: String, readsValue: Bool) -> Int {
        let (id, watcherToTell, takesValue) = state.withLock { state in
            state.nextID += 1
            let observed = state.keys.findOrAdd(key)
            let isFirst = observed.handlers.isEmpty
            observed.handlers.append(Registration(id: state.nextID, handler: handler, readsValue: readsValue))
            if readsValue { observed.valueReaders += 1 }
            if isFirst {
                observed.name = key
                state.observedCount += 1
                state.keysObservedAnew += 1
            }
            #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
            if isFirst {
                observedKeyFilter.insert(key)
                observedKeyCount.add(1, ordering: .releasing)
            }
            #endif
            // The watcher is told of a key's first observer, and of its first that takes the value
            // (Observation's trackers do not: a key watched for them alone is not read).
            let isFirstValueReader = readsValue && observed.valueReaders == 1
            return (state.nextID, isFirst || isFirstValueReader ? state.watcher : nil, observed.valueReaders > 0)
        }
        watcherToTell?.observedKeyDidChange(key, takesValue: takesValue)
        return id
    }

    /// Removes the handler `id` of `key`.
    private func removeHandler(_ id: Int, forKey key: String) {
        let watcherToTell = state.withLock { state -> (any _KeyValueChangeWatching)? in
            guard let observed = state.keys[key], let index = observed.handlers.firstIndex(where: { $0.id == id }) else { return nil }
            if observed.handlers.remove(at: index).readsValue {
                observed.valueReaders -= 1
                // Rounds without value readers leave it as it was: a later reader must not be
                // compared with it.
                if observed.valueReaders == 0 { observed.lastDelivered = nil }
            }
            guard observed.handlers.isEmpty else { return nil }
            state.observedCount -= 1
            #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
            observedKeyCount.subtract(1, ordering: .releasing)
            observedKeyFilter.remove(observed.name)
            #endif
            // Being delivered: the round that ends last removes it.
            if !observed.isDelivering { state.keys[key] = nil }
            return state.watcher
        }
        watcherToTell?.observedKeyDidChange(key, takesValue: false)
    }

    /// Announces that `key` now holds `value` (`nil`: removed).
    ///
    /// Posts of one key are delivered in the order they are posted; prefer
    /// ``postCurrentValue(forKey:in:)`` after a write that other threads may race with.
    public func post(key: String, value: PropertyListValue?) {
        guard mayHaveHandlers(forKey: key) else { return }
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
        guard mayHaveHandlers(forKey: key) else { return }
        deliver(key) { .current(_UncheckedSendable(store)) }
    }

    /// ``postCurrentValue(forKey:in:)`` by the watcher, after a check that read the value: not
    /// a change it has yet to see (``takeChangesPostedUnread(_:)``).
    func postCurrentValueFromWatcher(forKey key: String, in store: some PersistentKeyValueStore) {
        guard mayHaveHandlers(forKey: key) else { return }
        deliver(key, isFromWatcher: true) { .current(_UncheckedSendable(store)) }
    }

    /// Whether `key` may have handlers, told without the lock and before any call (Linux; on Apple
    /// platforms, where `Atomic` needs macOS 15, ``deliver(_:_:)`` asks under the lock): `false`
    /// for a key nobody observes, most often even while others are observed
    /// (``_ObservedKeyFilter``).
    @inline(__always)
    private func mayHaveHandlers(forKey key: String) -> Bool {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        true
        #else
        observedKeyFilter.mayContain(key)
        #endif
    }

    /// Delivers `source` to the key's handlers, or hands it to the thread already delivering the
    /// key; loops while changes arrive during a round, so the last round reads after the last change.
    ///
    /// Posts ask ``mayHaveHandlers(forKey:)`` first: with no observer at all (the common case on
    /// every write) a post costs one load, and allocates nothing; a key nobody observes while
    /// others are observed most often costs a fingerprint of the key (``_ObservedKeyFilter``).
    /// Here, `makeSource` runs only when the key has observers: a key without costs one lock and
    /// one lookup, an observed key one lookup, and a store read only if some handler uses the
    /// value.
    ///
    /// A source replaced or dropped under the lock is released after it: it may hold the last
    /// store of a file, whose state's `deinit` takes this lock.
    ///
    /// `isFromWatcher`: posted by the watcher's check, which read the value; any other change of a
    /// key whose handlers take no value is noted for the watcher (``ObservedKey/isChangedUnread``).
    private func deliver(_ key: String, isFromWatcher: Bool = false, _ makeSource: () -> Source) {
        // The source replaced, dropped here: after the lock.
        let (first, _) = state.withLock { state -> ((ObservedKey, Round)?, Source?) in
            // Nobody observes anything (checked before hashing the key), or not this key.
            guard !state.keys.isEmpty, let observed = state.keys[key], !observed.handlers.isEmpty else { return (nil, nil) }
            // Observation's trackers alone: this change is delivered without a value, which the
            // watcher, comparing what it reads with what it read before, would not know of (a
            // write of "dark", then another writer's "light" back, read "light" both times).
            if !isFromWatcher, observed.valueReaders == 0 { observed.isChangedUnread = true }
            // Held on this thread (``_HeldCallbacks``): made when the hold ends.
            if let held = _HeldCallbacks.ofThisThread() {
                let source = makeSource()
                held.append { [self] in deliver(key, isFromWatcher: isFromWatcher) { source } }
                return (nil, nil)
            }
            if observed.isDelivering {
                let replaced = observed.pending
                observed.pending = makeSource()
                return (nil, replaced)
            }
            observed.isDelivering = true
            return ((observed, Round(observed, makeSource, hasWatcher: state.watcher != nil)), nil)
        }
        guard case (let observed, var round)? = first else { return }
        while true {
            let value = round.source?.value(forKey: key)
            let handlers =
                round.handlers
                ?? state.withLock { _ -> [Registration] in
                    // With a watcher. Rounds of one key never overlap, so this is the order
                    // observers saw. The value readers may all have gone while the value was read:
                    // then it is not recorded, as for any round without them.
                    guard observed.valueReaders > 0 else { return observed.handlers }
                    if let last = observed.lastDelivered, PropertyListValue.isIdentical(last, value) { return [] }
                    observed.lastDelivered = .some(value)
                    return observed.handlers
                }
            for registration in handlers {
                registration.handler(value)
            }
            // The source taken, dropped here if the round did not keep it: after the lock.
            let (next, _) = state.withLock { state -> (Round?, Source?) in
                guard let pending = observed.pending else {
                    observed.isDelivering = false
                    if observed.handlers.isEmpty, state.keys[key] === observed { state.keys[key] = nil }
                    return (nil, nil)
                }
                observed.pending = nil
                // A round that reads no value does not keep it: released after the lock.
                return (Round(observed, { pending }, hasWatcher: state.watcher != nil), pending)
            }
            guard let next else { return }
            round = next
        }
    }

    /// Whether anybody observes `key`; posting can be skipped otherwise.
    public func hasObservers(forKey key: String) -> Bool {
        state.withLock { $0.keys[key]?.handlers.isEmpty == false }
    }

    /// Whether any key has observers: unlike ``observedKeys``, without a walk of every key.
    var hasObservedKeys: Bool {
        state.withLock { $0.observedCount > 0 }
    }

    /// Whether some observer of `key` takes its value (Observation's trackers of catalog keys do
    /// not: they are only told of a change, and read the key themselves).
    func hasValueReaders(forKey key: String) -> Bool {
        state.withLock { ($0.keys[key]?.valueReaders ?? 0) > 0 }
    }

    /// The value last delivered for `key` while a watcher is attached (`.some(nil)`: a removal);
    /// `nil` when none was since the key gained handlers that take the value.
    func lastDeliveredValue(forKey key: String) -> PropertyListValue?? {
        state.withLock { $0.keys[key]?.lastDelivered ?? nil }
    }

    /// For the watcher, before it reads `keys`: whether a change of each was posted while no
    /// handler took the value, other than by the watcher, since it last asked. Asked before the
    /// reads, so that they see each such change (a store posts after its write).
    func takeChangesPostedUnread(_ keys: [String]) -> [Bool] {
        state.withLock { state in
            keys.map { key in
                guard let observed = state.keys[key], observed.isChangedUnread else { return false }
                observed.isChangedUnread = false
                return true
            }
        }
    }

    /// The watcher attached, if any.
    var attachedWatcher: (any _KeyValueChangeWatching)? {
        state.withLock { $0.watcher }
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
        state.withLock { Self.observedKeys(in: $0) }
    }

    /// ``observedKeys`` and a mark to pass the next call, if some key gained its first observer
    /// since the call that returned `mark` (`nil` at first); `nil` if none did.
    func observedKeys(since mark: Int?) -> (keys: [String], mark: Int)? {
        state.withLock { state in
            guard state.keysObservedAnew != mark else { return nil }
            return (Self.observedKeys(in: state), state.keysObservedAnew)
        }
    }

    private static func observedKeys(in state: State) -> [String] {
        state.keys.byName.filter { !$0.value.handlers.isEmpty }.keys.sorted()
    }
}

/// Watches a store for changes made outside KeyCatalog and announces them to its center
/// (``_UserDefaultsChangeWatcher``).
protocol _KeyValueChangeWatching: AnyObject, Sendable {
    /// `key` got its first observer, or its first that takes the value, or lost its last one.
    /// `takesValue`: whether some observer of the key took its value as the center called (the
    /// center's count then, which spares the watcher a second lookup of the key).
    func observedKeyDidChange(_ key: String, takesValue: Bool)
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
    ///
    /// Once it returned, no later delivery calls the handler, nor one under way that reaches this
    /// observer afterwards. A call already past that check on another thread is not waited for (it
    /// may be running, or about to start), so that a handler that waits for the cancelling thread
    /// cannot deadlock: a handler must not rely on state its owner frees right after cancelling it
    /// from another thread.
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
