import Foundation
import KeyCatalog
import Testing

/// Writers of one file store exclude each other with an advisory lock on `<file>.lock`; these are
/// the things other programs do to that file.
@Suite("File store: the lock file")
struct FileStoreLockTests {
    let key = PersistentKey<Int>("count", defaultValue: 0)

    /// The inode of the file at `path`.
    static func inode(_ path: String) -> UInt64 {
        var info = stat()
        #expect(stat(path, &info) == 0)
        return UInt64(info.st_ino)
    }

    /// Whether some process waits for a `flock` on the inode `inode` (Linux lists waiters in
    /// `/proc/locks` with `->`).
    static func someoneWaitsForLock(onInode inode: UInt64) -> Bool {
        let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
        return locks.split(separator: "\n").contains { $0.contains("-> FLOCK") && $0.contains(":\(inode) ") }
    }

    /// Takes an exclusive `flock` on the file at `path` (made if missing) through a descriptor of
    /// its own, as another process's writer would; closing the descriptor releases it.
    static func lock(_ path: String) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        #expect(descriptor >= 0)
        #expect(flock(descriptor, LOCK_EX) == 0)
        return descriptor
    }

    /// Found: a writer waiting for the lock while another program removed the lock file went on
    /// once the holder let go, as the lock it got was on the removed file, while writers of other
    /// processes locked the file made at the path: two writers at once, and one's records taken
    /// for damaged and cut off by the other.
    @Test("a writer that waited on a lock file removed meanwhile locks the file at the path before it writes")
    func aWriterWaitingOnARemovedLockFileLocksTheNewOne() throws {
        #if os(Linux)
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        store.set(key, to: 1)
        let lockPath = url.path + ".lock"
        let removedInode = Self.inode(lockPath)

        let holder = Self.lock(lockPath)
        let written = DispatchSemaphore(value: 0)
        Thread {
            store.set(key, to: 2)
            written.signal()
        }.start()
        // The writer waits on the lock file that is there now.
        let deadline = Date().addingTimeInterval(10)
        while !Self.someoneWaitsForLock(onInode: removedInode) && Date() < deadline { usleep(1_000) }
        #expect(Self.someoneWaitsForLock(onInode: removedInode), "the writer never waited for the lock")

        // Another program removes the lock file; another process's writer makes a new one, locks
        // it, and is writing when the first holder lets go.
        #expect(unlink(lockPath) == 0)
        let newHolder = Self.lock(lockPath)
        close(holder)

        #expect(written.wait(timeout: .now() + 0.3) == .timedOut, "the writer wrote while another held the lock file at the path")
        close(newHolder)
        #expect(written.wait(timeout: .now() + 10) == .success)
        #expect(FileKeyValueStore(url: url).get(key) == 2)
        #endif
    }
}
