import Foundation

/// One property-list file's contents, shared by every store opened on it in this process.
///
/// On disk a store is three files: the property list (`settings.plist`), the journal of the
/// writes made since the list was last written (`settings.plist.journal`, see
/// ``FileStoreJournal``), and the lock file writers hold (`settings.plist.lock`). A write appends
/// one record to the journal; the list is rewritten in the background once the journal has grown
/// as large as it (compaction), so a write costs the same whatever else the store holds.
final class PropertyListFile: Sendable {
    struct Contents {
        /// What the files hold, by key, each with the value last decoded from it.
        private(set) var stored: [String: Entry] = [:]
        /// Which change made each entry: a value decoded outside the lock is kept only for the
        /// entry it was decoded from.
        private var generation: UInt64 = 0
        var registered: [String: PropertyListValue] = [:]
        /// Entries of an XML file whose value did not parse, as their XML text, by key: their keys
        /// read their defaults, and writes keep them in the file until the key is written.
        var unreadable: [String: String] = [:]
        /// Why writes are refused: the file exists but could not be read, or it is corrupt and
        /// could not be moved aside. Writing would destroy it, so every write fails (reported)
        /// until the file can be read again.
        var writeBlock: String?
        /// The file as last read or written (`nil`: there was no file), to notice when another
        /// process replaced it.
        var signature: FileSignature?
        /// That file, held open so that its inode cannot be reused by another file: an equal inode
        /// then means the very same file, which writers only ever replace, never change.
        var opened: OpenFile?
        /// A load failure that did not block writes (a corrupt file moved aside), to report once.
        var loadReport: String?
        /// The journal, open for appending (`nil`: there is none yet).
        var journal: OpenFile?
        /// The journal as last read or appended to, to notice another process's appends.
        var journalSignature: FileSignature?
        /// How many of the journal's bytes (its header included) `stored` holds.
        var journalLength = 0
        /// Bytes that are not a whole record follow them: a write in progress, or one cut short,
        /// which the next writer must cut off before it appends.
        var journalHasDamagedTail = false
        /// Whole records of the journal that this version cannot read (a newer version's): a
        /// compaction, which would drop them, waits for a version that reads them.
        var journalUnreadableRecords = 0
        /// Why writes and compactions are refused: the journal's damaged tail, which they would cut
        /// off, could not be saved aside, or the journal is of a newer format, whose writes a new
        /// journal would hide. Looked at again by each writer.
        var journalBlock: String?
        /// The journal was made by a compaction whose rename of it may not be on the disk yet: a
        /// flush makes it so before it returns (``PropertyListFile/flush()``).
        var journalNameNeedsFlush = false
        /// The lock file, open while this process writes (`flock` on it).
        var lock: OpenFile?
        /// A write made the store's folder, which was missing (removed): the file's watch must
        /// move to it (``FileStoreChangeWatcher/rewatchFolder()``), once the locks are released.
        /// (A compaction finds nothing to compact in a folder removed, so only writes act on it.)
        var madeFolder = false
        /// A background flush of the journal is scheduled.
        var isFlushScheduled = false
        /// A background compaction is scheduled or under way.
        var isCompactionScheduled = false
        /// When the paths were last looked up (``_coarseMonotonicNanoseconds()``): until
        /// ``PropertyListFile/openFilesTrusted`` later, reads ask the files held open.
        var pathsLookedUp: UInt64?
        /// The keys whose values other processes changed, as this process's reads and writes
        /// found, that ``PropertyListFile/announceExternalChanges()`` has not announced yet: a read
        /// that catches up before the file's watch calls it must not leave observers unaware.
        /// Only keys that have observers are kept.
        var unannounced: Set<String> = []

        /// The journal's records have outgrown the list (and the minimum size): compacting now
        /// costs at most what writing them cost.
        var isCompactionDue: Bool {
            journalLength - FileStoreJournal.header.count >= max(Int(signature?.size ?? 0), PropertyListFile.minimumCompactionSize)
        }

        /// What a compaction would lose now, which keeps it from running: records of the journal
        /// this version cannot read, or a damaged tail that could not be saved aside.
        var compactionHold: String? {
            if let journalBlock { return journalBlock }
            guard journalUnreadableRecords > 0 else { return nil }
            return "the journal holds \(journalUnreadableRecords == 1 ? "1 whole record" : "\(journalUnreadableRecords) whole records") "
                + "this version of KeyCatalog cannot read (written by a newer one?), which a compaction would lose; "
                + "it is compacted by a version that reads \(journalUnreadableRecords == 1 ? "it" : "them")"
        }

        /// The stored values alone.
        var storedValues: [String: PropertyListValue] { stored.mapValues(\.value) }

        /// Sets (or, with `nil`, removes) the value for `key`, dropping any value decoded from the old one.
        mutating func setStored(_ value: PropertyListValue?, forKey key: String) {
            generation &+= 1
            stored[key] = value.map { Entry(value: $0, generation: generation) }
        }

        /// Notes each key whose value differs from its value in `before` as changed by another
        /// process (``unannounced``).
        mutating func noteExternalChanges(from before: [String: Entry]) {
            for (key, entry) in stored where !PropertyListValue.isIdentical(before[key]?.value, entry.value) { unannounced.insert(key) }
            for key in before.keys where stored[key] == nil { unannounced.insert(key) }
        }

        /// Replaces every stored value, dropping every decoded one.
        mutating func replaceStored(with values: [String: PropertyListValue]) {
            generation &+= 1
            let generation = generation
            stored = values.mapValues { Entry(value: $0, generation: generation) }
        }

        /// Keeps `decoded` as the value decoded from the entry for `key` that `generation` made, if
        /// that entry is still there.
        mutating func keep(_ decoded: KeptDecodedValue, forKey key: String, decodedFrom generation: UInt64) {
            guard let index = stored.index(forKey: key), stored.values[index].generation == generation else { return }
            stored.values[index].decoded = decoded
        }
    }

    /// A stored value, and the value a read last decoded from it for a representation that
    /// decodes by its type alone (collections): a later read through the same type of
    /// representation returns that one instead of decoding again. A change replaces the whole
    /// entry, so the decoded value is never stale.
    struct Entry {
        let value: PropertyListValue
        let generation: UInt64
        var decoded: KeptDecodedValue?
    }

    let url: URL
    /// The file's path with every symbolic link resolved (``canonicalPath(of:)``): its key among
    /// the files open in this process.
    let canonicalPath: String
    /// ``canonicalPath`` by its exact bytes: what the process's tables of files are keyed by.
    var canonicalKey: _ExactKey { _ExactKey(canonicalPath) }
    /// The advisory lock that writers hold (`flock`): the store file itself is replaced by
    /// compaction, so it cannot carry the lock.
    let lockURL: URL
    /// The journal of writes not yet in the list.
    let journalURL: URL
    /// The paths of the list and the journal, which writes and the watcher's refresh `stat`, and
    /// reads when the files they hold open changed and at least every ``openFilesTrusted``:
    /// `URL.path` decodes the URL again on each call (about 8,000 instructions for two: 60-80 % of
    /// a read, by callgrind).
    let paths: Paths

    struct Paths {
        let list: String
        let journal: String
        let lock: String
    }
    let contents: _Locked<Contents>
    let changes = KeyValueChangeCenter()

    /// How long reads trust the files held open to be the ones at the paths
    /// (``FileSignature/init(of:lastSeen:path:)``) before they look the paths up again: the
    /// longest a change those files cannot show goes unseen (the store's folder moved, a list put
    /// beside the journal, a file renamed away in the clock tick of its last change).
    static let openFilesTrusted: UInt64 = 100_000_000
    /// How long after a write its journal is flushed to the disk (`fdatasync`), for power loss; a
    /// crash of the process alone loses nothing that was written.
    static let flushDelay: DispatchTimeInterval = .milliseconds(100)
    /// The journal is compacted into the list once its records outgrow the list, and this size.
    static let minimumCompactionSize = 256 * 1024

    /// The files open in this process, by canonical path (its exact bytes: on Linux, `café`
    /// composed and decomposed are two files, though one `String`). Held weakly: a file's state, with its
    /// open files, goes once nothing holds it (no store, no observer, no pending flush or
    /// compaction), and a store opened on it later reads it again, once that state's `deinit` is
    /// done. No state may be released under this lock: its `deinit` takes it.
    private static let openFiles = _Locked(OpenFiles())
    /// What outlasts a file's state, by canonical path, for the process: the values registered
    /// (as UserDefaults' registrations do), and Observation's view of the keys read through
    /// catalogs, whose trackers must hear of changes made through the file's later states.
    private static let lasting = _Locked<[_ExactKey: Lasting]>([:])

    private struct OpenFiles {
        var states: [_ExactKey: Slot] = [:]
        /// The files whose folder was cleaned of abandoned temporary files, once per process (at
        /// most ``cleanedLimit`` remembered: past that, a file may be cleaned once more).
        var cleaned: Set<_ExactKey> = []
    }

    /// How many files' cleaning ``OpenFiles/cleaned`` remembers.
    static let cleanedLimit = 4_096

    /// A file's state, from its making to the end of its `deinit`, which removes the slot once it
    /// has recorded what outlasts the state (``lasting``).
    private struct Slot {
        /// `nil` once the state is ending.
        weak var file: PropertyListFile?
        /// Threads waiting for the ending state's `deinit` to be done, to make the file's next state.
        var waiters: [DispatchSemaphore] = []
    }

    private struct Lasting {
        var registered: [String: PropertyListValue] = [:]
        var observationTracking: (AnyObject & Sendable)?
        /// The values of the keys read through catalogs when the file's last state ended (a key
        /// absent: it had none): a later state tells their trackers of each that differs.
        var lastKnown: [String: PropertyListValue]?
        /// Of those, the keys whose change the state found but had not announced when it ended
        /// (its watch's call came too late): told by a later state whatever their value.
        var unheard: Set<String> = []
        /// The failure a state's first load last reported, and the files it was found in: a later
        /// state that finds the same failure in the same files does not report it again.
        var reportedLoadFailure: LoadFailure?
    }

    /// A failure found by a state's first load, in the files as they were then.
    private struct LoadFailure: Equatable {
        let message: String
        let list: FileSignature?
        let journal: FileSignature?
    }

    /// The state of the file at `url` in this process: the one every store of that file shares
    /// while any holds it, however its path is spelled.
    static func shared(at url: URL) -> PropertyListFile {
        let path = canonicalPath(of: url)
        while true {
            switch openFiles.withLock({ files in opening(path, in: &files) }) {
            case .open(let file):
                return file
            case .ending(let ended):
                // The next state must read what the ending one's `deinit` records (the values its
                // trackers heard, the changes it found but did not tell): read before that, a
                // change would go untold, or be told twice.
                ended.wait()
            case .made(let file, let cleans):
                // Outside the lock, before the state is returned: a watch or a tracker may call
                // back, and its handler may open a file store.
                if cleans { removeAbandonedTemporaryFiles(of: file.url) }
                file.takeOverFromEarlierStates()
                return file
            }
        }
    }

    private enum Opening {
        case open(PropertyListFile)
        /// The file's state is ending; signalled once its `deinit` is done.
        case ending(DispatchSemaphore)
        /// A new state, whose folder is to be cleaned (``removeAbandonedTemporaryFiles(of:olderThan:)``) if `cleans`.
        case made(PropertyListFile, cleans: Bool)
    }

    /// The file's state at `path`, made if there is none; under the lock of ``openFiles``.
    private static func opening(_ path: String, in files: inout OpenFiles) -> Opening {
        let key = _ExactKey(path)
        if let slot = files.states[key] {
            if let file = slot.file { return .open(file) }
            let ended = DispatchSemaphore(value: 0)
            files.states[key]!.waiters.append(ended)
            return .ending(ended)
        }
        let file = PropertyListFile(canonicalPath: path)
        file.connectChangeCenter()
        // Before the state is shared: a catalog read on another thread must find the file's
        // tracking, not make one of its own that would replace it in `lasting`.
        if let tracking = lasting.withLock({ $0[key]?.observationTracking }) {
            file.changes.presetObservationTracking(tracking)
        }
        files.states[key] = Slot(file: file)
        if files.cleaned.count >= Self.cleanedLimit { files.cleaned = [] }
        return .made(file, cleans: files.cleaned.insert(key).inserted)
    }

    /// What a new state takes over from the file's earlier states: the trackers of the keys read
    /// through catalogs, told of each change they have not heard of, and the load failure they
    /// reported.
    private func takeOverFromEarlierStates() {
        let lastSeen = Self.lasting.withLock { $0[canonicalKey] }
        if let tracking = lastSeen?.observationTracking {
            let keys = changes.adoptObservationTracking(tracking)
            // Changed while no state of the file was open (by another process): told once.
            if let lastKnown = lastSeen?.lastKnown {
                let unheard = lastSeen?.unheard ?? []
                let current = contents.withLock { contents in keys.map { contents.stored[$0]?.value } }
                for (key, value) in zip(keys, current) where lastKnown[key] != value || unheard.contains(key) {
                    changes.post(key: key, value: value)
                }
            }
        }
        reportLoadFailure(after: lastSeen?.reportedLoadFailure)
    }

    /// Reports what this new state's first load found wrong, unless an earlier state of the file
    /// reported the same in the same files (unchanged since: the same inodes, sizes and times).
    /// A file that cannot be read is reported once, not each time a store is opened on it again.
    private func reportLoadFailure(after reported: LoadFailure?) {
        guard let message = contents.withLock({ $0.writeBlock ?? $0.loadReport }) else {
            if reported != nil { Self.lasting.withLock { $0[canonicalKey]?.reportedLoadFailure = nil } }
            return
        }
        let failure = LoadFailure(message: message, list: FileSignature(path: paths.list), journal: FileSignature(path: paths.journal))
        guard failure != reported else { return }
        Self.lasting.withLock { $0[canonicalKey, default: Lasting()].reportedLoadFailure = failure }
        Self.report(url, message)
    }

    /// Gives the change center its watcher, and what ties it to this state and to the file's
    /// later states; before the state is shared.
    private func connectChangeCenter() {
        _ = changes.attach(FileStoreChangeWatcher(file: self))
        changes.keptByObservations = self
        let url = url
        let key = canonicalKey
        changes.currentCenterOfFile = {
            let current = PropertyListFile.shared(at: url)
            return (current.changes, current)
        }
        changes.observationTrackingMade = { tracking in
            Self.lasting.withLock { $0[key, default: Lasting()].observationTracking = tracking }
        }
    }

    /// Registers `values` as the defaults of their keys, for this file's stores from now on, in
    /// this process.
    func register(_ values: [String: PropertyListValue]) {
        contents.withLock { contents in
            contents.registered.merge(values) { _, new in new }
            Self.lasting.withLock { $0[canonicalKey, default: Lasting()].registered.merge(values) { _, new in new } }
        }
    }

    deinit {
        // A center held on (``KeyValueChangeCenter/currentCenterOfFile``) keeps its watcher:
        // its watches of the files end with the state.
        (changes.attachedWatcher as? FileStoreChangeWatcher)?.stop()
        recordForNextState()
        // Then the file's next state may be made (a store opening it now waits for this).
        let waiters = Self.openFiles.withLock { files in files.states.removeValue(forKey: canonicalKey)?.waiters ?? [] }
        for waiter in waiters { waiter.signal() }
    }

    /// Records the values the trackers of catalog reads last heard of, for the file's next state.
    private func recordForNextState() {
        let keys = changes.observationTrackedKeys
        guard !keys.isEmpty else { return }
        let (values, unheard) = contents.withLock { contents in
            (
                keys.reduce(into: [String: PropertyListValue]()) { values, key in values[key] = contents.stored[key]?.value },
                contents.unannounced.intersection(keys)
            )
        }
        Self.lasting.withLock { lasting in
            lasting[canonicalKey, default: Lasting()].lastKnown = values
            lasting[canonicalKey, default: Lasting()].unheard = unheard
        }
    }

    private init(canonicalPath: String) {
        let url = URL(fileURLWithPath: canonicalPath)
        self.url = url
        self.canonicalPath = canonicalPath
        self.lockURL = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".lock")
        self.journalURL = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".journal")
        self.paths = Paths(list: url.path, journal: journalURL.path, lock: lockURL.path)
        var contents = Contents()
        contents.registered = Self.lasting.withLock { $0[_ExactKey(canonicalPath)]?.registered } ?? [:]
        contents.pathsLookedUp = _coarseMonotonicNanoseconds()
        let report = Self.refresh(&contents, url: url, journalURL: journalURL, lockURL: lockURL, paths: paths, trustsOpenFiles: false)
        contents.loadReport = contents.writeBlock == nil ? report : nil
        // What the first load read is no change: nobody heard another value from this state
        // (the file's earlier states' trackers are told in ``shared(at:)``).
        contents.unannounced = []
        self.contents = _Locked(contents)
        if contents.isCompactionDue {
            self.contents.withLock { $0.isCompactionScheduled = true }
            scheduleCompaction()
        }
    }

    /// Removes the temporary files of writes that never reached their rename (the process was
    /// killed), once they are old enough that no live writer can own them. Each compaction does,
    /// after its own rename: not each opening, which would list the folder for every store opened
    /// (a folder of documents, each with its store).
    private static func removeAbandonedTemporaryFiles(of url: URL, olderThan age: TimeInterval = 60) {
        let directory = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.utf8.starts(with: prefix.utf8) && name.hasSuffix(".tmp") {
            let file = directory.appendingPathComponent(name)
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
            guard let modified = attributes?[.modificationDate] as? Date, modified < Date(timeIntervalSinceNow: -age) else { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Runs `body` on the contents, after catching up with other processes' writes. When the files
    /// held open show no change, that costs an `fstat` of the journal, and of the list if there is
    /// one (``FileSignature/init(of:lastSeen:path:)``). A failure found while reading is reported
    /// once, after the lock is released.
    func read<Result>(_ body: (inout Contents) -> Result) -> Result {
        let (result, report) = contents.withLock { contents -> (Result, String?) in
            let report = refresh(&contents)
            return (body(&contents), report)
        }
        if let report { Self.report(url, report) }
        return result
    }

    /// - Parameters:
    ///   - isLocked: the caller holds the file's lock (a writer): it looks up the paths, since it
    ///     must append to the journal that is there.
    ///   - looksUpPaths: look them up for a read too (the watcher saw the folder change).
    private func refresh(_ contents: inout Contents, isLocked: Bool = false, looksUpPaths: Bool = false) -> String? {
        let now = _coarseMonotonicNanoseconds()
        let trustsOpenFiles =
            !isLocked && !looksUpPaths && contents.pathsLookedUp.map { now &- $0 < Self.openFilesTrusted } == true
        if !trustsOpenFiles { contents.pathsLookedUp = now }
        let report = Self.refresh(
            &contents, url: url, journalURL: journalURL, lockURL: isLocked ? nil : lockURL, paths: paths, trustsOpenFiles: trustsOpenFiles)
        // Only keys observed now: an observer added later reads the key as it is then. (Rare: a
        // read finds another process's change before the watch reports it.)
        if !contents.unannounced.isEmpty {
            contents.unannounced = contents.unannounced.filter { changes.hasObservers(forKey: $0) }
        }
        return report
    }

    /// Brings `contents` up to the files on disk: applies the records another process appended to
    /// the journal, or, if the list or the journal was replaced (a compaction, another writer), reads
    /// both again. Returns a failure to report, if reading found one.
    ///
    /// - Parameters:
    ///   - lockURL: the lock file to take if the list must be moved aside (it is corrupt); `nil`
    ///     when the caller holds the lock, which also lets it repair the journal's tail.
    ///   - trustsOpenFiles: ask the files held open first (``FileSignature/init(of:lastSeen:path:)``),
    ///     and the paths only if those changed.
    private static func refresh(
        _ contents: inout Contents, url: URL, journalURL: URL, lockURL: URL?, paths: Paths, trustsOpenFiles: Bool
    ) -> String? {
        let journalSignature =
            trustsOpenFiles
            ? FileSignature(of: contents.journal, lastSeen: contents.journalSignature, path: paths.journal)
            : FileSignature(path: paths.journal)
        // Nor is a list looked for where there was none while the journal is the one last read:
        // only a compaction makes one, and it then replaces the journal. (A list another program
        // puts there is read once the paths are looked up: by the next write, which keeps it,
        // and by reads within ``openFilesTrusted``.)
        let listSignature =
            if trustsOpenFiles, contents.signature == nil, let journalSignature, let known = contents.journalSignature,
                journalSignature.isSameFile(as: known)
            {
                nil as FileSignature?
            } else if trustsOpenFiles {
                FileSignature(of: contents.opened, lastSeen: contents.signature, path: paths.list)
            } else {
                FileSignature(path: paths.list)
            }
        // A writer looks again at a file that blocked writes; a reader does once it changes.
        if listSignature == contents.signature, lockURL != nil || contents.writeBlock == nil {
            if journalSignature == contents.journalSignature, lockURL != nil || !contents.journalHasDamagedTail { return nil }
            // (Not a journal whose header did not read, `journalLength` 0: its bytes are no records.)
            if let journal = contents.journal, contents.journalLength > 0, let journalSignature, let known = contents.journalSignature,
                journalSignature.isSameFile(as: known), journalSignature.size >= Int64(contents.journalLength)
            {
                return catchUp(
                    &contents, journal: journal, signature: journalSignature, journalURL: journalURL, isLocked: lockURL == nil,
                    notesChanges: true)
            }
        }
        let before = contents.stored
        let report = reload(&contents, url: url, journalURL: journalURL, lockURL: lockURL, paths: paths, journalSignature: journalSignature)
        contents.noteExternalChanges(from: before)
        return report
    }

    /// Reads the list and the journal again (``refresh(_:url:journalURL:lockURL:paths:trustsOpenFiles:)``).
    private static func reload(
        _ contents: inout Contents, url: URL, journalURL: URL, lockURL: URL?, paths: Paths, journalSignature: FileSignature?
    ) -> String? {
        var journalSignature = journalSignature
        // The journal is opened before the list is read: a compaction that comes between leaves
        // a newer list, which the older journal's records cannot make wrong (they are all in it).
        var journal = openJournal(journalURL)
        var journalOpenError = errno
        if lockURL != nil { _journalOpenedForReload.withLock { $0 }?(url) }
        var loaded = load(url, movingCorruptAside: lockURL == nil)
        if let lockURL, !isSameFile(journal, as: FileSignature(path: paths.journal)) {
            // Another journal was renamed in meanwhile: a second compaction may have come between,
            // whose list holds writes newer than the records of the journal opened, which would
            // then undo them. Both are read again under the lock, which compactions take.
            let reread = try? withFileLock(lockURL) { () -> (OpenFile?, Int32, FileSignature?, Loaded) in
                let journal = openJournal(journalURL)
                let error = errno
                return (journal, error, FileSignature(path: paths.journal), load(url, movingCorruptAside: true))
            }
            if let reread { (journal, journalOpenError, journalSignature, loaded) = reread }
        }
        if loaded.isCorrupt, let lockURL {
            loaded = loadUnderLock(url, lockURL: lockURL)
        }
        if journal == nil, journalSignature != nil, loaded.writeBlock == nil {
            // A journal that is there but cannot be opened holds writes this process cannot see:
            // a new journal would replace it.
            loaded.writeBlock =
                "its journal \(journalURL.path) could not be read (\(POSIXFailure("open it", errno: journalOpenError))); writes are refused until it can be"
        }
        if loaded.writeBlock != nil {
            // Keep the values last read: better than none, and writes are refused anyway.
            contents.writeBlock = loaded.writeBlock
            contents.signature = loaded.signature
            contents.opened = nil
            contents.journalSignature = journalSignature
            return loaded.writeBlock
        }
        apply(loaded, to: &contents)
        contents.journal = journal
        contents.journalSignature = nil
        contents.journalLength = 0
        contents.journalHasDamagedTail = false
        contents.journalUnreadableRecords = 0
        contents.journalBlock = nil
        guard let journal, let signature = FileSignature(descriptor: journal.descriptor) else { return loaded.report }
        let header = FileStoreJournal.header
        let start = (try? journal.read(from: 0, count: header.count)) ?? Data()
        guard start == Data(header) else {
            // Not a journal of this format: not read. A newer format's blocks writes (a new
            // journal would hide its writes); anything else the next writer moves aside.
            contents.journalSignature = signature
            let report: String
            if start.count == header.count, start.prefix(4).elementsEqual(header.prefix(4)) {
                let version = start.suffix(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
                contents.journalBlock =
                    "its journal \(journalURL.path) is of format version \(version) (its header, at offset 0), which this version of KeyCatalog does not read "
                    + "(written by a newer one?): its writes are not seen, and writes are refused, so that a new journal does not hide them"
                report = contents.journalBlock!
            } else {
                report =
                    "its journal \(journalURL.path) does not start with a KeyCatalog journal's header (offset 0: damaged bytes, or another program's file): "
                    + "its writes are not seen; the next write moves it aside, kept, and starts a new journal"
            }
            return [loaded.report, report].compactMap { $0 }.joined(separator: "; ")
        }
        contents.journalLength = header.count
        let journalReport = catchUp(
            &contents, journal: journal, signature: signature, journalURL: journalURL, isLocked: lockURL == nil, notesChanges: false)
        return [loaded.report, journalReport].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
    }

    /// Whether `journal` is the file `signature` describes (both `nil`: there is no journal).
    private static func isSameFile(_ journal: OpenFile?, as signature: FileSignature?) -> Bool {
        guard let journal else { return signature == nil }
        guard let signature, let opened = FileSignature(descriptor: journal.descriptor) else { return false }
        return opened.isSameFile(as: signature)
    }

    /// Called by a reload without the lock between opening the journal and reading the list: the
    /// seam of the test that compacts twice in that window. Not for apps.
    static let _journalOpenedForReload = _Locked<(@Sendable (URL) -> Void)?>(nil)

    /// Applies the journal's records after `contents.journalLength`. A record that is incomplete
    /// or damaged ends them: without the lock it may be another process's write in progress; under
    /// the lock it is a write that was cut short, and the bytes from it on are moved aside (to
    /// `<journal>.damaged-<time>`, reported) and cut off, so that new records follow intact ones.
    private static func catchUp(
        _ contents: inout Contents,
        journal: OpenFile,
        signature: FileSignature,
        journalURL: URL,
        isLocked: Bool,
        notesChanges: Bool
    ) -> String? {
        let bytes: Data
        do {
            bytes = try journal.read(from: contents.journalLength)
        } catch {
            contents.journalSignature = nil
            return "the journal \(journalURL.path) could not be read (\(error)); its newest writes are not seen until it can be"
        }
        let scan = bytes.withUnsafeBytes { FileStoreJournal.scan($0) }
        for record in scan.records {
            if notesChanges, !PropertyListValue.isIdentical(contents.stored[record.key]?.value, record.value) { contents.unannounced.insert(record.key) }
            contents.setStored(record.value, forKey: record.key)
            contents.unreadable[record.key] = nil
        }
        contents.journalLength += scan.length
        contents.journalSignature = signature
        contents.journalHasDamagedTail = scan.hasDamagedTail
        contents.journalUnreadableRecords += scan.unreadable
        // A damaged tail this process could not save aside, and another cut off since.
        if !scan.hasDamagedTail { contents.journalBlock = nil }
        let skipped =
            scan.unreadable == 0
            ? nil
            : "\(scan.unreadable == 1 ? "1 whole record" : "\(scan.unreadable) whole records") of the journal \(journalURL.path) could not be read "
                + "(written by another version of KeyCatalog?) and \(scan.unreadable == 1 ? "was" : "were") skipped: "
                + "\(scan.unreadable == 1 ? "its key keeps its" : "their keys keep their") earlier value; the records after them are read, "
                + "and the journal is not compacted while it holds \(scan.unreadable == 1 ? "it" : "them")"
        guard scan.hasDamagedTail, isLocked else { return skipped }
        let damaged = bytes.count - scan.length
        let aside = URL(fileURLWithPath: journalURL.path + ".damaged-\(timestamp())")
        var report =
            "the journal ends with \(damaged) bytes at offset \(contents.journalLength) that do not read as whole records "
            + "(a write cut short by a crash or power loss, or bytes damaged on the disk)"
        // Saved on the disk before they are cut off: they may be whole writes after a damaged one.
        do {
            try writeAside(bytes[(bytes.startIndex + scan.length)...], to: aside)
            report += "; moved aside to \(aside.path)"
        } catch {
            contents.journalBlock = "\(report); they could not be moved aside (\(error)); writes, which would cut them off, are refused until they can be"
            return [skipped, contents.journalBlock].compactMap { $0 }.joined(separator: "; ")
        }
        contents.journalBlock = nil
        guard ftruncate(journal.descriptor, off_t(contents.journalLength)) == 0 else {
            contents.writeBlock = "\(report), and could not be cut off (\(POSIXFailure("truncate it"))); writes are refused until it can be"
            return contents.writeBlock
        }
        contents.journalSignature = FileSignature(descriptor: journal.descriptor)
        contents.journalHasDamagedTail = false
        return [skipped, report + "; every complete write before them is kept"].compactMap { $0 }.joined(separator: "; ")
    }

    /// The journal at `url`, open for reading and appending (for reading only if this process may
    /// not write it); `nil` if there is none.
    private static func openJournal(_ url: URL) -> OpenFile? {
        var descriptor = open(url.path, O_RDWR | O_APPEND | O_CLOEXEC)
        if descriptor < 0 && errno == EACCES {
            descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        }
        return descriptor < 0 ? nil : OpenFile(descriptor)
    }

    /// Reads the files again if another process wrote them, and announces each observed key whose
    /// value that changed, or whose change a read or write of this process found since the last
    /// announcement (``Contents/unannounced``). The file's ``FileStoreChangeWatcher`` calls it when
    /// a file changes.
    func announceExternalChanges() {
        let (changed, report) = contents.withLock { contents -> ([String], String?) in
            let report = refresh(&contents, looksUpPaths: true)
            defer { contents.unannounced = [] }
            return (contents.unannounced.sorted(), report)
        }
        if let report { Self.report(url, report) }
        // Only observed keys are noted (``refresh(_:isLocked:looksUpPaths:)``); a key whose last
        // observer left since is skipped by the center.
        guard !changed.isEmpty else { return }
        changes.postExternalChanges(forKeys: changed, in: FileKeyValueStore(url: url))
    }

    /// Forgets the changes not announced yet: the file's watch stopped, nobody observes it.
    func forgetUnannouncedChanges() {
        contents.withLock { $0.unannounced = [] }
    }

    /// Sets (or, with `nil`, removes) one value: appends its record to the journal with one
    /// `write(2)`, so that it survives this process being killed once this returns. If writing
    /// fails, the contents stay as they were.
    ///
    /// Under the file's lock: other processes' records are applied first, so the contents are
    /// what the files hold with this one change. Failures are reported once the locks are
    /// released: a failure handler may itself use the store.
    func update(_ key: String, to value: PropertyListValue?) throws {
        try update(key, to: value, ifStored: nil)
    }

    /// Removes `key` if the files hold `expected` for it, bit for bit, other processes' records
    /// applied; the check and the removal are under the file's lock, so no write of another
    /// process or thread comes between them.
    func remove(_ key: String, ifStored expected: PropertyListValue) throws -> _ConditionalRemoval {
        try update(key, to: nil, ifStored: expected)
    }

    /// Writes `value` (`nil` removes) for `key`, if `expected` is `nil` or the files hold it:
    /// `.removed` once written, else what the files hold instead.
    @discardableResult
    private func update(_ key: String, to value: PropertyListValue?, ifStored expected: PropertyListValue?) throws -> _ConditionalRemoval {
        let record = try FileStoreJournal.record(key: key, value: value)
        let (report, outcome, flush, compaction, madeFolder) = try _HeldCallbacks.holding {
            try contents.withLock { contents in
                try withFileLock(&contents) { contents -> (String?, _ConditionalRemoval, Bool, Bool, Bool) in
                    let report = refresh(&contents, isLocked: true)
                    if let block = contents.writeBlock ?? contents.journalBlock {
                        throw FileStoreUnavailable(description: "not written, to keep the file that is there: \(block)")
                    }
                    if let expected {
                        if let held = contents.stored[key]?.value {
                            if !held.isIdentical(to: expected) { return (report, .changed, false, false, false) }
                        } else {
                            return (report, contents.unreadable[key] == nil ? .absent : .changed, false, false, false)
                        }
                    }
                    var unreadable = contents.unreadable
                    unreadable[key] = nil
                    // Compaction must be able to write the value: an XML file keeping unreadable
                    // entries cannot hold every string.
                    if let value { try PropertyListFileDecoding.checkXMLHolds(value, forKey: key, keeping: unreadable) }
                    let journal = try journalForAppending(&contents)
                    try Self.append(record, to: journal, at: contents.journalLength, journalURL: journalURL)
                    contents.journalLength += record.count
                    contents.journalSignature = FileSignature(descriptor: journal.descriptor)
                    contents.setStored(value, forKey: key)
                    contents.unreadable = unreadable
                    let flush = !contents.isFlushScheduled
                    let compaction = !contents.isCompactionScheduled && contents.isCompactionDue && contents.compactionHold == nil
                    contents.isFlushScheduled = true
                    contents.isCompactionScheduled = contents.isCompactionScheduled || compaction
                    defer { contents.madeFolder = false }
                    return (report, .removed, flush, compaction, contents.madeFolder)
                }
            }
        }
        // What the write found, reported once it succeeded (a failure is the write's to report).
        if let report { Self.report(url, report) }
        if flush { scheduleFlush() }
        if compaction { scheduleCompaction() }
        if madeFolder { (changes.attachedWatcher as? FileStoreChangeWatcher)?.rewatchFolder() }
        return outcome
    }

    /// Makes every write so far survive power loss (`fdatasync` of the journal, and of its folder
    /// if a compaction's rename of the journal may not be on the disk yet).
    func flush() throws {
        let (journal, nameNeedsFlush) = contents.withLock { ($0.journal, $0.journalNameNeedsFlush) }
        guard let journal else { return }
        guard journal.flushData() == 0 else { throw POSIXFailure("flush \(journalURL.path)") }
        guard nameNeedsFlush else { return }
        try Self.syncFolder(of: journalURL)
        contents.withLock { contents in
            if contents.journal === journal { contents.journalNameNeedsFlush = false }
        }
    }

    /// The journal to append to: the open one, or a new one (header only) if there is none or
    /// the one there is not a journal of this format (moved aside, reported).
    private func journalForAppending(_ contents: inout Contents) throws -> OpenFile {
        if let journal = contents.journal, contents.journalLength > 0 { return journal }
        if contents.journal != nil {
            let aside = URL(fileURLWithPath: journalURL.path + ".corrupt-\(Self.timestamp())")
            try FileManager.default.moveItem(at: journalURL, to: aside)
            Self.report(url, "the journal \(journalURL.path) is not a KeyCatalog journal (its header, at offset 0, does not read); moved aside to \(aside.path)")
        }
        let journal = try Self.writeJournal(FileStoreJournal.header, to: journalURL)
        contents.journal = journal
        contents.journalLength = FileStoreJournal.header.count
        contents.journalUnreadableRecords = 0
        contents.journalSignature = FileSignature(descriptor: journal.descriptor)
        return journal
    }

    /// Appends `record` at the journal's end; if that fails, cuts off whatever part of it was
    /// written.
    private static func append(_ record: [UInt8], to journal: OpenFile, at length: Int, journalURL: URL) throws {
        do {
            try journal.write(record)
        } catch {
            // A journal this process may only read (another user's, or its mode changed) was
            // opened for reading: say so, rather than "Bad file descriptor".
            if fcntl(journal.descriptor, F_GETFL) & O_ACCMODE == O_RDONLY {
                throw FileStoreUnavailable(description: "not written: the journal \(journalURL.path) is not writable by this process (permission denied)")
            }
            _ = ftruncate(journal.descriptor, off_t(length))
            throw error
        }
    }

    /// Writes a journal holding `bytes` (the header, then records) beside `url` and renames it
    /// over `url`; returns it open for appending. The rename is made durable unless the caller
    /// says it will do so itself (`syncingFolder: false`).
    private static func writeJournal(_ bytes: [UInt8], to url: URL, syncingFolder: Bool = true) throws -> OpenFile {
        let (temporary, file) = try writeTemporary(Data(bytes), beside: url)
        guard rename(temporary, url.path) == 0 else {
            let failure = POSIXFailure("replace \(url.path)")
            unlink(temporary)
            throw failure
        }
        if syncingFolder {
            do {
                try syncFolder(of: url)
            } catch {
                // The journal is there and takes writes: only a power loss could undo its rename.
                report(url, "the new journal's name may not survive a power loss (\(error))")
            }
        }
        // Appends need O_APPEND, which the temporary file was not opened with.
        guard let journal = openJournal(url), FileSignature(descriptor: journal.descriptor) == FileSignature(descriptor: file.descriptor)
        else { throw POSIXFailure("open \(url.path)") }
        return journal
    }

    // MARK: - Flushing and compaction

    /// Flushes the journal to the disk once, ``flushDelay`` after the first write since the last
    /// flush: one `fdatasync` for a burst of writes.
    private func scheduleFlush() {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.flushDelay) { [self] in
            contents.withLock { $0.isFlushScheduled = false }
            do {
                try flush()
            } catch {
                Self.report(url, "the journal could not be flushed to the disk (\(error)); a power loss may lose the newest writes")
            }
        }
    }

    /// Compacts the journal in the background, now.
    private func scheduleCompaction() {
        DispatchQueue.global(qos: .utility).async { [self] in
            defer { contents.withLock { $0.isCompactionScheduled = false } }
            do {
                try compactIfDue()
            } catch {
                // The store's folder is gone (removed while the compaction ran): there is nothing
                // left to compact, and the next write makes the folder and a new journal again.
                guard FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path) else { return }
                Self.report(url, "the journal could not be compacted into the property list (\(error)); it is kept, and compaction is tried again after the next write")
            }
        }
    }

    /// Rewrites the list with the journal's records and starts the journal again, once the
    /// journal has outgrown the list: the cost of rewriting the list is then spread over as many
    /// bytes of writes as it holds.
    ///
    /// The list is written outside the locks; under them, it is renamed over the old one and the
    /// records appended meanwhile start the new journal. A crash at any step leaves a list and a
    /// journal that read as the store did (see ``FileStoreJournal``).
    func compactIfDue(force: Bool = false) throws {
        struct Snapshot {
            var stored: [String: Entry]
            var unreadable: [String: String]
            var list: FileSignature?
            var journal: FileSignature
            var length: Int
        }
        let snapshot = try _HeldCallbacks.holding {
            try contents.withLock { contents in
                try withFileLock(&contents) { contents -> Snapshot? in
                    if let report = refresh(&contents, isLocked: true) { Self.report(url, report) }
                    // Asked for, a compaction that cannot run says why (a load failure is also
                    // reported as the store reads the files).
                    if force, let block = contents.writeBlock ?? contents.journalBlock {
                        throw FileStoreUnavailable(description: "not compacted, to keep the file that is there: \(block)")
                    }
                    guard contents.writeBlock == nil, contents.journalLength > FileStoreJournal.header.count,
                        let journal = contents.journalSignature, force || contents.isCompactionDue
                    else { return nil }
                    if let hold = contents.compactionHold {
                        if force { throw FileStoreUnavailable(description: "not compacted: \(hold)") }
                        return nil
                    }
                    return Snapshot(
                        stored: contents.stored,
                        unreadable: contents.unreadable,
                        list: contents.signature,
                        journal: journal,
                        length: contents.journalLength
                    )
                }
            }
        }
        guard let snapshot else { return }
        let data = try PropertyListFileDecoding.encode(snapshot.stored.mapValues(\.value), keeping: snapshot.unreadable)
        let (temporary, list) = try Self.writeTemporary(data, beside: url)
        defer { unlink(temporary) }  // Nothing to remove once renamed.
        let newJournal = try _HeldCallbacks.holding {
            try contents.withLock { contents in
                try withFileLock(&contents) { contents -> OpenFile? in
                    if let report = refresh(&contents, isLocked: true) { Self.report(url, report) }
                    // Another process compacted meanwhile: its list is as new as this one.
                    guard contents.signature == snapshot.list, let journal = contents.journal, let current = contents.journalSignature,
                        current.isSameFile(as: snapshot.journal)
                    else { return nil }
                    // Records appended meanwhile that this version cannot read, or a damaged tail
                    // that could not be saved: the new journal would lose them.
                    if let hold = contents.compactionHold {
                        if force { throw FileStoreUnavailable(description: "not compacted: \(hold)") }
                        return nil
                    }
                    let appended = try journal.read(from: snapshot.length, count: contents.journalLength - snapshot.length)
                    guard rename(temporary, url.path) == 0 else { throw POSIXFailure("replace \(url.path)") }
                    // The new list must be on disk before the old journal goes: the list alone, with
                    // the journal's head, would lose those records. If it cannot be made so, the new
                    // list stays with the old journal, which read the same.
                    try Self.syncFolder(of: url)
                    contents.signature = FileSignature(descriptor: list.descriptor)
                    contents.opened = list
                    // Its rename is made durable after the locks are released: lost to power loss, it
                    // leaves the new list and the old journal, which read the same, unless records
                    // were appended to it meanwhile; a flush makes its name durable before it
                    // returns (``flush()``).
                    let newJournal = try Self.writeJournal(FileStoreJournal.header + appended, to: journalURL, syncingFolder: false)
                    contents.journal = newJournal
                    contents.journalLength = FileStoreJournal.header.count + appended.count
                    contents.journalSignature = FileSignature(descriptor: newJournal.descriptor)
                    contents.journalNameNeedsFlush = true
                    return newJournal
                }
            }
        }
        guard let newJournal else { return }
        do {
            try Self.syncFolder(of: journalURL)
            contents.withLock { contents in
                if contents.journal === newJournal { contents.journalNameNeedsFlush = false }
            }
        } catch {
            Self.report(url, "the compacted journal's new name may not survive a power loss (\(error)); every write is still in the list or the journal")
        }
        Self.removeAbandonedTemporaryFiles(of: url)
    }

    /// Takes the exclusive advisory lock on the lock file (creating it, mode 0600, and its folder)
    /// for `body`. The lock file stays open: locking costs one `flock`, one `fstat` and one
    /// `stat` of its path.
    private func withFileLock<Result>(_ contents: inout Contents, _ body: (inout Contents) throws -> Result) throws -> Result {
        while true {
            let lock = try openLock(&contents)
            while flock(lock.descriptor, LOCK_EX) != 0 {
                if errno == EINTR { continue }
                throw POSIXFailure("lock \(lockURL.path)")
            }
            // Checked once locked: the file may have been removed (by another program, or with
            // its folder) or its folder moved away while this waited, and other processes lock
            // the file made at the path then. Opened again, and locked again.
            guard Self.pathStillNames(lock, paths.lock) else {
                flock(lock.descriptor, LOCK_UN)
                contents.lock = nil
                continue
            }
            defer { flock(lock.descriptor, LOCK_UN) }
            return try body(&contents)
        }
    }

    /// Whether `path` names the open file `file`, which has not been removed.
    private static func pathStillNames(_ file: OpenFile, _ path: String) -> Bool {
        guard let held = FileSignature(descriptor: file.descriptor), held.links > 0, let named = FileSignature(path: path) else { return false }
        return named.isSameFile(as: held)
    }

    /// The open lock file, opened (and its folder made) if there is none.
    private func openLock(_ contents: inout Contents) throws -> OpenFile {
        if let lock = contents.lock { return lock }
        let path = lockURL.path
        var descriptor = Self.openLockFile(path)
        if descriptor < 0 && errno == ENOENT {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            contents.madeFolder = true
            descriptor = Self.openLockFile(path)
        }
        guard descriptor >= 0 else { throw POSIXFailure("open the lock file \(path)") }
        let lock = OpenFile(descriptor)
        contents.lock = lock
        return lock
    }

    private static func openLockFile(_ path: String) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor < 0 && errno == EACCES else { return descriptor }
        // A lock file made by another user: locking needs no write access. If there is none, the
        // folder cannot be written: the error is that, not the file missing.
        let readOnly = open(path, O_RDONLY | O_CLOEXEC)
        if readOnly < 0 { errno = EACCES }
        return readOnly
    }

    /// Takes the lock on `lockURL` for `body` with a descriptor of its own: only while the file is
    /// being opened, before any write of this process can hold it.
    private static func withFileLock<Result>(_ lockURL: URL, _ body: () throws -> Result) throws -> Result {
        while true {
            let descriptor = openLockFile(lockURL.path)
            guard descriptor >= 0 else { throw POSIXFailure("open the lock file \(lockURL.path)") }
            // Closing the file releases the lock.
            let lock = OpenFile(descriptor)
            while flock(descriptor, LOCK_EX) != 0 {
                if errno == EINTR { continue }
                throw POSIXFailure("lock \(lockURL.path)")
            }
            // As in the instance's lock: a file removed while this waited is locked by no one else.
            guard pathStillNames(lock, lockURL.path) else { continue }
            return try withExtendedLifetime(lock) { try body() }
        }
    }

    /// Loads the file under its lock, so that moving a corrupt file aside cannot move another
    /// process's fresh file instead; without the lock (it cannot be created), loads anyway.
    private static func loadUnderLock(_ url: URL, lockURL: URL) -> Loaded {
        (try? withFileLock(lockURL) { load(url, movingCorruptAside: true) }) ?? load(url, movingCorruptAside: true)
    }

    /// What loading a file found: its values, why writes must be refused, a failure to report.
    struct Loaded {
        var values: [String: PropertyListValue] = [:]
        var unreadable: [String: String] = [:]
        var writeBlock: String?
        /// Why the file, read as usual (its journal too), must not be written.
        var readOnly: String?
        var report: String?
        /// The file does not parse, or was just emptied (another program may be writing it); it
        /// was not moved aside nor waited for (a load without the lock).
        var isCorrupt = false
        var signature: FileSignature?
        var opened: OpenFile?
    }

    private static func apply(_ loaded: Loaded, to contents: inout Contents) {
        contents.replaceStored(with: loaded.values)
        contents.unreadable = loaded.unreadable
        contents.writeBlock = loaded.writeBlock ?? loaded.readOnly
        contents.signature = loaded.signature
        contents.opened = loaded.opened
    }

    /// How long a list that does not parse must have been left unchanged before it is moved aside:
    /// another program may be writing it in place (truncated, then written in parts), and a list
    /// caught half written parses once it is whole.
    static let unchangedBeforeMovingAside = 0.2

    /// What waiting for another program to finish writing a list found.
    private enum WriteInPlace {
        /// Left unchanged since it was read, for ``unchangedBeforeMovingAside``: what was read is
        /// the whole file.
        case unchanged
        /// Changed since it was read, then left unchanged: to be read again.
        case changed
        /// Still changing after 2 s.
        case stillChanging
    }

    /// Waits until the list at `path`, read as `signature`, has been left unchanged for
    /// ``unchangedBeforeMovingAside`` (its modification time that long ago), at most 2 s; every
    /// change while it waits makes it wait longer, not give up (found by a review: a list written
    /// in 40 parts was moved aside once ten of them had been seen).
    private static func waitForWritesInPlace(_ path: String, readAs signature: FileSignature?) -> WriteInPlace {
        var changed = false
        for _ in 0..<100 {
            guard let current = FileSignature(path: path) else { return .changed }
            changed = changed || current != signature
            let age = current.secondsSinceModification
            // A modification time ahead of the clock (a file from another machine) is no sign.
            if age < 0 || age >= unchangedBeforeMovingAside { return changed ? .changed : .unchanged }
            usleep(20_000)
        }
        return .stillChanging
    }

    /// Why a list that does not parse (or was just emptied) is neither read nor moved aside yet.
    private static let stillBeingWritten =
        "another program has been writing it for over 2 s: the values last read are kept, and writes are refused until it is left unchanged"

    private static func load(_ url: URL, movingCorruptAside: Bool, rereads: Int = 3) -> Loaded {
        let path = url.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return Loaded() }
            let failure = POSIXFailure("open it")
            return Loaded(
                writeBlock: "file could not be read (\(failure)); the store starts empty, and writes are refused until it can be read",
                signature: FileSignature(path: path)
            )
        }
        let file = OpenFile(descriptor)
        let signature = FileSignature(descriptor: descriptor)
        let data: Data
        do {
            data = try file.readAll()
        } catch {
            return Loaded(
                writeBlock: "file could not be read (\(error)); the store starts empty, and writes are refused until it can be read",
                signature: signature
            )
        }
        var loaded = Loaded(signature: signature, opened: file)
        if data.isEmpty {
            // An empty list is an empty store, unless it was just truncated by a program about
            // to write it (whose edit a compaction now would orphan, with this store's values):
            // read under the lock then, which waits for the write.
            guard let age = signature?.secondsSinceModification, age >= 0, age < unchangedBeforeMovingAside else { return loaded }
            guard movingCorruptAside else {
                loaded.isCorrupt = true
                return loaded
            }
            switch waitForWritesInPlace(path, readAs: signature) {
            case .unchanged: return loaded
            case .changed where rereads > 0: return load(url, movingCorruptAside: true, rereads: rereads - 1)
            case .changed, .stillChanging: return Loaded(writeBlock: "file was emptied, and \(stillBeingWritten)", signature: signature)
            }
        }
        switch PropertyListFileDecoding.decode(data) {
        case .values(let values, let unreadable, let problems):
            loaded.values = values
            loaded.unreadable = unreadable
            if !problems.isEmpty {
                loaded.report =
                    "\(problems.count == 1 ? "1 entry" : "\(problems.count) entries") could not be read, "
                    + "so \(problems.count == 1 ? "its key reads its" : "their keys read their") default; kept in the file as written: "
                    + problems.joined(separator: "; ")
            }
            return loaded
        case .mergedKeys(let values, let problem):
            // Rewritten, the file would lose the entries its other spellings hold: read, never written.
            loaded.values = values
            loaded.readOnly = "\(problem); writes are refused until the file has one spelling of each key, so that none is lost"
            return loaded
        case .corrupt(let problem):
            guard movingCorruptAside else {
                loaded.isCorrupt = true
                return loaded
            }
            switch waitForWritesInPlace(path, readAs: signature) {
            case .unchanged: break
            case .changed where rereads > 0: return load(url, movingCorruptAside: true, rereads: rereads - 1)
            case .changed, .stillChanging: return Loaded(writeBlock: "file is not a valid property list yet (\(problem)), and \(stillBeingWritten)", signature: signature)
            }
            let aside = url.deletingLastPathComponent().appendingPathComponent(
                "\(url.lastPathComponent).corrupt-\(timestamp())"
            )
            do {
                try FileManager.default.moveItem(at: url, to: aside)
                return Loaded(report: "file is not a valid property list (\(problem)); moved aside to \(aside.path); the store starts empty")
            } catch let moveError {
                return Loaded(
                    writeBlock: "file is not a valid property list (\(problem)) and could not be moved aside (\(moveError)); the store starts empty, and writes are refused until it is moved",
                    signature: signature
                )
            }
        }
    }

    private static func report(_ url: URL, _ message: String) {
        PersistentKeyValueFailure.report(
            PersistentKeyValueFailure(operation: .load, key: nil, store: "file store at \(url.path)", message: message)
        )
    }

    /// Writes `data` to a new temporary file beside `url` (mode 0600) and flushes it to the disk;
    /// returns its path and the file, still open. The caller renames it into place.
    private static func writeTemporary(_ data: Data, beside url: URL) throws -> (path: String, file: OpenFile) {
        let temporaryPath = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(temporaryPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXFailure("create \(temporaryPath)") }
        let file = OpenFile(descriptor)
        do {
            try data.withUnsafeBytes { try file.write($0) }
            guard fsync(descriptor) == 0 else { throw POSIXFailure("flush \(temporaryPath)") }
        } catch {
            unlink(temporaryPath)
            throw error
        }
        return (temporaryPath, file)
    }

    /// Writes `data` to a new file at `aside` (readable by the owner only, like the journal: the
    /// bytes may hold a secret's value), on the disk with its name before this returns.
    private static func writeAside(_ data: Data, to aside: URL) throws {
        let (temporary, _) = try writeTemporary(data, beside: aside)
        guard rename(temporary, aside.path) == 0 else {
            let failure = POSIXFailure("name it \(aside.path)")
            unlink(temporary)
            throw failure
        }
        try syncFolder(of: aside)
    }

    /// Makes a rename in the folder of `url` durable.
    static func syncFolder(of url: URL) throws {
        let folder = url.deletingLastPathComponent().path
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        // A folder removed since (with the store's files, as a test's temporary folder is while a
        // compaction finishes) holds no name left to make durable: not a failure to report.
        if descriptor < 0, errno == ENOENT { return }
        guard descriptor >= 0 else { throw POSIXFailure("open the folder \(folder) to flush it") }
        defer { close(descriptor) }
        // Some file systems (FUSE, 9p, network mounts) cannot flush a folder at all: nothing to wait for.
        guard fsync(descriptor) == 0 || errno == EINVAL || errno == ENOTSUP else { throw POSIXFailure("flush the folder \(folder)") }
    }

    /// The current time for the names of files moved aside: `20261124T101500.123Z`.
    private static func timestamp() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeSeparator(.omitted))
    }
}

/// A file store that refuses to write, so as not to destroy a file it could not read.
struct FileStoreUnavailable: Error, CustomStringConvertible {
    let description: String
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
