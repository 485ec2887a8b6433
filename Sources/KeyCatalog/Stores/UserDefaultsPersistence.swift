import Foundation

/// Makes writes to UserDefaults durable on Linux and gives each instance a change center.
///
/// swift-corelibs-foundation writes `~/.config/<suite>.plist` only on `synchronize()`, which
/// rewrites the whole file: after every write it would cost hundreds of times the write itself
/// (1-8 ms wall and 0.8-1.0 ms CPU for a suite of 200 keys, against about 6 µs; BENCHMARKS.md,
/// "Durability"). So each write schedules one coalesced
/// `synchronize()` after ``synchronizationDelay``, and an exit hook synchronizes whatever is still
/// pending when the process exits normally. A crash can lose at most the writes of that window.
/// On Apple platforms UserDefaults persists by itself, and nothing is scheduled.
public enum UserDefaultsPersistence {
    /// How long after a write the coalesced `synchronize()` runs.
    public static let synchronizationDelay: DispatchTimeInterval = .milliseconds(100)

    private struct State {
        /// The instances written since the last synchronization; a few at most, so a list
        /// searched by identity (every write asks) rather than a hashed table.
        var pending: [_UncheckedSendable<UserDefaults>] = []
        var isScheduled = false
        var isExitHookInstalled = false
        /// Set when the exit hook begins: no delayed synchronization runs after it.
        var isExiting = false
        /// The threads (`pthread_self()`) synchronizing because the process exits, while they do.
        var threadsSynchronizingAtExit: Set<pthread_t> = []
        /// By the domain's exact name (``_ExactKey``), as CoreFoundation tells domains apart: names
        /// that differ only in Unicode normalization are two suites, in two files.
        var domainChangeCenters: [_ExactKey: KeyValueChangeCenter] = [:]
        /// The file watches of the centers of `standard` and of the suites opened by name (Linux),
        /// kept as long as the centers: for the life of the process.
        var fileWatches: [PersistentKeyObservation] = []
        /// The suite names of the instances KeyCatalog opened (UserDefaults cannot tell its own).
        var suiteNames: [ObjectIdentifier: (defaults: _UncheckedSendable<UserDefaults>, name: String)] = [:]
        /// By the exact name, as ``domainChangeCenters``.
        var suitesByName: [_ExactKey: _UncheckedSendable<UserDefaults>] = [:]
        #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
        /// The read caches of the suites opened by name (Linux).
        var readCaches: [ObjectIdentifier: (defaults: _UncheckedSendable<UserDefaults>, cache: _UserDefaultsReadCache)] = [:]
        #endif
        /// `standard` and each suite opened by name that was given a change center, with it: these
        /// instances are kept for the life of the process anyway (`suitesByName`), and so are their
        /// bindings, so that ``lastCenter`` can hold one unretained.
        var centerBindings: [ObjectIdentifier: _ChangeCenterBinding] = [:]
        /// The change centers of the other instances (`UserDefaults(suiteName:)`,
        /// `UserDefaults()`), each with its instance held weakly: an instance is released when the
        /// app drops it, and its center once the next insertion past ``instanceCentersLimit``
        /// prunes the entries of released instances.
        var instanceCenters: [ObjectIdentifier: _InstanceChangeCenter] = [:]
        /// How many entries `instanceCenters` holds before an insertion prunes it: twice those left
        /// by the last pruning (at least 16), so that pruning costs each insertion a constant.
        var instanceCentersLimit = 16

        /// Keeps `center` as the center of `defaults`, an instance not kept for life; returns the
        /// entries pruned (of released instances, or the one of a released instance whose address
        /// `defaults` now has), to be released after the lock: a center's handlers may hold the
        /// app's objects, whose `deinit` may use KeyCatalog.
        mutating func keepCenter(_ center: KeyValueChangeCenter, of defaults: UserDefaults) -> [_InstanceChangeCenter] {
            var pruned: [_InstanceChangeCenter] = []
            if instanceCenters.count >= instanceCentersLimit {
                for (id, entry) in instanceCenters where entry.defaults == nil {
                    pruned.append(entry)
                    instanceCenters[id] = nil
                }
                instanceCentersLimit = max(16, 2 * instanceCenters.count)
            }
            let entry = _InstanceChangeCenter(defaults: defaults, center: center)
            if let replaced = instanceCenters.updateValue(entry, forKey: ObjectIdentifier(defaults)) { pruned.append(replaced) }
            return pruned
        }
    }

    private static let state = _Locked(State())

    /// Opens the UserDefaults suite `name`, remembering its name so that
    /// ``PersistentKeyValueStore/contains(_:)`` can tell a stored value from a registered default
    /// exactly. Catalogs open their suites this way.
    ///
    /// ```swift
    /// let group = UserDefaultsPersistence.suite(named: "group.com.example.app")!
    /// ```
    ///
    /// One instance per suite name is opened and kept: calling this again (as every catalog built
    /// with `Stores.live` does) returns the same instance.
    ///
    /// - Returns: `nil` when Foundation refuses the name: on Apple platforms, the global domain and
    ///   the app's own domain (Foundation on Linux refuses neither).
    public static func suite(named name: String) -> UserDefaults? {
        let (defaults, isNew) = state.withLock { state -> (UserDefaults?, Bool) in
            if let defaults = state.suitesByName[_ExactKey(name)] { return (defaults.value, false) }
            guard let defaults = UserDefaults(suiteName: name) else { return (nil, false) }
            state.suitesByName[_ExactKey(name)] = _UncheckedSendable(defaults)
            state.suiteNames[ObjectIdentifier(defaults)] = (_UncheckedSendable(defaults), name)
            #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
            let cache = _UserDefaultsReadCache(suiteName: name, owner: defaults)
            state.readCaches[ObjectIdentifier(defaults)] = (_UncheckedSendable(defaults), cache)
            // Suites whose names are one `String` to Swift: Foundation may read one for the other.
            for other in state.suitesByName.keys where other.string == name && other != _ExactKey(name) {
                guard let twin = state.suitesByName[other] else { continue }
                cache.noteNameSharedAsString()
                state.readCaches[ObjectIdentifier(twin.value)]?.cache.noteNameSharedAsString()
            }
            #endif
            return (defaults, true)
        }
        #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
        if isNew, let defaults {
            // CoreFoundation's record of the suite, under KeyCatalog's name for it, unless
            // Foundation made one already (see `PreferencesDomain.open()`).
            preferencesDomain(of: defaults)?.open()
            // A large suite's values, read now, are dropped by the next synchronization of
            // another suite: its writes are kept until KeyCatalog synchronizes it.
            noteOpened(defaults)
            // Its change center watches the suite's file from now on, so that reads (not only
            // observers) see other processes' writes.
            _ = changeCenter(for: defaults)
        }
        #else
        _ = isNew
        #endif
        return defaults
    }

    #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
    /// The read cache of `defaults` (Linux): for suites opened through ``suite(named:)`` and for
    /// `standard`, whose names CoreFoundation knows them by; `nil` for other instances.
    static func readCache(of defaults: UserDefaults) -> _UserDefaultsReadCache? {
        readCacheReference(of: defaults)?.takeUnretainedValue()
    }

    /// ``readCache(of:)``, unretained: caches are kept for the life of the process. The one found
    /// last (by any thread) is remembered, and read without a lock.
    @inline(__always)
    static func readCacheReference(of defaults: UserDefaults) -> Unmanaged<_UserDefaultsReadCache>? {
        lastReadCache.object { $0.owner === defaults } ?? findReadCache(of: defaults)
    }

    private static func findReadCache(of defaults: UserDefaults) -> Unmanaged<_UserDefaultsReadCache>? {
        let cache: _UserDefaultsReadCache? =
            defaults === UserDefaults.standard
            ? standardReadCache
            : state.withLock { state in
                guard let entry = state.readCaches[ObjectIdentifier(defaults)], entry.defaults.value === defaults else { return nil }
                return entry.cache
            }
        guard let cache else { return nil }
        lastReadCache.remember(cache)  // kept in `readCaches`, or static
        return Unmanaged.passUnretained(cache)
    }

    private static let standardReadCache = _UserDefaultsReadCache(suiteName: nil, owner: .standard)

    /// The suite of `defaults` in CoreFoundation, for a suite whose name KeyCatalog knows (see
    /// ``readCache(of:)``): KeyCatalog writes it without `UserDefaults` in between.
    static func preferencesDomain(of defaults: UserDefaults) -> PreferencesDomain? {
        readCacheReference(of: defaults)?._withUnsafeGuaranteedRef { $0.domain }
    }

    /// The read cache found last: every read asks for its suite's. Caches are kept for the life
    /// of the process, with their suites (above).
    private static let lastReadCache = _LastFound<_UserDefaultsReadCache>()
    #endif

    /// The name of the persistent domain `defaults` writes to, when it is known: the suite's name
    /// for suites opened through ``suite(named:)``; the bundle identifier for `.standard` on Apple
    /// platforms.
    static func persistentDomainName(of defaults: UserDefaults) -> String? {
        if defaults === UserDefaults.standard {
            #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
            return Bundle.main.bundleIdentifier
            #else
            // Not on Linux: swift-corelibs-foundation answers for the standard domain under the
            // name "kCFPreferencesCurrentApplication", but asking for it makes later writes go to a
            // file of that name, which the next launch does not read (seen on Swift 6.3.1).
            return nil
            #endif
        }
        return state.withLock { $0.suiteNames[ObjectIdentifier(defaults)]?.name }
    }

    #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
    /// What the standard domain's file holds: swift-corelibs-foundation writes it to
    /// ``_configurationDirectory()`` as `<process name>.plist`.
    static func standardDomainFileContents() -> [String: Any]? {
        let file = _configurationDirectory().appendingPathComponent("\(ProcessInfo.processInfo.processName).plist")
        guard let data = try? Data(contentsOf: file) else { return nil }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
    }

    /// What the standard domain's file holds once the writes made so far are in it: writes pending
    /// changes (`synchronize()`), then reads the file, never asking for the domain by name (see
    /// ``persistentDomainName(of:)``).
    static func synchronizedStandardDomainFileContents() -> [String: Any]? {
        withSynchronizationLock {
            synchronizeDeferringWrites(of: [UserDefaults.standard]) { _ = UserDefaults.standard.synchronize() }
        }
        return standardDomainFileContents()
    }
    #endif

    /// The size of a suite's file from which KeyCatalog's writes no longer wait while it
    /// synchronizes the suite (Linux): 32 KB by default.
    ///
    /// On Linux, Foundation's `synchronize()` holds its lock while it rewrites the suite's file and
    /// flushes it to disk, and every UserDefaults read and write in the process waits for it. For
    /// a suite of 200 keys that is 1-8 ms (1 ms of CPU; writes waited up to 20 ms under load),
    /// for a 2 MB suite 110-170 ms. So:
    ///
    /// - While every suite a synchronization writes is below this size, a write made during it
    ///   waits for its end, and code that reads UserDefaults directly sees the write as soon as it
    ///   returned.
    /// - While one of them is this size or more, a write made then, to any suite, returns at once
    ///   (KeyCatalog synchronizes the suites written since the last pass together, and Foundation's
    ///   lock is one for the process): KeyCatalog keeps it, reads through the instance written
    ///   return it, observers hear of it, and it is handed to Foundation when the synchronization
    ///   ends (while writes go on through more than 64 keys, at the next synchronization, and
    ///   every write is kept until then). Until then, code that reads UserDefaults directly, or
    ///   through another instance of the suite, still sees the value before it, and a value it
    ///   sets for the same key with UserDefaults' own `set(_:forKey:)` is overwritten by the kept
    ///   write.
    /// - A write to a suite of this size or more that the last synchronization did not write is
    ///   kept the same way, until the next one (which it schedules). Foundation synchronizes every
    ///   suite of the process at once, and drops what it read of each suite it finds unchanged; a
    ///   write made in Foundation then read the suite's whole file again on the writer's thread
    ///   (about 100 ms for 2 MB). Kept, it is handed over by the synchronization, which reads the
    ///   file on its own thread. (A `synchronize()` the app calls itself drops suites too, unseen
    ///   by KeyCatalog: the next write to such a suite reads its file where it is made.) So is a
    ///   write to a suite opened through ``suite(named:)`` whose file was this size or more when
    ///   it was opened (`standard`: at KeyCatalog's first write to it), until KeyCatalog first
    ///   synchronized it.
    ///
    /// Set `0` when every read and write of the app's suites goes through KeyCatalog, so that no
    /// write ever waits (or turn on ``defersEveryWrite``, so that no write calls Foundation);
    /// `.max` so that every write waits.
    ///
    /// ```swift
    /// UserDefaultsPersistence.keptWritesFileSize = 0
    /// ```
    ///
    /// Apple platforms persist UserDefaults by themselves, and KeyCatalog synchronizes nothing:
    /// there it changes nothing.
    public static var keptWritesFileSize: Int64 {
        get { keptWritesFileSizeValue.withLock { $0 } }
        set { keptWritesFileSizeValue.withLock { $0 = newValue } }
    }
    private static let keptWritesFileSizeValue = _Locked<Int64>(32 * 1024)

    /// Whether every write through KeyCatalog to UserDefaults returns without calling Foundation
    /// (Linux): `false` by default.
    ///
    /// When `true`, KeyCatalog keeps each write (the last one of each key) and hands them to
    /// Foundation in the coalesced synchronization that writes them to disk, at most
    /// ``synchronizationDelay`` later, or when the process exits normally. A write then costs about
    /// 0.2 µs instead of 6 µs, never waits for a synchronization, and the time a crash can lose is
    /// unchanged. Reads, `contains` and observers through KeyCatalog see every write at once; code
    /// that reads UserDefaults directly, or through another instance of the suite than the one
    /// written (``suite(named:)`` always gives the same), sees it only once it was handed over. So
    /// turn it on when every read and write of the app's suites goes through KeyCatalog:
    ///
    /// - A value set with UserDefaults' own `set(_:forKey:)` after KeyCatalog kept a write of the
    ///   same key is overwritten when the kept write is handed over.
    /// - A kept removal reads back as it will once handed over: the registered default (registered
    ///   through KeyCatalog or with UserDefaults' `register(defaults:)`), else the global domain's
    ///   value.
    ///
    /// ```swift
    /// UserDefaultsPersistence.defersEveryWrite = true
    /// ```
    ///
    /// Apple platforms persist UserDefaults by themselves, and KeyCatalog keeps nothing: there it
    /// changes nothing.
    public static var defersEveryWrite: Bool {
        get { defersEveryWriteValue.withLock { $0 } }
        set { defersEveryWriteValue.withLock { $0 = newValue } }
    }
    private static let defersEveryWriteValue = _Locked(false)

    /// Writes every pending change to disk now (also those KeyCatalog writes while it does).
    public static func synchronizePendingWrites() {
        // Writes made during a pass are kept and then written by the next: a few passes at most.
        var passes = 0
        while passes < 4, synchronizePendingWritesOnce() { passes += 1 }
    }

    /// One pass: synchronizes the suites written since the last one; returns whether any was.
    private static func synchronizePendingWritesOnce() -> Bool {
        // Reported once the lock is released: a failure handler may use UserDefaults through
        // KeyCatalog, which can synchronize.
        var failed: [UserDefaults] = []
        defer { reportFailedSynchronizations(failed) }
        // One synchronization at a time, to its end: the exit hook waits for a delayed one that
        // already took the pending suites, or the process could exit before they are on disk.
        return withSynchronizationLock { synchronizePendingSuites(failed: &failed) }
    }

    /// A pass, with ``synchronizationLock`` held: synchronizes the suites written since the last
    /// one, adding those that failed to `failed`; returns whether any was.
    private static func synchronizePendingSuites(failed: inout [UserDefaults]) -> Bool {
        let pending = state.withLock { state in
            defer {
                state.pending = []
                state.isScheduled = false
            }
            return state.pending
        }
        let suites = pending.map(\.value)
        // Each suite in turn, all in one window in which KeyCatalog's writes wait or are kept;
        // returns those that failed.
        let synchronizeAll = { () -> [UserDefaults] in
            var failed: [UserDefaults] = []
            for defaults in suites {
                synchronizationWillWrite.withLock { $0 }?()
                #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
                if !defaults.synchronize() { failed.append(defaults) }
                #else
                if !synchronizeNotingOwnWrite(defaults, file: domainFileURL(of: defaults)) { failed.append(defaults) }
                #endif
            }
            return failed
        }
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        failed += synchronizeAll()
        #else
        failed += synchronizeDeferringWrites(of: suites, synchronizeAll)
        #endif
        return !pending.isEmpty
    }

    private static func reportFailedSynchronizations(_ failed: [UserDefaults]) {
        for defaults in failed {
            PersistentKeyValueFailure.report(
                PersistentKeyValueFailure(
                    operation: .write,
                    key: nil,
                    store: defaults.persistentStoreDescription,
                    message: "synchronize() failed: the values set since the last synchronization are not on disk"
                )
            )
        }
    }

    /// Runs `body` holding ``synchronizationLock``. Once the process is exiting, then writes the
    /// suites scheduled meanwhile (``synchronizeScheduledAtExit()``).
    static func withSynchronizationLock<Result>(_ body: () -> Result) -> Result {
        synchronizationLock.lock()
        let result = body()
        synchronizationLock.unlock()
        #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
        synchronizeScheduledAtExit()
        #endif
        return result
    }

    /// Held by each of KeyCatalog's synchronizations (coalesced, exit, flush, another process's
    /// write read, `contains` on `standard`) from before it takes the pending suites until it
    /// noted the files it wrote: one at a time.
    static let synchronizationLock = NSLock()

    /// Called by each coalesced or exit synchronization after it took the pending suites and
    /// before it writes one, while KeyCatalog's writes are kept out of UserDefaults or, for a
    /// suite smaller than ``keptWritesFileSize``, wait (Linux): the seam of the tests that exit or
    /// write in that window. Not for apps; a hook that writes through KeyCatalog on its own thread
    /// while writes wait would wait for itself.
    public static var _synchronizationWillWrite: (@Sendable () -> Void)? {
        get { synchronizationWillWrite.withLock { $0 } }
        set { synchronizationWillWrite.withLock { $0 = newValue } }
    }
    private static let synchronizationWillWrite = _Locked<(@Sendable () -> Void)?>(nil)

    static func scheduleSynchronization(of defaults: UserDefaults) {
        #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
        let (shouldSchedule, isExiting) = state.withLock { state in
            if !state.pending.contains(where: { $0.value === defaults }) {
                state.pending.append(_UncheckedSendable(defaults))
            }
            if !state.isExitHookInstalled {
                state.isExitHookInstalled = true
                atexit { UserDefaultsPersistence.synchronizeAtExit() }
            }
            guard !state.isScheduled else { return (false, state.isExiting) }
            state.isScheduled = true
            return (true, state.isExiting)
        }
        if isExiting {
            synchronizeScheduledAtExit()
        } else if shouldSchedule {
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + synchronizationDelay) {
                _ = synchronizePendingWritesOnce()
            }
        }
        #endif
    }

    #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
    /// The exit hook, installed at KeyCatalog's first write: writes everything pending. From then
    /// on no delayed synchronization runs (the process is ending), so a write made later (by an
    /// `atexit` handler the app installed before KeyCatalog's, which runs after it, or by another
    /// thread) is written to disk at once (``synchronizeScheduledAtExit()``).
    private static func synchronizeAtExit() {
        state.withLock { $0.isExiting = true }
        synchronizePendingWrites()
    }

    /// Once the exit hook began, writes the suites scheduled for synchronization now, on this
    /// thread: no delayed synchronization runs any more. Unless a synchronization holds the lock
    /// (another thread's, or this thread's own, when a write made inside it scheduled one): then
    /// its holder does this as it releases the lock (``withSynchronizationLock(_:)``). Not again
    /// inside itself on one thread (a failure handler's write as it reports): its loop goes on.
    static func synchronizeScheduledAtExit() {
        let thread = pthread_self()
        let begins = state.withLock { state in
            state.isExiting && !state.pending.isEmpty && state.threadsSynchronizingAtExit.insert(thread).inserted
        }
        guard begins else { return }
        defer { state.withLock { _ = $0.threadsSynchronizingAtExit.remove(thread) } }
        for _ in 0..<4 {
            guard state.withLock({ !$0.pending.isEmpty }), synchronizationLock.try() else { return }
            var failed: [UserDefaults] = []
            _ = synchronizePendingSuites(failed: &failed)
            synchronizationLock.unlock()
            reportFailedSynchronizations(failed)
        }
    }

    /// A suite this process never writes, named anew in each process, without the launch
    /// arguments: its `object(forKey:)` reads what every suite reads beneath its own values, the
    /// global domain's value, else the registered default (the registration domain is one for the
    /// process). No file is made for it: Foundation writes a suite's file only once it changed.
    static var suiteStoringNothing: UserDefaults { storingNothing.value }
    private static let storingNothing: _UncheckedSendable<UserDefaults> = {
        let suite = UserDefaults(suiteName: "keycatalog.stores-nothing.\(UUID().uuidString)")!
        suite.removeVolatileDomain(forName: UserDefaults.argumentDomain)
        return _UncheckedSendable(suite)
    }()
    #endif

    /// The change center of `defaults`: shared by every instance of the same suite when its name is
    /// known (so a change through one is seen through another), else the instance's own.
    ///
    /// On Apple platforms each center also hears of the changes made outside KeyCatalog (see
    /// ``_UserDefaultsChangeWatcher``).
    ///
    /// KeyCatalog keeps no instance for the center it gives it: the center of an instance of
    /// another suite than `standard` and those opened through ``suite(named:)`` (which are kept for
    /// the life of the process anyway) is kept with the instance held weakly, and released after
    /// it.
    static func changeCenter(for defaults: UserDefaults) -> KeyValueChangeCenter {
        // This runs on every write (the change is posted): most often one load and one comparison
        // with the instance asked for last (only instances kept for life are remembered).
        if let last = lastCenter.object(where: { $0.defaults.value === defaults }) {
            return last._withUnsafeGuaranteedRef { $0.center }
        }
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        let standardDomain = defaults === UserDefaults.standard ? Bundle.main.bundleIdentifier : nil
        #else
        let standardDomain: String? = nil
        #endif
        let isStandard = defaults === UserDefaults.standard
        // The pruned entries, released after the lock.
        let (center, binding, _) = state.withLock { state -> (KeyValueChangeCenter, _ChangeCenterBinding?, [_InstanceChangeCenter]) in
            let id = ObjectIdentifier(defaults)
            if let binding = state.centerBindings[id], binding.defaults.value === defaults { return (binding.center, binding, []) }
            // An entry of a released instance at the same address has no instance any more.
            if let entry = state.instanceCenters[id], entry.defaults === defaults { return (entry.center, nil, []) }
            let center = findChangeCenter(for: defaults, isStandard: isStandard, standardDomain: standardDomain, in: &state)
            guard isStandard || state.suiteNames[id]?.defaults.value === defaults else {
                return (center, nil, state.keepCenter(center, of: defaults))
            }
            let binding = _ChangeCenterBinding(defaults: defaults, center: center)
            state.centerBindings[id] = binding
            return (center, binding, [])
        }
        if let binding { lastCenter.remember(binding) }  // kept in `centerBindings`
        return center
    }

    /// The instance kept for life (`standard`, or a suite opened by name) whose change center was
    /// found last, with it: every write posts to its suite's center.
    private static let lastCenter = _LastFound<_ChangeCenterBinding>()

    private static func findChangeCenter(
        for defaults: UserDefaults,
        isStandard: Bool,
        standardDomain: String?,
        in state: inout State
    ) -> KeyValueChangeCenter {
        let id = ObjectIdentifier(defaults)
        if let domain = isStandard ? standardDomain : state.suiteNames[id]?.name {
            if let center = state.domainChangeCenters[_ExactKey(domain)] { return center }
            let (center, watch) = makeChangeCenter(for: defaults, domain: domain)
            state.domainChangeCenters[_ExactKey(domain)] = center
            if let watch { state.fileWatches.append(watch) }
            return center
        }
        // An instance of no known domain has a center of its own. On Linux it watches no file but
        // the standard domain's (`standard` itself, kept for life).
        let (center, watch) = makeChangeCenter(for: defaults, domain: nil)
        if let watch { state.fileWatches.append(watch) }
        return center
    }

    private static func makeChangeCenter(for defaults: UserDefaults, domain: String?) -> (KeyValueChangeCenter, PersistentKeyObservation?) {
        let center = KeyValueChangeCenter()
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        _UserDefaultsKeyValueObserver.watchExternalChanges(of: defaults, postingTo: center)
        return (center, nil)
        #else
        // Linux has no KVO and no change notifications, and a suite reads another process's writes
        // only after `synchronize()`: watch the suite's file, and when another process changed it,
        // synchronize (so reads see its values) and check the observed keys.
        guard let file = domainFileURL(domain ?? (defaults === UserDefaults.standard ? ProcessInfo.processInfo.processName : nil)) else {
            return (center, nil)
        }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let watcher = _UserDefaultsChangeWatcher(defaults: defaults, center: center, keyValueObserving: nil)
        _ = center.attach(watcher)
        let suite = _UncheckedSendable(defaults)
        let watch = FileChangeMonitor.shared.watch(file) { [weak watcher] in
            // The file as this process last wrote it: nothing new to read. (A `synchronize()` that
            // reads the file again lets concurrent readers glimpse the file's values before the
            // suite's unsaved ones are laid over them, so it runs only for other writers.)
            guard let watcher else { return }
            // Decided while none of KeyCatalog's own synchronizations runs: each notes the file it
            // wrote before it ends.
            let isOtherWriter = withSynchronizationLock {
                guard !isOwnWrite(file) else { return false }
                synchronizeDeferringWrites(of: [suite.value]) {
                    _ = synchronizeNotingOwnWrite(suite.value, file: file)
                }
                return true
            }
            if isOtherWriter { readCache(of: suite.value)?.forgetMissingKeys() }
            // Checked also when the file is this process's own: one of its synchronizations may
            // have read another process's write before this event came, and noted the file as its
            // own (values equal to those observers last heard are not posted).
            watcher.defaultsDidChange()
        }
        return (center, watch)
        #endif
    }

    #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
    /// The file swift-corelibs-foundation keeps a domain in: ``_configurationDirectory()``
    /// `/<name>.plist`; `nil` for an unknown domain.
    static func domainFileURL(_ name: String?) -> URL? {
        guard let name, !name.isEmpty else { return nil }
        return _configurationDirectory().appendingPathComponent("\(name).plist")
    }

    /// The file of each suite as this process's last `synchronize()` left it, by path (its exact
    /// bytes, ``_ExactKey``).
    private static let ownWrites = _Locked<[_ExactKey: FileSignature?]>([:])

    /// `synchronize()`, then notes the suite's `file` as this process left it
    /// (``noteOwnWrite(_:)``); returns what `synchronize()` returned. The file's URL is found
    /// before (``domainFileURL(of:)`` takes a lock), so that nothing waits between the two.
    ///
    /// Another process's write to the file in that instant (or within `synchronize()`, after it
    /// wrote the file) is noted as this process's own: its event is then taken for this process's
    /// write, and this process reads its values only at its next synchronization. No file
    /// timestamp closes that window of a few microseconds: the change time is stamped from a
    /// clock that moves once per tick (a new file's is, on Linux 6.18 too), so it cannot tell
    /// which write came first.
    static func synchronizeNotingOwnWrite(_ defaults: UserDefaults, file: URL?) -> Bool {
        let synchronized = defaults.synchronize()
        if let file { noteOwnWrite(file) }
        return synchronized
    }

    /// Notes `file` as this process just wrote (or read) it, after a `synchronize()`.
    static func noteOwnWrite(_ file: URL) {
        let path = file.path
        ownWrites.withLock { $0[_ExactKey(path)] = .some(FileSignature(path: path)) }
    }

    /// Whether `file` is as this process's last `synchronize()` left it.
    static func isOwnWrite(_ file: URL) -> Bool {
        let path = file.path
        let current = FileSignature(path: path)
        return ownWrites.withLock { $0[_ExactKey(path)].map { $0 == current } ?? false }
    }

    /// The file of a suite KeyCatalog knows the name of (or of `standard`).
    static func domainFileURL(of defaults: UserDefaults) -> URL? {
        domainFileURL(defaults === UserDefaults.standard ? ProcessInfo.processInfo.processName : persistentDomainName(of: defaults))
    }
    #endif
}

/// Carries a value that is thread-safe in practice but not marked `Sendable` (UserDefaults on Linux).
struct _UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// An instance of UserDefaults kept for the life of the process (`standard`, a suite opened by
/// name) and its change center, kept together as long.
final class _ChangeCenterBinding: Sendable {
    let defaults: _UncheckedSendable<UserDefaults>
    let center: KeyValueChangeCenter

    init(defaults: UserDefaults, center: KeyValueChangeCenter) {
        self.defaults = _UncheckedSendable(defaults)
        self.center = center
    }
}

/// The change center of an instance of UserDefaults that KeyCatalog does not keep, with the
/// instance held weakly (`nil` once it was released). The center holds no strong reference to
/// the instance: its watcher, if it has one, holds it weakly too.
struct _InstanceChangeCenter {
    weak var defaults: UserDefaults?
    let center: KeyValueChangeCenter
}
