extension KeyMigrator {
    /// The sources a run removed, by store, made durable together before the run returns.
    ///
    /// A source still on the disk while its key holds the moved value would come back, after a
    /// crash, into a key emptied meanwhile (a sign-out). UserDefaults on Linux writes a removal at
    /// its next synchronization, so each store a source left is flushed: once per store, not once
    /// per source.
    struct SourceRemovals {
        /// By the catalog's name of the store (a run may be handed a new wrapper at each lookup).
        private var stores: [(store: any PersistentKeyValueStore, sources: [(KeyMigration, KeyMigration.ErasedSource)])] = []

        /// Notes that `source` of `migration` was removed from `store`, its store.
        mutating func note(_ migration: KeyMigration, _ source: KeyMigration.ErasedSource, from store: any PersistentKeyValueStore) {
            for index in stores.indices where stores[index].sources[0].1.store == source.store {
                stores[index].sources.append((migration, source))
                return
            }
            stores.append((store, [(migration, source)]))
        }

        /// Flushes each store a source was removed from; a store that fails is reported once for
        /// each of its sources (their keys hold the values, so nothing is lost).
        func makeDurable() {
            for (store, sources) in stores {
                do {
                    try store.flushPersistentValues()
                } catch {
                    for (migration, source) in sources {
                        KeyMigrator.reportFailure(
                            of: migration, source,
                            "the key holds the moved value, but the source's removal could not be made durable: \(error); if the process ends before its store writes it, the next run removes it (unless the key changed meanwhile)"
                        )
                    }
                }
            }
        }
    }
}
