import Foundation

/// Runs migrations: moves values from old keys, types and stores to their keys, never losing one.
///
/// For each key, if it holds no value, the first source holding a value that converts is
/// written to the key, read back and compared, made durable, and only then removed from its
/// source; a move that cannot finish is taken back out of the key, so that a value is never in
/// both places (a key emptied later would get it again). While the key is empty, a source whose
/// store cannot say what it holds (a locked keychain, an entry that does not decode, a launch
/// argument over a suite KeyCatalog did not open), or whose value could not be written to the
/// key, is not passed over: older sources wait until it moves. A value that can never be the
/// key's (rejected by the transform, unreadable as the old type, or converting to a value the key
/// cannot store) stays and is reported, and the next source is tried. A source is removed only if
/// it still holds the value moved (else the move is taken back), and the removals are flushed
/// before the run returns. A key that already holds a value keeps it; a source holding the very
/// value the key holds is what an interrupted run left behind, and is removed. Everything else
/// stays in place and is reported. Running twice is the same as running once; a run killed at any
/// point and run again ends as an uninterrupted run would.
///
/// A source at the key's own storage key in the key's own store (a type or representation
/// changed in place) is converted where it is, in one write, and only when the key cannot read
/// the stored value as it is: a value the key reads counts as migrated. So an in-place change
/// whose old values the new type also reads (an `Int` index becoming an `Int`-backed enum) never
/// runs; give such a change a new storage key.
///
/// ```swift
/// let report = KeyMigrator.run(migrations) { name in stores[name] }
/// ```
public enum KeyMigrator {
    /// Runs `migrations` against the stores `store(named:)` returns.
    ///
    /// - Returns: What happened to every source that held a value; failures are also sent to
    ///   ``PersistentKeyValueFailure/handler``. One key's failure does not stop the others.
    public static func run(
        _ migrations: [KeyMigration],
        stores store: (String) -> (any PersistentKeyValueStore)?
    ) -> KeyMigrationReport {
        var report = KeyMigrationReport()
        var removals = SourceRemovals()
        for migration in migrations {
            guard let target = store(migration.store) else {
                for source in migration.sources {
                    record(&report, migration, source, .failed("the key's store '\(migration.store)' is not in the catalog; the source is kept"))
                }
                continue
            }
            // A key synced through iCloud: its value moves into the local store, and the sync
            // engine takes it as one stored before the key synced, which any write made on any
            // device beats (a fresh stamp would make an old value win over newer ones in iCloud).
            // (A conversion in place is a new write of the key's own value, and stays one.)
            let base = (target as? AnyPersistentKeyValueStore)?.base ?? target
            if let synced = base as? SyncedKeyValueStore, synced.keys.contains(migration.storageKey) {
                var previous: UbiquitousSyncMetadata.Entry??
                let moving = { (value: PropertyListValue) in
                    previous = synced.engine.prepareMigratedValue(value, forKey: migration.storageKey, in: synced.local)
                }
                // A move not written, or taken back, the key empty again: the key's entry as it was,
                // not the noted value's (a write that failed after it reached the store keeps it).
                let notMoved = {
                    if case .some(let entry) = previous, case .some(nil) = _storedValue(forKey: migration.storageKey, in: synced.local) {
                        synced.engine.withdrawMigratedValue(forKey: migration.storageKey, restoring: entry, in: synced.local)
                    }
                    previous = nil
                }
                if migrate(
                    migration, into: target, movingInto: synced.local, beforeMoving: moving, afterNotMoving: notMoved, stores: store, report: &report,
                    removals: &removals)
                {
                    synced.engine.adoptMigratedValue(forKey: migration.storageKey, in: synced.local)
                }
            } else {
                migrate(migration, into: target, movingInto: target, stores: store, report: &report, removals: &removals)
            }
        }
        removals.makeDurable()
        return report
    }

    /// Migrates into the key's store `keyStore`, writing values moved from other keys or stores
    /// to `target` (`keyStore` itself, or the local store of a synced key), each after
    /// `beforeMoving` was told of it; returns whether a value was moved.
    @discardableResult
    private static func migrate(
        _ migration: KeyMigration,
        into keyStore: any PersistentKeyValueStore,
        movingInto target: any PersistentKeyValueStore,
        beforeMoving: (PropertyListValue) -> Void = { _ in },
        afterNotMoving: () -> Void = {},
        stores store: (String) -> (any PersistentKeyValueStore)?,
        report: inout KeyMigrationReport,
        removals: inout SourceRemovals
    ) -> Bool {
        var moved = false
        for source in migration.sources {
            guard let origin = store(source.store) else {
                record(&report, migration, source, .failed("store '\(source.store)' is not in the catalog; nothing was read or moved"))
                continue
            }
            // What the store holds: a launch argument's value (`-launches 5`) was never written, and
            // moving it would remove the value stored beneath it. A source that cannot say (a
            // locked keychain) may hold the newest value: while the key is empty, older sources are
            // not tried, as after a take-back, or one would move in and win for good over it. A key
            // holding a value takes none of them, and one holding its very value is an interrupted
            // move's source, still to be removed: they are gone on to.
            guard let read = _storedValue(forKey: source.fromKey, in: origin) else {
                let reason = "what the store holds could not be read (beneath a launch argument of a suite KeyCatalog did not open, an entry that does not decode, or a locked keychain); the source is kept"
                if case .some(.some) = _storedValue(forKey: migration.storageKey, in: target) {
                    record(&report, migration, source, .failed(reason))
                    continue
                }
                record(&report, migration, source, .failed(reason + ", and older sources wait for it"))
                return moved
            }
            guard let stored = read else { continue }
            let isInPlace =
                isSameKey(source.fromKey, migration.storageKey, in: origin)
                && (source.store == migration.store || isSameStore(origin, keyStore))
            // In place, a value the key already reads is migrated: converting it again would
            // apply the transform twice, and "removing the source" would remove the key's value.
            if isInPlace && migration.isCurrent(stored) { continue }
            if !isInPlace, source.fromKey == migration.storageKey, sharesKeychainItems(origin, target) {
                record(
                    &report, migration, source,
                    .failed(
                        "the source and the key are one account in two keychain stores of one service, whose items overlap (a store without an access group finds every group's): moving would remove the key's own item; the source is kept; give the key another account or service"
                    ))
                continue
            }

            let migrated: PropertyListValue
            switch source.convert(stored) {
            case .converted(let value):
                migrated = value
            case .rejected:
                record(&report, migration, source, .failed("the transform rejected the stored value \(stored); the source is kept"))
                continue
            case .unreadable(let error):
                record(&report, migration, source, .failed("the stored value \(stored) could not be read: \(error); the source is kept"))
                continue
            case .unstorable(let error):
                record(&report, migration, source, .failed("the stored value \(stored) converted to a value the key cannot store: \(error); the source is kept"))
                continue
            }

            if isInPlace {
                convertInPlace(migration, source, from: stored, to: migrated, in: keyStore, report: &report)
                continue
            }

            guard let held = _storedValue(forKey: migration.storageKey, in: target) else {
                record(&report, migration, source, .failed("what the key's store holds for the key could not be read (beneath a launch argument of a suite KeyCatalog did not open, an entry that does not decode, or a locked keychain); the source is kept"))
                continue
            }
            if let held {
                guard held == migrated else {
                    record(&report, migration, source, .skippedKeyHasValue)
                    continue
                }
                // The key holds exactly what this source converts to: a previous run moved it and
                // stopped before removing the source.
                do {
                    try target.flushPersistentValues()
                    switch try _removeStoredValue(forKey: source.fromKey, in: origin, ifItHolds: stored) {
                    case .changed:
                        record(&report, migration, source, .failed("the source changed as an earlier move's removal of it was completed (another thread or process wrote it); the source is kept"))
                        continue
                    case .absent:
                        break  // Another run removed it meanwhile: the move is complete all the same.
                    case .removed:
                        removals.note(migration, source, from: origin)
                        origin.keyValueChanges.postCurrentValue(forKey: source.fromKey, in: origin)
                    }
                    record(&report, migration, source, .completedInterruptedMove)
                } catch {
                    record(&report, migration, source, .failed("could not remove the source after an earlier move: \(error); the key holds the value and the source is kept, for the next run to remove"))
                }
                continue
            }

            // A move that cannot be written (a full disk, a keychain that locked) is retried at the
            // next run; as after a take-back, older sources are not tried meanwhile, or one would
            // move in and win for good over this newer source.
            beforeMoving(migrated)
            do {
                try target.setPersistentValue(migrated, forKey: migration.storageKey)
            } catch {
                afterNotMoving()
                record(&report, migration, source, .failed("could not write the key: \(error); the source is kept, and older sources wait for it"))
                return moved
            }
            guard _storedValue(forKey: migration.storageKey, in: target) == .some(migrated) else {
                // The key held nothing before: take the wrong value away so the next run retries.
                do {
                    try target.removePersistentValue(forKey: migration.storageKey)
                    afterNotMoving()
                    record(&report, migration, source, .failed("the key read back differently from what was written; it was removed again, the source kept, and older sources wait for it"))
                } catch {
                    record(&report, migration, source, .failed("the key read back differently from what was written, and could not be removed again (\(error)); the source is kept"))
                }
                return moved
            }
            target.keyValueChanges.postCurrentValue(forKey: migration.storageKey, in: target)
            // All or nothing: left in both places, the value would come back at the next run into
            // a key emptied meanwhile (a sign-out), so a move that cannot finish is taken back.
            // After a take-back, older sources are not tried: one would move in and win for good
            // over the newer source, taken back only for now.
            do {
                try target.flushPersistentValues()
            } catch {
                record(&report, migration, source, .failed(takeBack(migration, from: target, because: "the key was written but could not be made durable: \(error)", afterNotMoving)))
                return moved
            }
            // Only the value moved: one another thread or process wrote since it was read stays at
            // the source, and the move is taken back, for the next run to move the newer value.
            let removal: _ConditionalRemoval
            do {
                removal = try _removeStoredValue(forKey: source.fromKey, in: origin, ifItHolds: stored)
            } catch {
                // Gone only if the store says so (a locked keychain cannot say).
                if origin._hasPersistentValueIfKnown(forKey: source.fromKey) != false {
                    record(&report, migration, source, .failed(takeBack(migration, from: target, because: "the key was written but the source could not be removed: \(error)", afterNotMoving)))
                    return moved
                } else {
                    // The store reported a failure, but the source is gone: the value moved. The
                    // store's failure is still reported.
                    removals.note(migration, source, from: origin)
                    origin.keyValueChanges.postCurrentValue(forKey: source.fromKey, in: origin)
                    record(&report, migration, source, .migrated)
                    reportFailure(of: migration, source, "the source's removal reported a failure, but the source is gone and the key keeps the value: \(error)")
                    moved = true
                }
                continue
            }
            switch removal {
            case .changed:
                let reason = "the source changed during the move (another thread or process wrote it)"
                record(&report, migration, source, .failed(takeBack(migration, from: target, because: reason, afterNotMoving)))
                return moved
            case .absent:
                // Another run of this migration (another thread or process) finished the same move
                // first, and removed the source: the key keeps the value (found by a review: taken
                // back, it was in neither place).
                break
            case .removed:
                removals.note(migration, source, from: origin)
                origin.keyValueChanges.postCurrentValue(forKey: source.fromKey, in: origin)
            }
            record(&report, migration, source, .migrated)
            moved = true
        }
        return moved
    }

    /// Takes the value a move wrote back out of the key, leaving it at its source only, for the
    /// next run to move again (`afterTakingBack` once it is out); returns `reason` with what
    /// became of the key.
    private static func takeBack(_ migration: KeyMigration, from target: any PersistentKeyValueStore, because reason: String, _ afterTakingBack: () -> Void) -> String {
        do {
            try target.removePersistentValue(forKey: migration.storageKey)
            afterTakingBack()
            target.keyValueChanges.postCurrentValue(forKey: migration.storageKey, in: target)
            return "\(reason); the key's value was taken back, the source kept, and the next run moves it again"
        } catch {
            return "\(reason); the key's value could not be taken back either (\(error)), so both hold it"
        }
    }

    /// Replaces a value stored in an older form with its conversion, at the same key in the same
    /// store: one write, so there is no source to remove and no moment when the value is nowhere.
    private static func convertInPlace(
        _ migration: KeyMigration,
        _ source: KeyMigration.ErasedSource,
        from stored: PropertyListValue,
        to migrated: PropertyListValue,
        in target: any PersistentKeyValueStore,
        report: inout KeyMigrationReport
    ) {
        do {
            try target.setPersistentValue(migrated, forKey: migration.storageKey)
        } catch {
            record(&report, migration, source, .failed("could not write the converted value: \(error); the old value is kept"))
            return
        }
        guard _storedValue(forKey: migration.storageKey, in: target) == .some(migrated) else {
            do {
                try target.setPersistentValue(stored, forKey: migration.storageKey)
                record(&report, migration, source, .failed("the key read back differently from what was written; the old value was put back"))
            } catch {
                record(&report, migration, source, .failed("the key read back differently from what was written, and the old value \(stored) could not be put back: \(error)"))
            }
            return
        }
        target.keyValueChanges.postCurrentValue(forKey: migration.storageKey, in: target)
        do {
            try target.flushPersistentValues()
        } catch {
            record(&report, migration, source, .failed("the converted value was written but could not be made durable yet: \(error); the key holds it, and a crash before the store's next write may bring the old value back, which the next run converts again"))
            return
        }
        record(&report, migration, source, .migrated)
    }

    /// Whether `first` and `second` name one key of `store`: names equal as `String`s are one key
    /// in a Swift dictionary (file and in-memory stores), but UserDefaults, the keychain and iCloud
    /// keep keys by their exact characters, where a composed and a decomposed accent are two.
    private static func isSameKey(_ first: String, _ second: String, in store: any PersistentKeyValueStore) -> Bool {
        guard first == second else { return false }
        let store = _unwrappedStore(store)
        let keepsExactCharacters = store is UserDefaults || store is KeychainKeyValueStore || store is UbiquitousKeyValueStore
        return !keepsExactCharacters || _ExactKey(first) == _ExactKey(second)
    }

    /// Whether two stores are two keychain stores of one service on one backend (told apart by
    /// access group or accessibility), whose items of one account overlap.
    private static func sharesKeychainItems(_ first: any PersistentKeyValueStore, _ second: any PersistentKeyValueStore) -> Bool {
        guard let first = _unwrappedStore(first) as? KeychainKeyValueStore, let second = _unwrappedStore(second) as? KeychainKeyValueStore else {
            return false
        }
        return first.sharesItems(with: second)
    }

    /// Whether two stores are the same one, seen through any ``AnyPersistentKeyValueStore`` wrapping
    /// and iCloud sync.
    private static func isSameStore(_ first: any PersistentKeyValueStore, _ second: any PersistentKeyValueStore) -> Bool {
        let first = _unwrappedStore(first)
        let second = _unwrappedStore(second)
        if first === second { return true }
        if let first = first as? FileKeyValueStore, let second = second as? FileKeyValueStore {
            // One shared file object per file, whatever path spelling or symlink led to it.
            return first.file === second.file
        }
        return false
    }

    private static func record(
        _ report: inout KeyMigrationReport,
        _ migration: KeyMigration,
        _ source: KeyMigration.ErasedSource,
        _ outcome: KeyMigrationReport.Outcome
    ) {
        report.entries.append(
            KeyMigrationReport.Entry(
                key: migration.name,
                storageKey: migration.storageKey,
                fromKey: source.fromKey,
                fromStore: source.store,
                outcome: outcome
            )
        )
        if case .failed(let reason) = outcome {
            reportFailure(of: migration, source, reason)
        }
    }

    /// Reports `reason` to the failure handler, as a failure of migrating `source`.
    static func reportFailure(of migration: KeyMigration, _ source: KeyMigration.ErasedSource, _ reason: String) {
        PersistentKeyValueFailure.report(
            PersistentKeyValueFailure(
                operation: .migrate,
                key: migration.storageKey,
                store: "\(source.store) -> \(migration.store)",
                message: "from '\(source.fromKey)': \(reason)"
            )
        )
    }
}
