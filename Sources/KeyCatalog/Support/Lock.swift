import Foundation

#if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
import Synchronization
#endif

/// A mutex guarding a value; the runtime's one synchronization primitive.
///
/// On Linux it is `Synchronization.Mutex` (a futex: 17 instructions to lock and unlock,
/// uncontended, against 83 for `NSLock`, measured with callgrind; every write takes two or three
/// of these). On Apple platforms, where `Mutex` needs macOS 15 and iOS 18, it is an
/// `os_unfair_lock`, what `Mutex` uses there, in memory of its own: the lock must never move, and
/// a Swift property may. (`OSAllocatedUnfairLock` would need macOS 13, past the macOS 12 reach the
/// availability check keeps, and `@Sendable` bodies. Not measured here: no Apple machine. `NSLock`,
/// used before, adds an Objective-C message send to each lock and unlock of a `pthread_mutex_t`.)
///
/// Built with `-DKEYCATALOG_TSAN_VISIBLE_LOCK` (`Scripts/sanitize.sh thread`), it is a
/// `pthread_mutex_t`, which ThreadSanitizer sees: `Mutex` hands a contended lock over in the
/// kernel (a priority-inheriting futex), where it cannot, and every state it guards then reads
/// as raced.
@usableFromInline
final class _Locked<State>: @unchecked Sendable {
    #if KEYCATALOG_TSAN_VISIBLE_LOCK
    // Sanitizer builds only: a pthread mutex, which ThreadSanitizer intercepts (the futex slow
    // path of `Mutex` is invisible to it).
    @usableFromInline let pmutex: UnsafeMutablePointer<pthread_mutex_t>
    #elseif canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
    @usableFromInline let lock: os_unfair_lock_t
    #else
    @usableFromInline let mutex = Mutex<Void>(())
    #endif
    /// The state lives behind a pointer, not in a stored `var`: a class's `var` passed `inout` is
    /// checked for exclusive access at run time (`swift_beginAccess`, about 40 instructions a
    /// call), which the lock already guarantees.
    @usableFromInline let state: UnsafeMutablePointer<State>

    @usableFromInline
    init(_ state: State) {
        #if KEYCATALOG_TSAN_VISIBLE_LOCK
        pmutex = .allocate(capacity: 1)
        pthread_mutex_init(pmutex, nil)
        #elseif canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        lock = .allocate(capacity: 1)
        lock.initialize(to: os_unfair_lock())
        #endif
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        #if KEYCATALOG_TSAN_VISIBLE_LOCK
        pthread_mutex_destroy(pmutex)
        pmutex.deallocate()
        #elseif canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        lock.deinitialize(count: 1)
        lock.deallocate()
        #endif
        state.deinitialize(count: 1)
        state.deallocate()
    }

    @inlinable
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if KEYCATALOG_TSAN_VISIBLE_LOCK
        pthread_mutex_lock(pmutex)
        defer { pthread_mutex_unlock(pmutex) }
        return try body(&state.pointee)
        #elseif canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        os_unfair_lock_lock(lock)
        defer { os_unfair_lock_unlock(lock) }
        return try body(&state.pointee)
        #else
        return try mutex.withLock { _ in try body(&state.pointee) }
        #endif
    }
}
