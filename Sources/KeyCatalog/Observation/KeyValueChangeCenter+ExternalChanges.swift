extension KeyValueChangeCenter {
    /// Announces changes made outside KeyCatalog: by another device (``UbiquitousKeyValueStore``
    /// posts iCloud's external changes through it), another process, or code using the store directly.
    ///
    /// Each key's current value is read from `store` when it is delivered to its observers.
    ///
    /// ```swift
    /// store.keyValueChanges.postExternalChanges(forKeys: ["theme"], in: store)
    /// ```
    public func postExternalChanges(forKeys keys: [String], in store: some PersistentKeyValueStore) {
        for key in keys {
            postCurrentValue(forKey: key, in: store)
        }
    }
}
