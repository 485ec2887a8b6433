// expected-error: global function 'os_unfair_lock_lock' is unavailable from asynchronous contexts; Use OSAllocatedUnfairLock.performWhileLocked() for async-safe scoped locking
// os_unfair_lock is noasync: an await between its lock and unlock could resume on another thread,
// which may not unlock it (KeyCatalog's _Locked takes it only around synchronous bodies).
import Foundation

func lockAcrossAnAwait(_ lock: os_unfair_lock_t) async {
    os_unfair_lock_lock(lock)
    await Task.yield()
    os_unfair_lock_unlock(lock)
}
