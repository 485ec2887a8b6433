#if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
import Foundation
import Synchronization

/// KeyCatalog's writes to UserDefaults on Linux, kept out of Foundation while KeyCatalog
/// synchronizes a large suite, or while Foundation may have dropped what it read of one.
///
/// swift-corelibs-foundation's `synchronize()` reads a suite's file again, lays the changed keys
/// over it, serializes and writes it, all under CoreFoundation's preferences lock, which every
/// UserDefaults read and write in the process takes too (and it synchronizes every changed suite
/// of the process, not only its own). With a 2 MB suite that holds the lock 110-170 ms, and a
/// write that came meanwhile waited for all of it: 39 of 68,755 writes took over 5 ms (81 ms at
/// most) in the stall benchmark.
///
/// So while KeyCatalog synchronizes a suite whose file is at least
/// ``UserDefaultsPersistence/keptWritesFileSize``, its writes are not handed to Foundation: they
/// are kept here, by suite and key (the last write of a key wins), and set in UserDefaults as soon
/// as the synchronization ends, for the next one to write, in the order they were made (two
/// instances of one suite write to the same domain: the last write wins there too). That hand-over runs outside the lock
/// writes take, and writes made during it are kept too: set under the lock after it when they are
/// few, else (a writer going through many keys) left for the next synchronization, and every
/// write is kept until then, so that none is overwritten by an earlier one. Reads and `contains`
/// through the instance written see kept writes, and observers hear of them at once, as of any
/// write.
///
/// A write to such a large suite is kept too when a synchronization since the suite's last one
/// did not write it: Foundation synchronizes every suite of the process, drops what it read of
/// each suite it finds unchanged, and a write made then read the whole file again on the writer's
/// thread (108 ms of CPU for a 2 MB suite in the stall benchmark). Kept, it is handed over by the
/// next synchronization, which reads the file on its own thread. Until then the later writes to
/// that suite are kept too, so that none is overwritten by an earlier one at the hand-over; writes
/// to other suites are not (``_DeferredUserDefaultsWrites/waitsInTheDomain(of:)``).
///
/// Smaller suites synchronize in a few milliseconds (1-8 ms for 200 keys), and a write waits for
/// that instead (a sleeping wait: spinning on CoreFoundation's lock competed with the
/// synchronizing thread), so that every instance and every direct UserDefaults read sees it as
/// soon as it returns.
///
/// What this does not change: during a large suite's synchronization, a read of a key not written
/// meanwhile asks UserDefaults and waits for its end; and code that reads UserDefaults directly, or
/// through another instance of the suite, sees the kept writes only once it ended.
///
/// With ``UserDefaultsPersistence/defersEveryWrite`` every write is kept, not only those made
/// during a synchronization, and the coalesced synchronization hands them to Foundation just before
/// it writes the suite: a write then costs a lock and a dictionary entry (about 0.2 µs against
/// 6 µs for a write through CoreFoundation on Linux, 4 µs of it in the kernel: CoreFoundation
/// looks the user's name up in `/etc/passwd` on every write), and a key written a thousand times
/// between two synchronizations is set in Foundation once.
struct _DeferredUserDefaultsWrites {
    /// A kept write: its value (`nil`: a removal), and its place among all the writes kept.
    typealias Kept = (value: PropertyListValue?, order: Int)
    /// The writes kept for one instance, by the keys' exact bytes, as CoreFoundation tells keys
    /// apart (see ``_ExactKey``), and whether the instance is known to write a domain no other
    /// instance writes (``hasDomainOfItsOwn(_:)``).
    typealias Suite = (defaults: _UncheckedSendable<UserDefaults>, values: [_ExactKey: Kept], hasDomainOfItsOwn: Bool)

    /// KeyCatalog's synchronizations under way.
    var synchronizations = 0
    /// How many synchronizations began, ever: each one, of any suite, makes Foundation drop what
    /// it read of every suite the synchronization finds unchanged.
    private var passes = 0
    /// The suites whose file was at least ``UserDefaultsPersistence/keptWritesFileSize`` at their
    /// last synchronization, each with the pass after which Foundation held it read: a few at
    /// most, so a list searched by identity.
    private var largeSuites: [(defaults: _UncheckedSendable<UserDefaults>, readAt: Int)] = []
    /// How many writes were kept, ever: the next one's `order`.
    private var keptWrites = 0
    /// The writes kept, by suite: a few at most, so a list searched by identity.
    private var suites: [Suite] = []
    /// The writes taken from `suites` that a synchronization is setting in UserDefaults outside the
    /// lock, read until they are set.
    private var handingOver: [Suite] = []

    /// Whether a synchronization, or the hand-over of kept writes, is under way.
    var isSynchronizing: Bool { synchronizations > 0 || !handingOver.isEmpty }

    /// Whether writes are kept now, or were kept and wait for the next synchronization: what a
    /// read checks before it asks UserDefaults.
    var isDeferring: Bool { isSynchronizing || !suites.isEmpty }

    /// Whether a write to `defaults` must be kept because writes kept earlier wait for the next
    /// synchronization in its domain: one set in UserDefaults now would be overwritten by an
    /// earlier kept one when they are handed over. Writes to other suites go to UserDefaults at
    /// once, so that direct reads see them, and a value the app then sets there itself is not
    /// overwritten by the hand-over. An instance whose domain is not known to be its own
    /// (`standard`, or an instance KeyCatalog did not open by name) may share one with any other.
    func waitsInTheDomain(of defaults: UserDefaults) -> Bool {
        guard !suites.isEmpty else { return false }
        if suites.contains(where: { $0.defaults.value === defaults || !$0.hasDomainOfItsOwn }) { return true }
        return !Self.hasDomainOfItsOwn(defaults)
    }

    /// Whether `defaults` writes a domain no other instance writes: a suite opened through
    /// ``UserDefaultsPersistence/suite(named:)`` (one instance per name), other than `standard`,
    /// whose domain another instance (`UserDefaults()`, or a suite named like the executable) may
    /// write too.
    static func hasDomainOfItsOwn(_ defaults: UserDefaults) -> Bool {
        defaults !== UserDefaults.standard && UserDefaultsPersistence.readCacheReference(of: defaults) != nil
    }

    /// Whether Foundation may have dropped what it read of `defaults`, a large suite: a later
    /// synchronization did not write it (see ``UserDefaultsPersistence/keptWritesFileSize``).
    /// `false` for a suite not known to be large.
    func mayBeUnread(_ defaults: UserDefaults) -> Bool {
        for suite in largeSuites where suite.defaults.value === defaults { return suite.readAt != passes }
        return false
    }

    /// Whether a write kept now is to a suite that ``mayBeUnread(_:)``.
    var keepsWritesToUnreadSuites: Bool {
        suites.contains { mayBeUnread($0.defaults.value) }
    }

    /// Notes `defaults`, a suite KeyCatalog opened whose file is large, as possibly unread until
    /// KeyCatalog's first synchronization of it: any synchronization before that (of another
    /// suite) drops what Foundation read of it when it was opened. Unchanged if already noted.
    mutating func noteOpenedLarge(_ defaults: UserDefaults) {
        guard !largeSuites.contains(where: { $0.defaults.value === defaults }) else { return }
        largeSuites.append((_UncheckedSendable(defaults), -1))
    }

    /// Notes a synchronization of `suites` beginning (of none: nothing is synchronized).
    mutating func beginPass(of suites: [UserDefaults]) {
        if !suites.isEmpty { passes += 1 }
    }

    /// Notes the suites a synchronization wrote and read again, with their files' sizes before it
    /// (`nil`: unknown): those at least `threshold` are large, read as of this pass.
    mutating func noteRead(_ written: [(defaults: UserDefaults, fileSize: Int64?)], threshold: Int64) {
        for (defaults, fileSize) in written {
            largeSuites.removeAll { $0.defaults.value === defaults }
            if let fileSize, fileSize >= threshold { largeSuites.append((_UncheckedSendable(defaults), passes)) }
        }
    }

    /// How many writes are kept.
    var keptCount: Int {
        var count = 0
        for suite in suites { count += suite.values.count }
        return count
    }

    /// Keeps a write of `value` (`nil`: a removal) to `key` in `defaults`.
    mutating func keep(_ value: PropertyListValue?, forKey key: String, in defaults: UserDefaults) {
        keptWrites += 1
        let kept = (value, keptWrites)
        if let index = suites.firstIndex(where: { $0.defaults.value === defaults }) {
            suites[index].values[_ExactKey(key)] = kept
        } else {
            suites.append((_UncheckedSendable(defaults), [_ExactKey(key): kept], Self.hasDomainOfItsOwn(defaults)))
        }
    }

    /// The write kept for `key` in `defaults`: `.some(nil)` for a removal, `nil` when none is kept.
    func value(forKey key: String, in defaults: UserDefaults) -> PropertyListValue?? {
        if let kept = suites.first(where: { $0.defaults.value === defaults })?.values[_ExactKey(key)] { return kept.value }
        return handingOver.first { $0.defaults.value === defaults }?.values[_ExactKey(key)].map(\.value)
    }

    /// Takes the kept writes, to set them in their suites.
    mutating func take() -> [Suite] {
        defer { suites = [] }
        return suites
    }

    /// Takes the kept writes, to set them in their suites outside the lock; reads see them until
    /// ``finishHandOver()``.
    mutating func beginHandOver() -> [Suite] {
        handingOver = take()
        return handingOver
    }

    mutating func finishHandOver() {
        handingOver = []
    }

    /// Sets the writes of `suites` in UserDefaults; returns those suites.
    ///
    /// One instance's writes are of distinct keys, set in any order. Two instances may be of one
    /// suite (`UserDefaults(suiteName:)` twice, or `standard` and `UserDefaults()`), writing to the
    /// same domain: then every write is set in the order it was made, so that the last one wins.
    static func set(_ suites: [Suite]) -> [UserDefaults] {
        if suites.count > 1 {
            var writes: [(defaults: UserDefaults, key: String, kept: Kept)] = []
            for suite in suites {
                for (key, kept) in suite.values { writes.append((suite.defaults.value, key.string, kept)) }
            }
            writes.sort { $0.kept.order < $1.kept.order }
            for write in writes { set(write.kept.value, forKey: write.key, in: write.defaults) }
        } else {
            for suite in suites {
                for (key, kept) in suite.values { set(kept.value, forKey: key.string, in: suite.defaults.value) }
            }
        }
        return suites.map(\.defaults.value)
    }

    private static func set(_ value: PropertyListValue?, forKey key: String, in defaults: UserDefaults) {
        if let domain = UserDefaultsPersistence.preferencesDomain(of: defaults) {
            domain.set(value?.preferencesObject, forKey: key)
        } else if let value {
            defaults.set(value.userDefaultsObject, forKey: key)
        } else {
            defaults.removeObject(forKey: key)
        }
    }
}

extension UserDefaultsPersistence {
    /// KeyCatalog's writes to UserDefaults and its synchronizations take turns on this mutex: a
    /// write goes to UserDefaults under it, unless writes are being kept (see
    /// ``_DeferredUserDefaultsWrites``); a smaller suite's synchronization holds it.
    /// Uncontended, it costs a write two atomic operations.
    static let writeGate = _Locked(_DeferredUserDefaultsWrites())

    /// Whether writes are kept now (`isDeferring` of the gate's value, updated with it): read
    /// without the lock by every read, which takes the lock only while writes are kept.
    private static let isDeferring = Atomic<Bool>(false)

    /// Whether `standard` was noted (``noteOpened(_:)``), at KeyCatalog's first write to it.
    private static let isStandardNoted = Atomic<Bool>(false)
    /// `standard`, found once: Foundation's class property costs a write about 80 instructions.
    private static let standardDefaults = _UncheckedSendable(UserDefaults.standard)

    /// Stores in ``isDeferring`` whether `writes` keeps writes now.
    private static func noteDeferring(_ writes: borrowing _DeferredUserDefaultsWrites) {
        isDeferring.store(writes.isDeferring, ordering: .releasing)
    }

    /// Makes a write through KeyCatalog of `value` (`nil`: a removal) to `key`: `apply` sets it in
    /// `defaults` now, or, while writes are kept (or always, with ``defersEveryWrite``), it is
    /// kept for later. Then schedules the coalesced synchronization.
    static func write(
        _ value: PropertyListValue?, forKey key: String, in defaults: UserDefaults,
        defersEveryWrite: Bool = defersEveryWrite, _ apply: () -> Void
    ) {
        // `standard`, which KeyCatalog does not open, is noted at its first write (not where its
        // read cache is made: a hand-over under the gate may make it).
        if !isStandardNoted.load(ordering: .relaxed), defaults === standardDefaults.value {
            isStandardNoted.store(true, ordering: .relaxed)
            noteOpened(defaults)
        }
        writeGate.withLock { writes in
            if defersEveryWrite || writes.isSynchronizing || writes.mayBeUnread(defaults) || writes.waitsInTheDomain(of: defaults) {
                writes.keep(value, forKey: key, in: defaults)
                isDeferring.store(true, ordering: .releasing)
            } else {
                apply()
            }
        }
        // A key read missing before is read through `object(forKey:)` alone (see
        // `_UserDefaultsReadCache`): now written, its object is worth keeping again.
        readCache(of: defaults)?.forget(key)
        scheduleSynchronization(of: defaults)
    }

    /// Notes a suite just opened by name (or `standard`, at KeyCatalog's first write to it): when
    /// its file is at least ``keptWritesFileSize``, its writes are kept (see
    /// ``_DeferredUserDefaultsWrites/mayBeUnread(_:)``) until KeyCatalog synchronized it once, as
    /// after any synchronization that did not write it.
    static func noteOpened(_ defaults: UserDefaults) {
        let threshold = keptWritesFileSize
        guard let size = domainFileURL(of: defaults).flatMap({ FileSignature(path: $0.path) })?.size, size >= threshold else { return }
        writeGate.withLock { $0.noteOpenedLarge(defaults) }
    }

    /// The write KeyCatalog kept for `key` in `defaults`: `.some(nil)` for a removal; `nil` when
    /// none is kept, which (unless every write is deferred) is almost always, at the cost of one load.
    @inline(__always)
    static func deferredValue(forKey key: String, in defaults: UserDefaults) -> PropertyListValue?? {
        guard isDeferring.load(ordering: .acquiring) else { return nil }
        return writeGate.withLock { $0.value(forKey: key, in: defaults) }
    }

    /// Runs `synchronize` (which calls UserDefaults' `synchronize()` of `suites`): while KeyCatalog's
    /// writes wait, or, when one of the suites' files is at least ``keptWritesFileSize`` (or every
    /// write is deferred), with them kept out of UserDefaults meanwhile. Writes kept before it are
    /// set in UserDefaults first, for it to write; those kept during it are set after it (and
    /// scheduled for synchronization), or, when every write is deferred, by the next one.
    static func synchronizeDeferringWrites<Result>(of suites: [UserDefaults], _ synchronize: () -> Result) -> Result {
        let defersEveryWrite = self.defersEveryWrite
        let threshold = keptWritesFileSize
        let written = suites.map { defaults in
            (defaults: defaults, fileSize: domainFileURL(of: defaults).flatMap { FileSignature(path: $0.path) }.map(\.size))
        }
        let keepsWrites = defersEveryWrite || threshold <= 0 || written.contains { ($0.fileSize ?? -1) >= threshold }
        // The writes kept since the last synchronization, for this one to write.
        _ = handOverKeptWrites()
        guard keepsWrites else {
            return writeGate.withLock { writes in
                writes.beginPass(of: suites)
                defer { writes.noteRead(written, threshold: threshold) }
                return synchronize()
            }
        }
        writeGate.withLock { writes in
            writes.synchronizations += 1
            writes.beginPass(of: suites)
            noteDeferring(writes)
        }
        let result = synchronize()
        // A `synchronize()` that found nothing to write (another process's write was read) drops
        // the suite's values, and the next access reads the whole file again under Foundation's
        // lock: a read does it now, while writes are still kept (measured: the first write after
        // such a synchronization of a 2 MB suite waited 63 ms for it). So does each later
        // `synchronize()` of a pass of several suites for those before it. The suite's own values
        // too: a read between two of a pass's `synchronize()` calls (by any thread) leaves the merged
        // view that `object(forKey:)` reads current while a later one drops them, and the next write
        // would read the file again.
        for defaults in suites {
            _ = defaults.object(forKey: "")
            preferencesDomain(of: defaults)?.load()
        }
        writeGate.withLock { writes in
            writes.synchronizations -= 1
            writes.noteRead(written, threshold: threshold)
            noteDeferring(writes)
        }
        // With every write deferred, those kept meanwhile wait for the next synchronization, which
        // each of them scheduled.
        if !defersEveryWrite {
            for defaults in handOverKeptWrites() { scheduleSynchronization(of: defaults) }
        }
        return result
    }

    /// Sets the kept writes in UserDefaults outside the gate, keeping the writes made meanwhile:
    /// Foundation takes about 10 ms to set a thousand keys, and writes held at the gate for that
    /// long took up to 54 ms in the stall benchmark. Then, unless every write is deferred, sets
    /// those kept meanwhile under the gate if they are few, so that writes go to UserDefaults
    /// directly again; many (a writer going through many keys) stay kept for the next
    /// synchronization, which their writes scheduled. Returns the suites written.
    private static func handOverKeptWrites() -> [UserDefaults] {
        let handed = writeGate.withLock { writes in
            writes.isSynchronizing ? [] : writes.beginHandOver()
        }
        guard !handed.isEmpty else { return [] }
        var written = _DeferredUserDefaultsWrites.set(handed)
        let defersEveryWrite = self.defersEveryWrite
        writeGate.withLock { writes in
            writes.finishHandOver()
            if !defersEveryWrite, !writes.isSynchronizing, writes.keptCount <= maximumKeptWritesSetUnderGate,
                !writes.keepsWritesToUnreadSuites
            {
                written += _DeferredUserDefaultsWrites.set(writes.take())
            }
            noteDeferring(writes)
        }
        return written
    }

    /// How many kept writes a hand-over sets while writes wait: about 10 µs each.
    private static let maximumKeptWritesSetUnderGate = 64
}
#endif
