/// A generated catalog: every key of a `keys.json`, bound to its declared store.
///
/// Generated catalogs conform; ``init()`` opens the declared stores. The extension gives every
/// catalog the observation of several keys at once:
///
/// ```swift
/// let keys = AppKeys()
/// for await changed in keys.changes(of: keys.$theme, keys.$fontSize) {
///     redraw()   // read the keys' current values here
/// }
/// ```
public protocol PersistentKeyCatalog: Sendable {
    /// A catalog over the stores the manifest declares.
    init()
}

extension PersistentKeyCatalog {
    /// The id of each key that changes, one element per delivered change, until the stream is
    /// cancelled.
    ///
    /// ```swift
    /// for await changed in keys.changes(of: keys.$theme, keys.$fontSize) {
    ///     if changed == keys.$theme.id { applyTheme(keys.theme) }
    /// }
    /// ```
    ///
    /// Nothing is dropped (the stream buffers every element), and after a burst of writes to a key
    /// its last element comes after the last write, so reading the key then gives its final value
    /// (see ``KeyValueChangeCenter``). Changes of one key arrive in order; between keys, in the
    /// order they were delivered.
    public func changes<each Value>(of keys: repeat CatalogKey<each Value>) -> AsyncStream<CatalogKeyID> {
        let (stream, continuation) = AsyncStream.makeStream(of: CatalogKeyID.self)
        let observation = observe(repeat each keys) { continuation.yield($0) }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }

    /// Calls `onChange` with the id of each key that changes, until the observation is cancelled
    /// or released.
    ///
    /// ```swift
    /// let observation = keys.observe(keys.$theme, keys.$fontSize) { changed in
    ///     print("\(changed) changed")
    /// }
    /// ```
    ///
    /// Handlers of one key run one at a time; handlers of different keys may run concurrently
    /// (on the threads that wrote them).
    public func observe<each Value>(
        _ keys: repeat CatalogKey<each Value>,
        onChange: @escaping @Sendable (CatalogKeyID) -> Void
    ) -> PersistentKeyObservation {
        var observations: [PersistentKeyObservation] = []
        for key in repeat each keys {
            let id = key.id
            observations.append(key.store.keyValueChanges.addObserver(forKey: key.key.id) { _ in onChange(id) })
        }
        let all = observations
        return PersistentKeyObservation {
            for observation in all { observation.cancel() }
        }
    }
}
