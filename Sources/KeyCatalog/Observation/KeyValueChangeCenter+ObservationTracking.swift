import Observation

extension KeyValueChangeCenter {
    /// Observation's view of this center's keys (see ``_ReadTracking``), made on first use.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    fileprivate func observationTrackingObject() -> _ObservationTracking {
        // Only ever an `_ObservationTracking` (set below): no dynamic cast on every read.
        if let tracking = observationTracking.withObject({ unsafeDowncast($0, to: _ObservationTracking.self) }) {
            return tracking
        }
        return unsafeDowncast(observationTracking.setIfNone(_ObservationTracking()), to: _ObservationTracking.self)
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
/// its store's center observes the key, the center's tracking object and the key path the reads
/// are tracked under. (Finding them by the key's name costs a lock and a hash of it: about 800
/// instructions a read of a 17-byte key, by callgrind.)
@usableFromInline
final class _ReadTracking: Sendable {
    let key: String
    /// The tracking object (`_ObservationTracking`) and key path, once known: kept, and read
    /// without a lock or a retain (a retain on every read cost more than the read).
    private final class Known: Sendable {
        let tracking: AnyObject & Sendable
        let keyPath: AnyObject & Sendable
        /// The two above, for reads that retain neither.
        let unretained: (tracking: Unmanaged<AnyObject & Sendable>, keyPath: Unmanaged<AnyObject & Sendable>)

        init(tracking: AnyObject & Sendable, keyPath: AnyObject & Sendable) {
            self.tracking = tracking
            self.keyPath = keyPath
            unretained = (.passUnretained(tracking), .passUnretained(keyPath))
        }
    }

    private let known = _SetOnceReference<Known>()

    @usableFromInline
    init(key: String) {
        self.key = key
    }

    /// Registers a read of the key in `store` with Observation.
    @usableFromInline
    func track(in store: AnyPersistentKeyValueStore) {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let wasKnown: Void? = known.withObject { known in
            known.unretained.tracking._withUnsafeGuaranteedRef { tracking in
                known.unretained.keyPath._withUnsafeGuaranteedRef { keyPath in
                    unsafeDowncast(tracking, to: _ObservationTracking.self)
                        .accessKnown(keyPath: unsafeDowncast(keyPath, to: KeyPath<_ObservationTracking, Int>.self))
                }
            }
        }
        if wasKnown != nil { return }
        let (tracking, keyPath) = Self.access(key, in: store)
        known.setIfNone(Known(tracking: tracking, keyPath: keyPath))
    }

    /// Registers a read of `key` in `store` with Observation, finding what it is tracked under by
    /// its name (for a ``CatalogKey`` that keeps no `_ReadTracking`).
    @usableFromInline
    static func track(_ key: String, in store: AnyPersistentKeyValueStore) {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        _ = access(key, in: store)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    private static func access(_ key: String, in store: AnyPersistentKeyValueStore) -> (_ObservationTracking, KeyPath<_ObservationTracking, Int> & Sendable) {
        let center = store.keyValueChanges
        let tracking = center.observationTrackingObject()
        return (tracking, tracking.access(key, in: center))
    }
}

/// One center's keys as Observation sees them: a key is the key path `\.[key: id]`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class _ObservationTracking: Observable, Sendable {
    private let registrar = ObservationRegistrar()

    /// A key read before: its key path (made once: making one costs about 10,000 instructions,
    /// more than the read it tracks) and its observation of the center.
    private struct Tracked {
        let keyPath: KeyPath<_ObservationTracking, Int> & Sendable
        var observation: PersistentKeyObservation?
    }

    /// By the keys' bytes (``_ExactKey``), whose hash costs about a quarter of `String`'s. Two
    /// spellings of one key that are equal as a `String` (a composed and a decomposed accent) are
    /// two entries here, but one key to the center and to Observation (the key path's argument is
    /// the `String`): the second only adds an observer that tells Observation of the same changes.
    private let tracked = _Locked<[_ExactKey: Tracked]>([:])

    /// Nothing to read: the key path is what Observation tracks.
    subscript(key key: String) -> Int { 0 }

    /// Registers a read under a key path ``access(_:in:)`` gave.
    func accessKnown(keyPath: KeyPath<_ObservationTracking, Int>) {
        registrar.access(self, keyPath: keyPath)
    }

    /// Registers a read of `key`, observing it through `center` from the first one on; returns
    /// the key path the key's reads are tracked under.
    @discardableResult
    func access(_ key: String, in center: KeyValueChangeCenter) -> KeyPath<_ObservationTracking, Int> & Sendable {
        // The key is claimed under the lock and observed outside it: `addObserver` may deliver on
        // this thread (a watcher's check as it starts), and an `onChange` may read a tracked key.
        let (keyPath, isNew) = tracked.withLock { tracked -> (KeyPath<_ObservationTracking, Int> & Sendable, Bool) in
            if let known = tracked[_ExactKey(key)] { return (known.keyPath, false) }
            let keyPath = \_ObservationTracking.[key: key]
            tracked[_ExactKey(key)] = Tracked(keyPath: keyPath)
            return (keyPath, true)
        }
        registrar.access(self, keyPath: keyPath)
        guard isNew else { return keyPath }
        // Held strongly: no cycle (the observation kept here holds the center weakly), and neither a
        // weak reference (which moves every retain of `self`, one a tracked read, to a slow path)
        // nor an unowned one (checked on each call) is free.
        let observation = center.addObserver(forKey: key, readsValue: false) { _ in
            self.registrar.withMutation(of: self, keyPath: keyPath) {}
        }
        tracked.withLock { $0[_ExactKey(key)]?.observation = observation }
        return keyPath
    }
}
