import Foundation

/// Mirrors chosen keys of local stores (UserDefaults, files) through iCloud's key-value store, so
/// they follow the person across their devices: what a manifest's `"sync": "iCloud"` sets up.
///
/// ```swift
/// let engine = UbiquitousSyncEngine.default        // over NSUbiquitousKeyValueStore.default
/// let settings = engine.attach(AnyPersistentKeyValueStore.userDefaults(), keys: ["Theme"])
/// settings.set(.theme, to: .dark)                    // stored locally, then mirrored
/// let observation = settings.observe(.theme) { theme in apply(theme) }  // other devices' writes too
/// ```
///
/// The local store stays the one the app reads: a synced key is read and observed as any other,
/// and every write to it through the attached store is stamped (``UbiquitousSyncStamp``) and
/// mirrored. In iCloud each key is stored under ``keyPrefix`` plus its storage key, as a small
/// dictionary holding the value (or a tombstone, after a removal) and its stamp. The contract:
///
/// - **First launch.** Nothing is pushed until iCloud's values are known to be here: the initial
///   download or any other change from iCloud arrived, this store synced on an earlier launch, the
///   iCloud cache already holds synced keys, or the app calls ``assumeInitialSyncComplete()``.
///   After ``initialSyncTimeout`` without word from iCloud, writes are pushed too (on an account
///   that holds nothing yet iCloud announces no download, and every device of a new account would
///   wait for another forever), but they stay provisional until iCloud's first word.
///   Writes made before are provisional: local (observers see them) until iCloud's values arrive;
///   then a key iCloud holds takes iCloud's value, and only keys iCloud lacks are pushed. A value
///   stored before the key was synced is pushed only where iCloud has none, with the oldest
///   possible stamp, so any write made anywhere wins over it. Defaults are never pushed, nor
///   launch arguments (`-Theme dark`): the value stored beneath one is what syncs.
/// - **Conflicts.** The greater stamp wins on every device, whatever the order, delays or
///   repetitions of delivery: a device applies a value newer than its own, and pushes its own
///   again when iCloud holds an older one. A device never pushes a value older than iCloud's.
/// - **Removal** writes a stamped tombstone, so a removal wins over older writes everywhere.
/// - **Account change.** The new account's values replace this device's (keys it lacks read
///   their defaults); the previous values are neither pushed nor discarded: they are kept in the
///   local store (``previousAccountValues(in:)``), reported, and brought into the new account only
///   when the app calls ``restorePreviousAccountValues(in:)``; at a later change, what the store
///   held then takes their place (nothing of an account left earlier stays). (A key whose stored
///   value a launch argument hides, in a store that cannot read beneath it, is adopted so once it
///   can be read.)
/// - **Quota.** A write iCloud would refuse (a value over 1 MB, 1 MB in all, a 1,025th key), or
///   that iCloud reports refused, is reported through ``PersistentKeyValueFailure/handler`` with
///   its key; the local value stays, and is pushed again with the next change from iCloud.
/// - **Observers.** Values from other devices are written to the local store and posted to its
///   ``KeyValueChangeCenter``, so every observer of the local store (callbacks, async sequences,
///   Observation, SwiftUI) sees them.
///
/// - Important: Only writes made through an attached store are mirrored; code writing the local
///   store directly (`UserDefaults.set`) is not seen. The backend must be thread-safe and deliver
///   its external changes to every handler registered (`NSUbiquitousKeyValueStore` does).
public final class UbiquitousSyncEngine: @unchecked Sendable {
    // @unchecked: the backend is required to be thread-safe, and the rest is behind `state`.

    /// What every synced key's name in iCloud starts with: `kc:` (3 bytes, counted in iCloud's
    /// 64-byte key limit).
    public static let keyPrefix = "kc:"

    /// The iCloud key-value store the engine mirrors through.
    public let backend: any UbiquitousKeyValueBackend

    private let clock: @Sendable () -> Date
    /// The iCloud entries' sizes, shared with every other writer of the backend (a
    /// ``UbiquitousKeyValueStore`` over it).
    private let ledger: _UbiquitousSizeLedger
    private let deviceID: String?
    private let engineDescription: String

    /// A synced local store, as the engine's state holds it. The engine changes it there
    /// (`state.replicas[id]?.metadata...`), with no copy of it alive meanwhile: the change would
    /// then copy every key's entry (a synced write with 1,000 synced keys: about 650,000
    /// instructions more).
    private struct Replica {
        let store: any PersistentKeyValueStore
        var keys: Set<String> = []
        var metadata: UbiquitousSyncMetadata
        /// The metadata as stored when this engine last read or saved it: stored otherwise since,
        /// another engine saved it (see ``UbiquitousSyncEngine/reloadMetadata(_:)``).
        var storedMetadata: PropertyListValue?
        /// Another engine saved the store's first sync: kept in what this engine saves, but not
        /// taken as its own (its own iCloud cache may not hold iCloud's values yet).
        var othersSynced = false
        /// Why this engine saves no metadata in the store: another engine saved it in a newer
        /// format, which saving over would lose.
        var newerMetadata: String?
    }

    private struct State {
        /// The synced local stores, by their change center (one per suite or file).
        var replicas: [ObjectIdentifier: Replica] = [:]
        /// Which replica mirrors each storage key.
        var owners: [String: ObjectIdentifier] = [:]
        var heardFromCloud = false
        /// ``initialSyncTimeout`` passed without word from iCloud: writes are pushed, and the first
        /// word that comes is still taken as iCloud's initial download.
        var initialSyncWaitIsOver = false
        /// The newest stamp time seen, for the hybrid clock.
        var newestSeen: Int64 = 0
        /// The storage keys pushed since iCloud last reported a quota violation: those it may
        /// have refused when a report names no key.
        var pushedSinceQuotaViolation: Set<String> = []
    }

    /// What to do once the lock is released: observers and the failure handler may call back in.
    private struct Effects {
        var posts: [(store: any PersistentKeyValueStore, key: String)] = []
        var failures: [PersistentKeyValueFailure] = []

        func run() {
            for failure in failures { PersistentKeyValueFailure.report(failure) }
            for post in posts { post.store.keyValueChanges.postCurrentValue(forKey: post.key, in: post.store) }
        }
    }

    private let state = _Locked(State())

    /// Runs `body` under the engine's lock, with the deliveries that its writes to local stores
    /// cause on this thread held until the lock is released: a store may announce a write before
    /// it returns (UserDefaults' Key-Value Observing on Apple platforms), and an observer that
    /// then wrote a synced key, or asked ``isSyncing``, would wait for this thread's own lock. The
    /// failures the local stores report meanwhile are held too, for the same reason: a failure
    /// handler may write a synced key.
    ///
    /// What it cannot hold: observers of UserDefaults that are not KeyCatalog's (Key-Value
    /// Observing, `didChangeNotification`, `@AppStorage`) run on Apple platforms while a synced
    /// write sets the suite, so under this lock; one of them must not write a synced key through
    /// KeyCatalog in turn.
    ///
    /// Each synced store's metadata is read again first: see ``reloadMetadata(_:)``.
    private func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try _HeldCallbacks.holding {
            try state.withLock { state in
                reloadMetadata(&state)
                return try body(&state)
            }
        }
    }

    /// Takes the metadata (stamps) another engine saved in a synced store since this engine last
    /// read or saved it: an app and its extensions sharing a suite (an app group) each have an
    /// engine, and each saves the stamps of its own writes with every other key's as it knows
    /// them. Read at the start of each of the engine's operations, so that its decisions start
    /// from the others' writes and its saves keep their stamps. (Two engines' operations that run
    /// at the same instant, each between its read and its save, still save over each other; a
    /// local value then found not to be its stamp's is stamped again at the next launch.)
    private func reloadMetadata(_ state: inout State) {
        for (id, replica) in state.replicas {
            let stored = Self.storedMetadata(in: replica.store)
            guard stored != replica.storedMetadata else { continue }
            if replica.newerMetadata == nil, let format = UbiquitousSyncMetadata.newerFormat(of: stored) {
                state.replicas[id]?.newerMetadata = newerMetadataReport(format, in: replica.store)
                continue
            }
            guard var metadata = UbiquitousSyncMetadata(stored) else { continue }
            if let deviceID { metadata.device = deviceID }
            state.replicas[id]?.othersSynced = replica.othersSynced || metadata.hasSynced
            metadata.hasSynced = replica.metadata.hasSynced
            state.newestSeen = metadata.entries.values.reduce(state.newestSeen) { max($0, $1.stamp.time) }
            state.replicas[id]?.metadata = metadata
            state.replicas[id]?.storedMetadata = stored
        }
    }

    /// The metadata `store` holds. A UserDefaults suite on Linux is asked its own domains for it
    /// (``UserDefaults/ownStoredData(forKey:)``): read at the start of every operation, just after
    /// the last one saved it, it would otherwise make CoreFoundation copy every value of the suite
    /// again (about 90,000 instructions of a synced write with 20 synced keys).
    private static func storedMetadata(in store: any PersistentKeyValueStore) -> PropertyListValue? {
        #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
        if let defaults = _unwrappedStore(store) as? UserDefaults, let data = defaults.ownStoredData(forKey: UbiquitousSyncMetadata.storageKey) {
            return data
        }
        #endif
        return store.persistentValue(forKey: UbiquitousSyncMetadata.storageKey)
    }

    /// An engine over `backend`, observing its external changes and synchronizing it once.
    ///
    /// ```swift
    /// let engine = UbiquitousSyncEngine(backend: NSUbiquitousKeyValueStore.default)
    /// ```
    ///
    /// - Parameters:
    ///   - backend: The iCloud key-value store; kept for the engine's life.
    ///   - deviceID: This device's identifier in stamps; by default each synced local store makes
    ///     a UUID once and keeps it.
    ///   - clock: The wall clock stamps start from.
    ///   - initialSyncTimeout: How long to wait for word from iCloud before pushing, when nothing
    ///     says iCloud's values are here (``initialSyncTimeout``); `nil`: wait until something does.
    public init(
        backend: any UbiquitousKeyValueBackend,
        deviceID: String? = nil,
        clock: @escaping @Sendable () -> Date = { Date() },
        initialSyncTimeout: TimeInterval? = UbiquitousSyncEngine.initialSyncTimeout
    ) {
        self.backend = backend
        ledger = .shared(for: backend)
        self.deviceID = deviceID
        self.clock = clock
        engineDescription = "iCloud sync (\(type(of: backend)))"
        backend.observeExternalChanges { [weak self] change in
            self?.handle(change)
        }
        if !backend.synchronize() {
            PersistentKeyValueFailure.report(
                PersistentKeyValueFailure(
                    operation: .load, key: nil, store: engineDescription,
                    message: "synchronize() returned false: iCloud is unavailable to this app (no iCloud key-value store entitlement, no iCloud account, or no iCloud on this platform); synced keys stay on this device and nothing is pushed until iCloud's values arrive"
                )
            )
        } else if let initialSyncTimeout {
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + initialSyncTimeout) { [weak self] in
                self?.stopWaitingForInitialSync()
            }
        }
    }

    /// How long an engine waits for word from iCloud on a device that never synced before it
    /// pushes: 30 seconds.
    ///
    /// iCloud announces its initial download only when it brings values, so on an account that
    /// holds none yet nothing would ever come. Writes are then pushed, but stay provisional: the
    /// first word from iCloud (its download, late) is still taken as the initial download, and
    /// every key iCloud holds takes iCloud's value. (iCloud itself drops writes made before its
    /// initial download.) Where a provisional write was pushed, iCloud's value is pushed again as
    /// the newest: other devices may have taken the write. Values stored before the key synced go
    /// with the oldest stamp.
    public static let initialSyncTimeout: TimeInterval = 30

    /// After ``initialSyncTimeout``: pushes, without taking iCloud's values as known.
    private func stopWaitingForInitialSync() {
        var effects = Effects()
        withState { state in
            guard !isPushing(state) else { return }
            state.initialSyncWaitIsOver = true
            reconcileEveryReplica(marksSynced: false, &state, &effects)
        }
        effects.run()
    }

    /// The one engine over `backend`, made on first use.
    ///
    /// ```swift
    /// let engine = UbiquitousSyncEngine.shared(over: NSUbiquitousKeyValueStore.default)
    /// ```
    ///
    /// - Parameter backend: The iCloud key-value store; kept for the life of the process.
    /// - Returns: The same engine for the same backend object.
    public static func shared(over backend: some UbiquitousKeyValueBackend) -> UbiquitousSyncEngine {
        // A new engine synchronizes its backend, and reports when that fails: after the lock, since
        // the failure handler may ask for this engine.
        _HeldCallbacks.holding {
            engines.withLock { engines in
                if let engine = engines[ObjectIdentifier(backend)] { return engine }
                let engine = UbiquitousSyncEngine(backend: backend)
                engines[ObjectIdentifier(backend)] = engine
                return engine
            }
        }
    }

    private static let engines = _Locked<[ObjectIdentifier: UbiquitousSyncEngine]>([:])

    /// Mirrors `keys` of `store` through iCloud from now on, and returns the store to write them
    /// through.
    ///
    /// ```swift
    /// let settings = UbiquitousSyncEngine.default.attach(AnyPersistentKeyValueStore.userDefaults(), keys: ["Theme", "FontSize"])
    /// settings.set(.theme, to: .dark)
    /// ```
    ///
    /// Attaching the same local store again (any instance sharing its change center) adds keys to
    /// it. A key whose iCloud name would be over 64 bytes, or that another store already mirrors,
    /// is reported and stays local only.
    ///
    /// - Parameters:
    ///   - store: The local store the keys live in (UserDefaults or a file).
    ///   - keys: The storage keys to mirror.
    /// - Returns: `store`, with writes to `keys` stamped and mirrored.
    public func attach(_ store: some PersistentKeyValueStore, keys: [String]) -> AnyPersistentKeyValueStore {
        let base: any PersistentKeyValueStore = (store as? AnyPersistentKeyValueStore)?.base ?? store
        let id = ObjectIdentifier(base.keyValueChanges)
        var attached: Set<String> = []
        var effects = Effects()
        let cacheHoldsSyncedKeys = backend.dictionaryRepresentation.keys.contains { $0.hasPrefix(Self.keyPrefix) }
        let stored = base.persistentValue(forKey: UbiquitousSyncMetadata.storageKey)
        if let format = UbiquitousSyncMetadata.newerFormat(of: stored) {
            // Its stamps are a newer version's: synced here, they would be saved over.
            PersistentKeyValueFailure.report(failure(.load, UbiquitousSyncMetadata.storageKey, newerMetadataReport(format, in: base)))
            return AnyPersistentKeyValueStore(base)
        }
        withState { state in
            // The stored values read while attaching, by key (each key is this store's alone).
            var reads: [String: StoredRead] = [:]
            let wasCloudKnown = isCloudKnown(state)
            if state.replicas[id] == nil {
                var metadata = UbiquitousSyncMetadata(stored) ?? UbiquitousSyncMetadata(device: deviceID ?? UUID().uuidString)
                if let deviceID { metadata.device = deviceID }
                state.newestSeen = metadata.entries.values.reduce(state.newestSeen) { max($0, $1.stamp.time) }
                state.replicas[id] = Replica(store: base, metadata: metadata, storedMetadata: stored)
            }
            for key in keys where key != UbiquitousSyncMetadata.storageKey {
                let bytes = (Self.keyPrefix + key).utf8.count
                if bytes > UbiquitousKeyValueStore.maximumKeyBytes {
                    effects.failures.append(failure(.write, key, "not synced: its name in iCloud ('\(Self.keyPrefix)' + key) is \(bytes) bytes of UTF-8; iCloud's key-value store allows \(UbiquitousKeyValueStore.maximumKeyBytes), so shorten the key"))
                } else if let owner = state.owners[key], owner != id {
                    effects.failures.append(failure(.write, key, "not synced from \(base.persistentStoreDescription): another local store already mirrors this key through iCloud, where both would share one name"))
                } else {
                    state.owners[key] = id
                    state.replicas[id]?.keys.insert(key)
                    attached.insert(key)
                    if let read = restampIfWrittenAfterItsStamp(key, in: id, &state) { reads[key] = read }
                }
            }
            if cacheHoldsSyncedKeys { state.heardFromCloud = true }
            if !wasCloudKnown, isCloudKnown(state) {
                // This store tells that iCloud's values are here (it synced on an earlier launch):
                // the stores attached before it have their first sync now, as at iCloud's first word.
                reconcileEveryReplica(marksSynced: true, &state, &effects, reads: reads)
            } else if isPushing(state) {
                reconcileAll(id, marksSynced: isCloudKnown(state), &state, &effects, reads: reads)
            }
        }
        effects.run()
        return AnyPersistentKeyValueStore(SyncedKeyValueStore(local: base, engine: self, keys: attached))
    }

    /// Whether iCloud's values are known to be on this device, so synced writes are pushed.
    ///
    /// ```swift
    /// if !UbiquitousSyncEngine.default.isSyncing { showSyncingBadge() }
    /// ```
    public var isSyncing: Bool {
        state.withLock { isPushing($0) }
    }

    /// Starts pushing without waiting for iCloud's initial download, which iCloud sends only
    /// the first time a device uses an account: for an app that knows the account holds nothing
    /// yet (it just created the data), or that decided to stop waiting.
    ///
    /// ```swift
    /// UbiquitousSyncEngine.default.assumeInitialSyncComplete()
    /// ```
    ///
    /// - Important: iCloud's values that arrive later still win over older local writes, but
    ///   provisional writes stop being provisional: they are pushed and win by their stamps.
    public func assumeInitialSyncComplete() {
        var effects = Effects()
        withState { state in
            guard !isCloudKnown(state) else { return }
            state.heardFromCloud = true
            reconcileEveryReplica(marksSynced: true, &state, &effects)
        }
        effects.run()
    }

    /// The values `store` held for its synced keys when the iCloud account last changed, by
    /// storage key: kept aside, not pushed into the new account. Each change keeps aside what the
    /// store held then, in place of what an earlier one kept (which that account still holds, as
    /// far as it was pushed there): a key the store held nothing for is not listed. A change that
    /// finds no value on either side (nothing on the device, nothing in the new account) leaves
    /// what an earlier one kept: it cannot be told from one another engine sharing the store
    /// adopted first.
    ///
    /// ```swift
    /// let previous = engine.previousAccountValues(in: settings)
    /// if !previous.isEmpty { offerToKeepPreviousSettings() }
    /// ```
    public func previousAccountValues(in store: some PersistentKeyValueStore) -> [String: PropertyListValue] {
        withState { $0.replicas[ObjectIdentifier(store.keyValueChanges)]?.metadata.previousAccount ?? [:] }
    }

    /// Writes the values kept from the previous iCloud account back as new writes (so they are
    /// pushed into the current account and win over older values), then forgets them.
    ///
    /// ```swift
    /// engine.restorePreviousAccountValues(in: settings)
    /// ```
    public func restorePreviousAccountValues(in store: some PersistentKeyValueStore) {
        let id = ObjectIdentifier(store.keyValueChanges)
        var effects = Effects()
        withState { state in
            guard let replica = state.replicas[id] else { return }
            for (key, value) in replica.metadata.previousAccount.sorted(by: { $0.key < $1.key }) where replica.keys.contains(key) {
                do throws(PersistentKeyValueFailure) {
                    try write(value, forKey: key, in: id, &state, &effects)
                    effects.posts.append((replica.store, key))
                } catch {
                    effects.failures.append(error)
                }
            }
            state.replicas[id]?.metadata.previousAccount = [:]
            save(id, &state, &effects)
        }
        effects.run()
    }

    /// Forgets the values kept from the previous iCloud account.
    ///
    /// ```swift
    /// engine.discardPreviousAccountValues(in: settings)
    /// ```
    public func discardPreviousAccountValues(in store: some PersistentKeyValueStore) {
        let id = ObjectIdentifier(store.keyValueChanges)
        var effects = Effects()
        withState { state in
            guard state.replicas[id] != nil else { return }
            state.replicas[id]?.metadata.previousAccount = [:]
            save(id, &state, &effects)
        }
        effects.run()
    }

    /// The stamp of the write `store`'s value of `key` comes from (for tests and diagnostics).
    public func _stamp(forKey key: String, in store: some PersistentKeyValueStore) -> UbiquitousSyncStamp? {
        withState { $0.replicas[ObjectIdentifier(store.keyValueChanges)]?.metadata.entries[key]?.stamp }
    }

    // MARK: - Local writes

    /// Writes `value` (`nil`: removes) to the local store, stamps it and pushes it when iCloud's
    /// values are known. Called by the attached store.
    func localWrite(_ value: PropertyListValue?, forKey key: String, in store: any PersistentKeyValueStore) throws {
        let id = ObjectIdentifier(store.keyValueChanges)
        var effects = Effects()
        defer { effects.run() }
        try withState { state in
            try write(value, forKey: key, in: id, &state, &effects)
        }
    }

    private func write(
        _ value: PropertyListValue?,
        forKey key: String,
        in id: ObjectIdentifier,
        _ state: inout State,
        _ effects: inout Effects
    ) throws(PersistentKeyValueFailure) {
        // What is used of the replica, not a copy of it (see ``Replica``).
        guard let (store, device) = state.replicas[id].map({ ($0.store, $0.metadata.device) }) else { return }
        do {
            if let value {
                try store.setPersistentValue(value, forKey: key)
            } else {
                try store.removePersistentValue(forKey: key)
            }
        } catch let error as PersistentKeyValueFailure {
            throw error
        } catch {
            throw failure(.write, key, String(describing: error))
        }
        let time = nextStampTime(&state)
        // A new write replaces a previous account's value still waiting to be adopted.
        state.replicas[id]?.metadata.awaitingAccountChange.remove(key)
        let stamp = UbiquitousSyncStamp(time: time, device: device)
        state.replicas[id]?.metadata.entries[key] = UbiquitousSyncMetadata.Entry(stamp: stamp, isPending: true, digest: UbiquitousSyncMetadata.digest(value))
        if isPushing(state) {
            reconcile(key, in: id, isFirstSync: false, &state, &effects)
        }
        save(id, &state, &effects)
    }

    /// The time of a new stamp: now, or just after the newest stamp seen if that is later (the
    /// hybrid clock).
    private func nextStampTime(_ state: inout State) -> Int64 {
        let time = max(Int64((clock().timeIntervalSince1970 * 1000).rounded()), Self.successor(of: state.newestSeen))
        state.newestSeen = time
        return time
    }

    /// Notes `value`, which a migration is about to write to `store`'s synced `key` (in the local
    /// store itself), as stored before the key synced (the oldest stamp), and saves that before
    /// the write: a process killed after the write then finds the value stamped so at its next
    /// launch, not taken for a local write made after the saved stamp, which would be pushed over
    /// newer values (a removal) in iCloud. ``adoptMigratedValue(forKey:in:)`` follows the move,
    /// or ``withdrawMigratedValue(forKey:restoring:in:)`` a move that did not happen.
    ///
    /// - Returns: The key's entry before (`.some(nil)`: none), for
    ///   ``withdrawMigratedValue(forKey:restoring:in:)``; `nil` when the key is not synced here.
    @discardableResult
    func prepareMigratedValue(_ value: PropertyListValue, forKey key: String, in store: any PersistentKeyValueStore) -> UbiquitousSyncMetadata.Entry?? {
        let id = ObjectIdentifier(store.keyValueChanges)
        var effects = Effects()
        let previous: UbiquitousSyncMetadata.Entry?? = withState { state in
            guard let replica = state.replicas[id], replica.keys.contains(key) else { return nil }
            let previous = replica.metadata.entries[key]
            let oldest = UbiquitousSyncStamp(time: 0, device: replica.metadata.device)
            state.replicas[id]?.metadata.entries[key] = UbiquitousSyncMetadata.Entry(
                stamp: oldest, isPending: true, digest: UbiquitousSyncMetadata.digest(value))
            save(id, &state, &effects)
            return .some(previous)
        }
        effects.run()
        return previous
    }

    /// Puts back the entry `key` had before ``prepareMigratedValue(_:forKey:in:)``, after a move
    /// that was not written or was taken back out of the key: left, the noted value's digest
    /// (for a key that holds nothing) made the next launch take the empty key for a removal made
    /// after the oldest stamp, push it stamped just after, and remove the value when the move
    /// was made again.
    func withdrawMigratedValue(forKey key: String, restoring previous: UbiquitousSyncMetadata.Entry?, in store: any PersistentKeyValueStore) {
        let id = ObjectIdentifier(store.keyValueChanges)
        var effects = Effects()
        withState { state in
            guard let replica = state.replicas[id], replica.keys.contains(key) else { return }
            state.replicas[id]?.metadata.entries[key] = previous
            save(id, &state, &effects)
        }
        effects.run()
    }

    /// Takes the value a migration moved into `store`'s synced `key` (written to the local store
    /// itself) as a value stored before the key synced: the oldest stamp, so that any write made
    /// on any device wins over it, and it is pushed only where iCloud has none.
    func adoptMigratedValue(forKey key: String, in store: any PersistentKeyValueStore) {
        let id = ObjectIdentifier(store.keyValueChanges)
        var effects = Effects()
        withState { state in
            guard let replica = state.replicas[id], replica.keys.contains(key) else { return }
            let oldest = UbiquitousSyncStamp(time: 0, device: replica.metadata.device)
            state.replicas[id]?.metadata.entries[key] = UbiquitousSyncMetadata.Entry(stamp: oldest, isPending: true, digest: storedDigest(key, in: replica.store))
            if isPushing(state) {
                reconcile(key, in: id, isFirstSync: false, &state, &effects)
            }
            save(id, &state, &effects)
        }
        effects.run()
    }

    /// A local value that is not the one its saved stamp is for was written, and the process ended
    /// before the stamp of that write was saved: it is stamped just after the saved stamp, so
    /// that it is pushed (not lost, nor undone by the older value iCloud holds under that stamp).
    ///
    /// - Returns: What the store stores for the key, when it was read (``StoredRead``), for the
    ///   key's reconciliation in the same operation to use instead of reading it again.
    private func restampIfWrittenAfterItsStamp(_ key: String, in id: ObjectIdentifier, _ state: inout State) -> StoredRead? {
        // What is used of the replica, not a copy of it (see ``Replica``).
        guard let (store, device, entry) = state.replicas[id].map({ ($0.store, $0.metadata.device, $0.metadata.entries[key]) }),
            let entry, let saved = entry.digest, case .some(let stored) = storedValue(key, in: store)
        else { return nil }
        let digest = UbiquitousSyncMetadata.digest(stored)
        guard digest != saved else { return StoredRead(value: stored) }
        // Just after the saved stamp: it wins over the value iCloud holds under that stamp, not
        // over writes other devices made later (the write's own time is unknown).
        let time = Self.successor(of: entry.stamp.time)
        state.newestSeen = max(state.newestSeen, time)
        state.replicas[id]?.metadata.entries[key] = UbiquitousSyncMetadata.Entry(
            stamp: UbiquitousSyncStamp(time: time, device: device), isPending: true, digest: digest)
        return StoredRead(value: stored)
    }

    /// What a store stores for a key (`nil`: nothing), read earlier in the same operation of the
    /// engine, which has not written the key since: at a launch, the check for a write made after
    /// its stamp reads each key, and the key's reconciliation then uses that read instead of
    /// another (on Apple platforms each asks UserDefaults for the suite's persistent domain).
    private struct StoredRead {
        let value: PropertyListValue?
    }

    /// The digest of `key`'s value as `store` stores it (as a later launch will read it back);
    /// `nil` when the store cannot tell (see ``storedValue(_:in:)``).
    private func storedDigest(_ key: String, in store: any PersistentKeyValueStore) -> Int64? {
        storedValue(key, in: store).map(UbiquitousSyncMetadata.digest)
    }

    /// What `store` stores for `key`, which is what iCloud gets (``_storedValue(forKey:in:)``):
    /// not a registered default, not a launch argument's value; `nil` when the store cannot tell.
    private func storedValue(_ key: String, in store: any PersistentKeyValueStore) -> PropertyListValue?? {
        _storedValue(forKey: key, in: store)
    }

    // MARK: - External changes

    private func handle(_ change: UbiquitousExternalChange) {
        var effects = Effects()
        ledger.invalidate()
        withState { state in
            switch change.reason {
            case .initialSync, .serverChange:
                if !isCloudKnown(state) {
                    state.heardFromCloud = true
                    reconcileEveryReplica(marksSynced: true, &state, &effects)
                    return
                }
                var touched: Set<ObjectIdentifier> = []
                for cloudKey in change.changedKeys where cloudKey.hasPrefix(Self.keyPrefix) {
                    let key = String(cloudKey.dropFirst(Self.keyPrefix.count))
                    guard let id = state.owners[key] else { continue }
                    reconcile(key, in: id, isFirstSync: false, &state, &effects)
                    touched.insert(id)
                }
                // Writes iCloud refused before (over quota) are offered again.
                for (id, replica) in state.replicas {
                    for (key, entry) in replica.metadata.entries where entry.isPending && replica.keys.contains(key) {
                        reconcile(key, in: id, isFirstSync: false, &state, &effects)
                        touched.insert(id)
                    }
                }
                for id in touched { save(id, &state, &effects) }
            case .quotaViolation:
                var keys = change.changedKeys.filter { $0.hasPrefix(Self.keyPrefix) }.map { String($0.dropFirst(Self.keyPrefix.count)) }
                // A report that names no key: any push since the last one may have been refused.
                if change.changedKeys.isEmpty { keys = state.pushedSinceQuotaViolation.sorted() }
                state.pushedSinceQuotaViolation = []
                let message = "iCloud refused a write over its quota (\(UbiquitousKeyValueStore.maximumKeyCount) keys, 1 MB per value and in all); the local value stays on this device and is pushed again with the next change from iCloud, so remove values or keep large ones unsynced"
                if keys.isEmpty { effects.failures.append(failure(.write, nil, message)) }
                var touched: Set<ObjectIdentifier> = []
                for key in keys {
                    effects.failures.append(failure(.write, key, message))
                    guard let id = state.owners[key] else { continue }
                    state.replicas[id]?.metadata.entries[key]?.isPending = true
                    touched.insert(id)
                }
                for id in touched { save(id, &state, &effects) }
            case .accountChange:
                state.heardFromCloud = true
                for id in replicaIDs(state) {
                    adoptNewAccount(id, &state, &effects)
                }
            }
        }
        effects.run()
    }

    /// Keeps the local values aside, then takes the new account's.
    ///
    /// What is kept aside is what the store held when it left the account: a value kept at an
    /// earlier change (another account's, which that account holds as far as it was pushed) is
    /// replaced, and forgotten where the store held nothing, so that a restore brings in only what
    /// the person had last. Forgotten only when the change kept or took a value: an engine that
    /// hears a change another engine sharing the store adopted first finds nothing to do, and the
    /// values kept aside are then already this change's. (So a change that finds no value on
    /// either side, nothing stored under the account left and nothing in the new one, also
    /// leaves what an earlier change kept.)
    private func adoptNewAccount(_ id: ObjectIdentifier, _ state: inout State, _ effects: inout Effects) {
        guard var replica = state.replicas[id] else { return }
        var kept: [String] = []
        var notKeptNow: [String] = []  // held nothing, or not readable yet
        var changedStore = false
        for key in replica.keys.sorted() {
            switch adoptNewAccountValue(key, &replica, &state, &effects) {
            case let adoption?:
                switch adoption {
                case .keptAside: kept.append(key)
                case .heldNothing(let tookValue):
                    notKeptNow.append(key)
                    changedStore = changedStore || tookValue
                case .alreadyAdopted: break
                }
                replica.metadata.awaitingAccountChange.remove(key)
            case nil:
                // Beneath a launch argument, in a store that cannot tell what it stores: neither
                // replaced (its value could not be kept aside) nor pushed (it is the previous
                // account's) until it can be read; then it is adopted as the others were. What an
                // earlier change kept aside for it is forgotten with the others': the adoption keeps
                // aside what it finds then.
                replica.metadata.awaitingAccountChange.insert(key)
                notKeptNow.append(key)
            }
        }
        if changedStore || !kept.isEmpty {
            for key in notKeptNow { replica.metadata.previousAccount[key] = nil }
        }
        replica.metadata.hasSynced = true
        state.replicas[id] = replica
        save(id, &state, &effects)
        effects.failures.append(accountChangeReport(kept: kept))
    }

    /// What an account change did to a key's local value.
    private enum Adoption {
        /// The store held a value: kept aside, and replaced by the new account's (or removed).
        case keptAside
        /// The store held nothing; it now holds the new account's value if `tookValue`.
        case heldNothing(tookValue: Bool)
        /// Already the new account's value, under its stamp: another engine sharing the store (an
        /// extension's) adopted it first, and kept aside what it replaced.
        case alreadyAdopted
    }

    /// Keeps `key`'s local value aside and takes the new account's; what that did, or `nil`
    /// (nothing done) when the store cannot tell what it stores beneath a launch argument.
    private func adoptNewAccountValue(_ key: String, _ replica: inout Replica, _ state: inout State, _ effects: inout Effects) -> Adoption? {
        guard let stored = storedValue(key, in: replica.store) else { return nil }
        let cloud = envelope(forKey: key)
        if let cloud { state.newestSeen = max(state.newestSeen, cloud.stamp.time) }
        if let cloud, replica.metadata.entries[key]?.stamp == cloud.stamp, stored == cloud.value { return .alreadyAdopted }
        if let value = stored { replica.metadata.previousAccount[key] = value }
        do throws(PersistentKeyValueFailure) {
            try apply(cloud?.value, forKey: key, to: replica.store, &effects)
            if let cloud {
                replica.metadata.entries[key] = UbiquitousSyncMetadata.Entry(stamp: cloud.stamp, isPending: false, digest: storedDigest(key, in: replica.store))
            } else {
                replica.metadata.entries[key] = nil
            }
        } catch {
            effects.failures.append(error)
        }
        return stored != nil ? .keptAside : .heldNothing(tookValue: cloud?.value != nil)
    }

    private func accountChangeReport(kept: [String]) -> PersistentKeyValueFailure {
        failure(
            .load, nil,
            "the iCloud account changed: this device now has the new account's values"
                + (kept.isEmpty ? "" : "; the previous values of \(kept.map { "'\($0)'" }.joined(separator: ", ")) were kept aside on this device, not pushed: restorePreviousAccountValues(in:) brings them into the new account, discardPreviousAccountValues(in:) forgets them"))
    }

    // MARK: - Reconciling

    private func isCloudKnown(_ state: State) -> Bool {
        state.heardFromCloud || state.replicas.values.contains { $0.metadata.hasSynced }
    }

    /// Whether synced writes are pushed: iCloud's values are known, or the wait for them is over.
    private func isPushing(_ state: State) -> Bool {
        isCloudKnown(state) || state.initialSyncWaitIsOver
    }

    /// The replicas, always in the same order.
    private func replicaIDs(_ state: State) -> [ObjectIdentifier] {
        state.replicas.keys.sorted { "\($0)" < "\($1)" }
    }

    private func reconcileEveryReplica(marksSynced: Bool, _ state: inout State, _ effects: inout Effects, reads: [String: StoredRead] = [:]) {
        for id in replicaIDs(state) {
            reconcileAll(id, marksSynced: marksSynced, &state, &effects, reads: reads)
        }
    }

    /// The time just after `time` (saturating: iCloud may hold a stamp of any time, from another
    /// app version or a damaged entry).
    private static func successor(of time: Int64) -> Int64 {
        time == .max ? .max : time + 1
    }

    /// Reconciles every key of the replica; `marksSynced`: its first sync is over (iCloud's values
    /// are known), so later launches push at once.
    private func reconcileAll(_ id: ObjectIdentifier, marksSynced: Bool, _ state: inout State, _ effects: inout Effects, reads: [String: StoredRead] = [:]) {
        guard let replica = state.replicas[id] else { return }
        for key in replica.keys.sorted() {
            reconcile(key, in: id, isFirstSync: !replica.metadata.hasSynced, &state, &effects, read: reads[key])
        }
        if marksSynced { state.replicas[id]?.metadata.hasSynced = true }
        save(id, &state, &effects)
    }

    /// Makes the local value and iCloud's agree on the newer of the two.
    private func reconcile(_ key: String, in id: ObjectIdentifier, isFirstSync: Bool, _ state: inout State, _ effects: inout Effects, read: StoredRead? = nil) {
        guard var replica = state.replicas[id] else { return }
        if replica.metadata.awaitingAccountChange.contains(key) {
            // Still the previous account's value: adopted once it can be read, never pushed.
            guard let adoption = adoptNewAccountValue(key, &replica, &state, &effects) else { return }
            replica.metadata.awaitingAccountChange.remove(key)
            state.replicas[id] = replica
            if case .keptAside = adoption { effects.failures.append(accountChangeReport(kept: [key])) }
            return
        }
        // What is used of the replica, and the copy let go (see ``Replica``).
        let (store, device, local) = (replica.store, replica.metadata.device, replica.metadata.entries[key])
        _ = consume replica
        let cloud = envelope(forKey: key)
        if let cloud { state.newestSeen = max(state.newestSeen, cloud.stamp.time) }
        // Two writes of one stamp (see `UbiquitousSyncEnvelope.precedes`): the greater value wins.
        var tie: (cloudWins: Bool, localWins: Bool) = (false, false)
        if let cloud, let local, cloud.stamp == local.stamp, let mine = read.map({ .some($0.value) }) ?? storedValue(key, in: store) {
            tie = (UbiquitousSyncEnvelope.precedes(mine, cloud.value), UbiquitousSyncEnvelope.precedes(cloud.value, mine))
        }
        if let cloud, isFirstSync || tie.cloudWins || local.map({ cloud.stamp > $0.stamp }) ?? true {
            // iCloud's is newer; at a first sync it also wins over provisional and older local values.
            do throws(PersistentKeyValueFailure) {
                try apply(cloud.value, forKey: key, to: store, &effects)
                state.replicas[id]?.metadata.entries[key] = UbiquitousSyncMetadata.Entry(stamp: cloud.stamp, isPending: false, digest: storedDigest(key, in: store))
            } catch {
                effects.failures.append(error)
                return
            }
            // A provisional write newer than iCloud's that was pushed (after the initial-sync
            // wait) may have reached iCloud and other devices after the value iCloud sent: the
            // value taken instead is pushed again, stamped just after that write, so that it wins
            // over it everywhere, and over no write made after it: at the write's time, with the
            // device followed by "+" (greater than the write's stamp, less than any later time's,
            // which a device that saw the write gets at least).
            if isFirstSync, let local, !local.isPending, local.stamp > cloud.stamp {
                let stamp = UbiquitousSyncStamp(time: local.stamp.time, device: local.stamp.device + "+")
                push(key, stamp: stamp, in: id, &state, &effects)
            }
        } else if let local, local.isPending || tie.localWins || cloud.map({ local.stamp > $0.stamp }) ?? true {
            // Newer than iCloud's, or handed over before but refused (over quota): push it.
            push(key, stamp: local.stamp, in: id, &state, &effects)
        } else if local == nil, cloud == nil, case .some(.some) = storedValue(key, in: store) {
            // Stored before the key synced: offered to iCloud with the oldest stamp there is.
            push(key, stamp: UbiquitousSyncStamp(time: 0, device: device), in: id, &state, &effects)
        } else if local != nil {
            state.replicas[id]?.metadata.entries[key]?.isPending = false
        }
    }

    /// Writes iCloud's value to the local store when it differs, and posts it.
    private func apply(_ value: PropertyListValue?, forKey key: String, to store: any PersistentKeyValueStore, _ effects: inout Effects) throws(PersistentKeyValueFailure) {
        guard storedValue(key, in: store) != .some(value) else { return }
        do {
            if let value {
                try store.setPersistentValue(value, forKey: key)
            } else {
                try store.removePersistentValue(forKey: key)
            }
        } catch let error as PersistentKeyValueFailure {
            throw error
        } catch {
            throw failure(.write, key, "iCloud's value not written to \(store.persistentStoreDescription): \(error)")
        }
        effects.posts.append((store, key))
    }

    /// Hands the local value (or a tombstone) to iCloud with `stamp`, unless iCloud would refuse it.
    private func push(_ key: String, stamp: UbiquitousSyncStamp, in id: ObjectIdentifier, _ state: inout State, _ effects: inout Effects) {
        // The store, not a copy of the replica (see ``Replica``).
        guard let store = state.replicas[id]?.store else { return }
        guard let value = storedValue(key, in: store) else {
            // Beneath a launch argument, in a store that cannot tell what it stores: pushed at a
            // launch without the argument.
            state.replicas[id]?.metadata.entries[key]?.isPending = true
            return
        }
        let envelope = UbiquitousSyncEnvelope(stamp: stamp, value: value).propertyListValue
        let object = envelope.foundationObject
        let cloudKey = Self.keyPrefix + key
        state.replicas[id]?.metadata.entries[key] = UbiquitousSyncMetadata.Entry(stamp: stamp, isPending: true, digest: UbiquitousSyncMetadata.digest(value))
        let size: Int
        do {
            size = try _UbiquitousSizeLedger.size(key: cloudKey, value: envelope, object: object)
        } catch {
            effects.failures.append(failure(.write, key, "not pushed to iCloud: its size could not be measured as a property list: \(error)"))
            return
        }
        let limit = UbiquitousKeyValueStore.maximumBytes
        do throws(_UbiquitousSizeLedger.Refusal) {
            try ledger.write(cloudKey, size: size) { backend.set(object, forKey: cloudKey) }
        } catch {
            let refusal =
                switch error {
                case .entryTooLarge(let size):
                    "it takes \(size) bytes in iCloud (name, value and stamp as a binary property list); iCloud's key-value store allows \(limit) per value"
                case .tooManyKeys(let count): "iCloud's key-value store holds \(count) keys, its maximum"
                case .totalTooLarge(let total): "iCloud's key-value store would hold \(total) bytes; it allows \(limit) in all"
                }
            effects.failures.append(failure(.write, key, "not pushed to iCloud: \(refusal); the value stays on this device, so store less or keep the key unsynced"))
            return
        }
        state.pushedSinceQuotaViolation.insert(key)
        state.replicas[id]?.metadata.entries[key]?.isPending = false
    }

    private func envelope(forKey key: String) -> UbiquitousSyncEnvelope? {
        backend.object(forKey: Self.keyPrefix + key).flatMap(PropertyListValue.init(foundationObject:)).flatMap(UbiquitousSyncEnvelope.init)
    }

    private func save(_ id: ObjectIdentifier, _ state: inout State, _ effects: inout Effects) {
        guard let replica = state.replicas[id] else { return }
        if let newer = replica.newerMetadata {
            effects.failures.append(failure(.write, UbiquitousSyncMetadata.storageKey, newer))
            return
        }
        var saved = replica.metadata
        saved.hasSynced = saved.hasSynced || replica.othersSynced
        let metadata = saved.storedValue
        do {
            try replica.store.setPersistentValue(metadata, forKey: UbiquitousSyncMetadata.storageKey)
            state.replicas[id]?.storedMetadata = metadata
        } catch {
            effects.failures.append(failure(.write, UbiquitousSyncMetadata.storageKey, "iCloud sync's stamps not saved in \(replica.store.persistentStoreDescription): \(error)"))
        }
    }

    private func newerMetadataReport(_ format: UInt8, in store: any PersistentKeyValueStore) -> String {
        "iCloud sync's stamps in \(store.persistentStoreDescription) are of format \(format), which this version of KeyCatalog does not read "
            + "(saved by a newer one, sharing the store?): its keys stay local here, and the stamps are not saved over"
    }

    private func failure(_ operation: PersistentKeyValueFailure.Operation, _ key: String?, _ message: String) -> PersistentKeyValueFailure {
        PersistentKeyValueFailure(operation: operation, key: key, store: engineDescription, message: message)
    }
}

extension UbiquitousSyncEngine {
    /// The engine over `NSUbiquitousKeyValueStore.default`: what generated catalogs' live stores
    /// mirror `"sync": "iCloud"` keys through.
    ///
    /// ```swift
    /// let settings = UbiquitousSyncEngine.default.attach(AnyPersistentKeyValueStore.userDefaults(), keys: ["Theme"])
    /// ```
    ///
    /// - Important: Where iCloud does not exist (Linux), the engine is over an in-memory stand-in
    ///   whose `synchronize()` returns `false`: synced keys work as local keys and nothing is pushed.
    public static var `default`: UbiquitousSyncEngine {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        shared(over: NSUbiquitousKeyValueStore.default)
        #else
        shared(over: InMemoryUbiquitousBackend.shared)
        #endif
    }
}
