import Observation

extension KeyValueChangeCenter {
    /// Registers a read of `key` with Observation, so that `withObservationTracking` (and SwiftUI)
    /// around the read fires on the key's next change through this center.
    ///
    /// ```swift
    /// withObservationTracking { _ = keys.theme } onChange: { print("theme changed") }
    /// ```
    ///
    /// The first tracked read of a key adds one observer for it to this center, kept for the
    /// center's life: Observation does not say when a tracking ends.
    public func _trackAccess(forKey key: String) {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let tracking = observationTracking.withLock { stored -> _ObservationTracking in
            if let tracking = stored as? _ObservationTracking { return tracking }
            let tracking = _ObservationTracking()
            stored = tracking
            return tracking
        }
        tracking.access(key, in: self)
    }
}

/// One center's keys as Observation sees them: a key is the key path `\.[key: id]`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class _ObservationTracking: Observable, Sendable {
    private let registrar = ObservationRegistrar()
    private let observations = _Locked<[String: PersistentKeyObservation]>([:])

    /// Nothing to read: the key path is what Observation tracks.
    subscript(key key: String) -> Int { 0 }

    func access(_ key: String, in center: KeyValueChangeCenter) {
        registrar.access(self, keyPath: \.[key: key])
        // The key is claimed under the lock and observed outside it: `addObserver` may deliver on
        // this thread (a watcher's check as it starts), and an `onChange` may read a tracked key.
        let isNew = observations.withLock { observations in
            guard observations[key] == nil else { return false }
            observations[key] = PersistentKeyObservation {}
            return true
        }
        guard isNew else { return }
        let observation = center.addObserver(forKey: key) { [weak self] _ in
            guard let self else { return }
            self.registrar.withMutation(of: self, keyPath: \.[key: key]) {}
        }
        observations.withLock { $0[key] = observation }
    }
}
