extension PersistentKeyValueStore {
    /// Calls `onChange` with the key's new value after each change made through this store (or
    /// another store on the same file), until the observation is cancelled or released.
    ///
    /// ```swift
    /// let observation = userDefaults.observe(.runtimeColorScheme) { scheme in
    ///     apply(scheme)
    /// }
    /// ```
    ///
    /// On Apple platforms, a UserDefaults store also sees writes by other code and processes
    /// (through KVO; for keys containing `.`, only writes in this process), and the iCloud store
    /// changes from other devices. On Linux, where Foundation has neither KVO nor change
    /// notifications, file stores, `standard` and suites opened with
    /// ``UserDefaultsPersistence/suite(named:)`` also see other processes' writes (their files are
    /// watched); the changes made through KeyCatalog in this process reach the observers of every
    /// instance of the same suite whose name KeyCatalog knows (`standard`, and suites opened with
    /// ``UserDefaultsPersistence/suite(named:)``, as catalogs open them), while an instance made
    /// with `UserDefaults(suiteName:)` has observers of its own.
    ///
    /// `onChange` may be called before `observe` returns, on the calling thread, with a change
    /// found as the observation starts (another process's write): do not hold a lock it takes
    /// while you subscribe.
    public func observe<Key: PersistentKeyProtocol>(
        _ key: Key,
        _ onChange: @escaping @Sendable (Key.Value) -> Void
    ) -> PersistentKeyObservation {
        let decoder = _ChangeDecoder(key: key, store: persistentStoreDescription)
        return keyValueChanges.addObserver(forKey: key.id, readsValue: true) { stored, isObserving in
            let value = decoder.value(from: stored)
            if isObserving() { onChange(value) }
        }
    }

    /// The key's current value, then its value after each change.
    ///
    /// ```swift
    /// for await count in userDefaults.values(for: .launchCount) {
    ///     print(count)
    /// }
    /// ```
    public func values<Key: PersistentKeyProtocol>(for key: Key) -> AsyncStream<Key.Value> {
        makeStream(for: key, startingWithCurrentValue: true)
    }

    /// The key's value after each change, without the current value.
    public func changes<Key: PersistentKeyProtocol>(for key: Key) -> AsyncStream<Key.Value> {
        makeStream(for: key, startingWithCurrentValue: false)
    }

    private func makeStream<Key: PersistentKeyProtocol>(
        for key: Key,
        startingWithCurrentValue: Bool
    ) -> AsyncStream<Key.Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Key.Value.self)
        let decoder = _ChangeDecoder(key: key, store: persistentStoreDescription)
        // The changes delivered while subscribing (`nil` once subscribed), yielded after the
        // current value. They are kept rather than held at a lock: one may be delivered on this
        // very thread, inside `addObserver` (a watcher's check for changes made as it starts).
        // Each is decoded before the lock: a value that does not decode is reported, and the
        // failure handler may write this key, which delivers here again.
        let pending = _Locked<[Key.Value]?>([])
        let observation = keyValueChanges.addObserver(forKey: key.id) { stored in
            let value = decoder.value(from: stored)
            let isSubscribed = pending.withLock { pending -> Bool in
                guard pending != nil else { return true }
                pending?.append(value)
                return false
            }
            // A key's deliveries run one at a time, so these yields keep their order.
            if isSubscribed { continuation.yield(value) }
        }
        continuation.onTermination = { _ in observation.cancel() }
        let current = startingWithCurrentValue ? get(key) : nil
        pending.withLock { pending in
            if let current { continuation.yield(current) }
            for value in pending ?? [] { continuation.yield(value) }
            pending = nil
        }
        return stream
    }
}

/// Turns a posted stored value into the key's value, as `get` would.
private struct _ChangeDecoder<Key: PersistentKeyProtocol>: Sendable {
    let key: Key
    let store: String

    func value(from stored: PropertyListValue?) -> Key.Value {
        guard key.isStoreAccessEnabled, let stored else { return key.defaultValue }
        return _decodeOrDefault(stored, for: key, store: store)
    }
}
