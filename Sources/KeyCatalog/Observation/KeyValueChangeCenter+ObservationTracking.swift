import Observation

extension KeyValueChangeCenter {
    /// Observation's view of this center's keys (see ``_ReadTracking``), made on first use.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    fileprivate func observationTrackingObject() -> _ObservationTracking {
        // Only ever an `_ObservationTracking` (set below): no dynamic cast on every read.
        if let tracking = observationTracking.withObject({ unsafeDowncast($0, to: _ObservationTracking.self) }) {
            return tracking
        }
        let made = _ObservationTracking()
        let tracking = unsafeDowncast(observationTracking.setIfNone(made), to: _ObservationTracking.self)
        if tracking === made { observationTrackingMade?(made) }
        return tracking
    }

    /// Makes `tracking`, Observation's view of the keys of another center of the same store (a
    /// file store's earlier state), this new center's, and observes each of its keys here: the
    /// catalog reads tracked before hear of the changes made through this center. Called before
    /// any read is tracked through this center.
    /// Makes `tracking` this new center's view before the center is shared, so that a catalog
    /// read through it at once finds the keys read before (and, as none is observed here yet,
    /// observes its key itself); ``adoptObservationTracking(_:)`` then observes every key.
    func presetObservationTracking(_ tracking: AnyObject & Sendable) {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let tracking = unsafeDowncast(tracking, to: _ObservationTracking.self)
        _ = observationTracking.setIfNone(tracking)
        tracking.forgetObservers()
    }

    /// Returns the keys it observes.
    @discardableResult
    func adoptObservationTracking(_ tracking: AnyObject & Sendable) -> [String] {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return [] }
        let tracking = unsafeDowncast(tracking, to: _ObservationTracking.self)
        _ = observationTracking.setIfNone(tracking)
        return tracking.observeEveryKey(in: self)
    }

    /// The keys read through catalogs whose trackers this center tells of changes.
    var observationTrackedKeys: [String] {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return [] }
        return observationTracking.withObject { unsafeDowncast($0, to: _ObservationTracking.self).trackedKeys } ?? []
    }
}

/// Registers a ``CatalogKey``'s reads with Observation, so that `withObservationTracking` (and
/// SwiftUI) around a read fires on the key's next change through its store's center:
///
/// ```swift
/// withObservationTracking { _ = keys.theme } onChange: { print("theme changed") }
/// ```
///
/// The first tracked read of a key adds one observer for it to the center, kept for the
/// center's life: Observation does not say when a tracking ends.
///
/// What a ``CatalogKey`` keeps so that registering each of its reads with Observation costs a
/// load (a lock on Apple platforms, where `Atomic` needs macOS 15) and a thread-local check: once
/// its store's center observes the key, the object its reads are tracked with. (Finding it by the
/// key's name costs a lock and a hash of it: about 500 instructions a read of a 17-byte key, by
/// callgrind.)
@usableFromInline
final class _ReadTracking: Sendable {
    let key: String
    /// The key's ``_ObservedKeyChanges`` (kept as `AnyObject`: its type needs macOS 14), once
    /// known; read without a lock or a retain (a retain on every read cost more than the read).
    private let known = _SetOnceReference<AnyObject & Sendable>()

    @usableFromInline
    init(key: String) {
        self.key = key
    }

    /// Registers a read of the key in `store` with Observation.
    @usableFromInline
    func track(in store: AnyPersistentKeyValueStore) {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let wasKnown: Void? = known.withObject { unsafeDowncast($0, to: _ObservedKeyChanges.self).access() }
        if wasKnown != nil { return }
        known.setIfNone(Self.access(key, in: store))
    }

    /// Registers a read of `key` in `store` with Observation, finding what it is tracked under by
    /// its name (for a ``CatalogKey`` that keeps no `_ReadTracking`).
    @usableFromInline
    static func track(_ key: String, in store: AnyPersistentKeyValueStore) {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        _ = access(key, in: store)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    private static func access(_ key: String, in store: AnyPersistentKeyValueStore) -> _ObservedKeyChanges {
        // Only ever an `_ObservationTracking` (set below): no dynamic cast on every read.
        if let changes = store.observationTracking.withObject({ unsafeDowncast($0, to: _ObservationTracking.self).access(key, in: store) }) {
            return changes
        }
        let tracking = store.keyValueChanges.observationTrackingObject()
        return unsafeDowncast(store.observationTracking.setIfNone(tracking), to: _ObservationTracking.self).access(key, in: store)
    }
}

/// One key as Observation sees it: a read of the key is an access to ``change``, and a change
/// of the key a mutation of it.
///
/// An object of its own for each key, whose key path is a constant: a key path built for each
/// key (`\.[key: name]`) cost about 9,000 instructions on a key's first read (callgrind), this
/// object about 600.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class _ObservedKeyChanges: Observable, Sendable {
    private let registrar = ObservationRegistrar()
    /// Made once, and kept by every object: a key path literal is looked up on each use (about 60
    /// instructions), a static one checked for its initialization (about 7), and a read of a
    /// stored one retains it (about 10). (`Unmanaged` is not `Sendable`; a key path is immutable.)
    nonisolated(unsafe) private static let sharedChangeKeyPath = Unmanaged.passRetained(
        \_ObservedKeyChanges.change as KeyPath<_ObservedKeyChanges, Int>)
    nonisolated(unsafe) private let changeKeyPath = sharedChangeKeyPath

    /// Nothing to read: its key path is what Observation tracks.
    var change: Int { 0 }

    /// Whether the key's center has an observer that tells this object of changes; guarded by the
    /// lock of the ``_ObservationTracking`` that made it.
    nonisolated(unsafe) fileprivate var isObserved = false

    /// Registers a read of the key.
    func access() {
        changeKeyPath._withUnsafeGuaranteedRef { registrar.access(self, keyPath: $0) }
    }

    /// Tells the trackers of the key's reads that it changed.
    func keyDidChange() {
        changeKeyPath._withUnsafeGuaranteedRef { registrar.withMutation(of: self, keyPath: $0) {} }
    }
}

/// One center's keys as Observation sees them: a ``_ObservedKeyChanges`` for each key read.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class _ObservationTracking: Sendable {
    /// The keys read before, each with its changes object, by the keys' bytes (``_ExactKey``),
    /// whose hash costs about a quarter of `String`'s. Two spellings of one key that are equal as
    /// a `String` (a composed and a decomposed accent) are two entries here, but one key to the
    /// center: each entry's observer hears the changes of both.
    private let tracked = _Locked<[_ExactKey: _ObservedKeyChanges]>([:])

    /// Registers a read of `key`, observing it through the change center of `store` (this
    /// object's center) from the first one on; returns the object the key's reads are tracked with.
    @discardableResult
    func access(_ key: String, in store: AnyPersistentKeyValueStore) -> _ObservedKeyChanges {
        let (changes, needsObserver) = claim(key)
        changes.access()
        if needsObserver { observe(key, with: changes, in: store.keyValueChanges) }
        return changes
    }

    /// The object `key`'s reads are tracked with, made on its first read, and whether the center
    /// has no observer for it yet. The key is claimed under the lock and observed outside it
    /// (`addObserver` may deliver on this thread, a watcher's check as it starts, and an
    /// `onChange` may read a tracked key): a read on another thread meanwhile finds the key
    /// claimed but not observed, and observes it too, before it reads the store, so that no write
    /// after that read goes unheard (a second observer only tells Observation of a change twice).
    func claim(_ key: String) -> (changes: _ObservedKeyChanges, needsObserver: Bool) {
        tracked.withLock { tracked in
            if let known = tracked[_ExactKey(key)] { return (known, !known.isObserved) }
            let changes = _ObservedKeyChanges()
            tracked[_ExactKey(key)] = changes
            return (changes, true)
        }
    }

    /// Observes every key read so far through `center`, a new center of the same store: the
    /// keys' trackers hear of the changes made through it.
    @discardableResult
    func observeEveryKey(in center: KeyValueChangeCenter) -> [String] {
        let keys = tracked.withLock { tracked in tracked.map { ($0.key.string, $0.value) } }
        for (key, changes) in keys {
            observe(key, with: changes, in: center)
        }
        return keys.map(\.0)
    }

    /// Marks every key as observed by no center: a new center of the store is about to observe
    /// them, and a read through it meanwhile observes its key too.
    func forgetObservers() {
        tracked.withLock { tracked in
            for changes in tracked.values { changes.isObserved = false }
        }
    }

    /// The keys read so far.
    var trackedKeys: [String] {
        tracked.withLock { tracked in tracked.keys.map(\.string) }
    }

    /// Observes `key` through `center`, for the center's life, telling `changes` of each change.
    func observe(_ key: String, with changes: _ObservedKeyChanges, in center: KeyValueChangeCenter) {
        // Held strongly: no cycle (the center holds the handler, and `changes` nothing), and
        // neither a weak reference (which moves every retain to a slow path) nor an unowned one
        // (checked on each call) is free.
        center.addObserverForCentersLife(forKey: key, readsValue: false) { _ in
            changes.keyDidChange()
        }
        tracked.withLock { _ in changes.isObserved = true }
    }
}
