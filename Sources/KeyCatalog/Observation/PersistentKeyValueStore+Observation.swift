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
    /// notifications, this sees the changes made through KeyCatalog in this process.
    public func observe<Key: PersistentKeyProtocol>(
        _ key: Key,
        _ onChange: @escaping @Sendable (Key.Value) -> Void
    ) -> PersistentKeyObservation {
        let decoder = _ChangeDecoder(key: key, store: persistentStoreDescription)
        return keyValueChanges.addObserver(forKey: key.id) { stored in
            onChange(decoder.value(from: stored))
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
        // The gate orders the current value before any change that races with subscribing.
        let gate = _Locked(())
        let decoder = _ChangeDecoder(key: key, store: persistentStoreDescription)
        gate.withLock { _ in
            let observation = keyValueChanges.addObserver(forKey: key.id) { stored in
                gate.withLock { _ in _ = continuation.yield(decoder.value(from: stored)) }
            }
            continuation.onTermination = { _ in observation.cancel() }
            if startingWithCurrentValue {
                continuation.yield(get(key))
            }
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
