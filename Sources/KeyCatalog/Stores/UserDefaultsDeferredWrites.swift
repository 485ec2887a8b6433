#if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
import Foundation
import Synchronization

/// KeyCatalog's writes to UserDefaults on Linux, kept out of Foundation while KeyCatalog
/// synchronizes a large suite.
///
/// swift-corelibs-foundation's `synchronize()` reads a suite's file again, lays the changed keys
/// over it, serializes and writes it, all under CoreFoundation's preferences lock, which every
/// UserDefaults read and write in the process takes too (and it synchronizes every changed suite
/// of the process, not only its own). With a 2 MB suite that holds the lock about 80 ms, and a
/// write that came meanwhile waited for all of it: 39 of 68,755 writes took over 5 ms (81 ms at
/// most) in the stall benchmark.
///
/// So while KeyCatalog synchronizes a suite whose file is at least
/// ``UserDefaultsPersistence/keptWritesFileSize``, its writes are not handed to Foundation: they
/// are kept here, by suite and key (the last write of a key wins), and set in UserDefaults as soon
/// as the synchronization ends, for the next one to write. Reads and `contains` through the
/// instance written see them meanwhile, and observers hear of them at once, as of any write.
/// Smaller suites synchronize in about a millisecond, and a write waits for that instead (a
/// sleeping wait: spinning on CoreFoundation's lock competed with the synchronizing thread), so
/// that every instance and every direct UserDefaults read sees it as soon as it returns.
///
/// What this does not change: during a large suite's synchronization, a read of a key not written
/// meanwhile asks UserDefaults and waits for its end; and code that reads UserDefaults directly, or
/// through another instance of the suite, sees the kept writes only once it ended.
struct _DeferredUserDefaultsWrites {
    /// KeyCatalog's synchronizations under way.
    var synchronizations = 0
    /// The writes made meanwhile (`nil`: removed), by suite: a few at most, so a list searched by
    /// identity.
    private var suites: [(defaults: _UncheckedSendable<UserDefaults>, values: [String: PropertyListValue?])] = []

    /// Whether writes are kept now.
    var isDeferring: Bool { synchronizations > 0 }

    /// Keeps a write of `value` (`nil`: a removal) to `key` in `defaults`.
    mutating func keep(_ value: PropertyListValue?, forKey key: String, in defaults: UserDefaults) {
        if let index = suites.firstIndex(where: { $0.defaults.value === defaults }) {
            suites[index].values[key] = .some(value)
        } else {
            suites.append((_UncheckedSendable(defaults), [key: value]))
        }
    }

    /// The write kept for `key` in `defaults`: `.some(nil)` for a removal, `nil` when none is kept.
    func value(forKey key: String, in defaults: UserDefaults) -> PropertyListValue?? {
        suites.first { $0.defaults.value === defaults }?.values[key]
    }

    /// Sets the kept writes in their suites and forgets them; returns those suites.
    mutating func apply() -> [UserDefaults] {
        defer { suites = [] }
        return suites.map { suite in
            for (key, value) in suite.values {
                if let value {
                    suite.defaults.value.set(value.foundationObject, forKey: key)
                } else {
                    suite.defaults.value.removeObject(forKey: key)
                }
            }
            return suite.defaults.value
        }
    }
}

extension UserDefaultsPersistence {
    /// KeyCatalog's writes to UserDefaults and its synchronizations take turns on this mutex: a
    /// write goes to UserDefaults under it, unless a large suite is being synchronized (then it is
    /// kept: see ``_DeferredUserDefaultsWrites``); a smaller suite's synchronization holds it.
    /// Uncontended, it costs a write two atomic operations.
    static let writeGate = _Locked(_DeferredUserDefaultsWrites())

    /// Whether writes are kept now: read without the lock by every read, which takes the lock only
    /// while a synchronization runs.
    private static let isDeferring = Atomic<Bool>(false)

    /// Makes a write through KeyCatalog of `value` (`nil`: a removal) to `key`: `apply` sets it in
    /// `defaults` now, or, while KeyCatalog synchronizes, when that ends. Then schedules the
    /// coalesced synchronization.
    static func write(_ value: PropertyListValue?, forKey key: String, in defaults: UserDefaults, _ apply: () -> Void) {
        writeGate.withLock { writes in
            if writes.isDeferring {
                writes.keep(value, forKey: key, in: defaults)
            } else {
                apply()
            }
        }
        scheduleSynchronization(of: defaults)
    }

    /// The write KeyCatalog kept for `key` in `defaults` during a synchronization: `.some(nil)`
    /// for a removal; `nil` when none is kept, which is almost always, at the cost of one load.
    @inline(__always)
    static func deferredValue(forKey key: String, in defaults: UserDefaults) -> PropertyListValue?? {
        guard isDeferring.load(ordering: .acquiring) else { return nil }
        return writeGate.withLock { $0.value(forKey: key, in: defaults) }
    }

    /// Runs `synchronize` (which calls UserDefaults' `synchronize()` of `suites`): while KeyCatalog's
    /// writes wait, or, when one of the suites' files is at least ``keptWritesFileSize``, with
    /// them kept out of UserDefaults meanwhile, and set (and scheduled for synchronization) after.
    static func synchronizeDeferringWrites<Result>(of suites: [UserDefaults], _ synchronize: () -> Result) -> Result {
        let threshold = keptWritesFileSize
        let isLarge =
            threshold <= 0
            || suites.contains { defaults in
                domainFileURL(of: defaults).flatMap { FileSignature(path: $0.path) }.map { $0.size >= threshold } ?? false
            }
        guard isLarge else { return writeGate.withLock { _ in synchronize() } }
        writeGate.withLock { writes in
            writes.synchronizations += 1
            isDeferring.store(true, ordering: .releasing)
        }
        let result = synchronize()
        // A `synchronize()` that found nothing to write (another process's write was read) drops
        // the suite's values, and the next access reads the whole file again under Foundation's
        // lock: a read does it now, while writes are still kept (measured: the first write after
        // such a synchronization of a 2 MB suite waited 63 ms for it).
        for defaults in suites { _ = defaults.object(forKey: "") }
        let written = writeGate.withLock { writes -> [UserDefaults] in
            writes.synchronizations -= 1
            guard !writes.isDeferring else { return [] }
            defer { isDeferring.store(false, ordering: .releasing) }
            return writes.apply()
        }
        for defaults in written { scheduleSynchronization(of: defaults) }
        return result
    }
}
#endif
