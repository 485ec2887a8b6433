#if os(Linux)
import Foundation
import Testing

@testable import KeyCatalog

/// The Linux file monitor (inotify) following watched folders, each test on a monitor of its own:
/// its own inotify instance, whose watches are counted exactly, and whose event queue the test
/// may overflow without touching the process's shared monitor. (Each monitor's thread stays
/// blocked reading its instance for the rest of the test run.)
@Suite("File monitor: watched folders followed (inotify)")
struct FileChangeMonitorTests {
    let directory = TemporaryDirectory()

    /// How many watches `monitor`'s inotify instance holds (`/proc/self/fdinfo`).
    func watchCount(of monitor: FileChangeMonitor) throws -> Int {
        let info = try String(contentsOfFile: "/proc/self/fdinfo/\(monitor.inotify)", encoding: .utf8)
        return info.split(separator: "\n").count { $0.hasPrefix("inotify wd:") }
    }

    func counter() -> (count: Locked<Int>, handler: @Sendable () -> Void) {
        let count = Locked(0)
        return (count, { count.withLock { $0 += 1 } })
    }

    /// Returns once `monitor` has called the handlers of every event made before: a file made in
    /// a folder of its own is heard after them (one queue, read in order).
    func settle(_ monitor: FileChangeMonitor) throws {
        let folder = directory.file("settle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let heard = DispatchSemaphore(value: 0)
        let observation = try #require(monitor.watch(folder.appendingPathComponent("mark")) { heard.signal() })
        defer { observation.cancel() }
        #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent("mark").path, contents: nil))
        #expect(heard.wait(timeout: .now() + 30) == .success)
    }

    /// Another program's new list at `url`, renamed over it, as writers replace files.
    func replace(_ url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent("new.tmp")
        try Data("new".utf8).write(to: temporary)
        #expect(rename(temporary.path, url.path) == 0)
    }

    @Test func aFolderRemovedThenMadeAgainIsFollowedAndItsWatchesEndWithIt() throws {
        let monitor = FileChangeMonitor()
        let folder = directory.file("documents")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (count, handler) = counter()
        let observation = try #require(monitor.watch(folder.appendingPathComponent("s.plist"), onChange: handler))
        let watching = try watchCount(of: monitor)
        #expect(watching >= 2, "the folder, the one above it, and those above, for their moves")

        try FileManager.default.removeItem(at: folder)
        #expect(eventually { count.current == 1 }, "told: \(count.current)")
        #expect(try watchCount(of: monitor) == watching - 1, "the folder's own watch is gone")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(eventually { count.current == 2 }, "told once the folder made is watched")
        try replace(folder.appendingPathComponent("s.plist"))
        #expect(eventually { count.current == 3 })

        observation.cancel()
        #expect(try watchCount(of: monitor) == 0)
    }

    /// A folder two levels above the watched one moved away (to the Trash), then the path made
    /// again: the move is told, and the folder made is watched.
    @Test func aFolderMovedAwayWithOneTwoLevelsAboveIsFollowed() throws {
        let monitor = FileChangeMonitor()
        let top = directory.file("a")
        let folder = top.appendingPathComponent("b/c")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (count, handler) = counter()
        let observation = try #require(monitor.watch(folder.appendingPathComponent("s.plist"), onChange: handler))
        #expect(rename(top.path, directory.file("trash").path) == 0)
        #expect(eventually { count.current == 1 }, "told: \(count.current)")

        // Written in the folder moved away: no longer the watched path.
        try replace(directory.file("trash/b/c/s.plist"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(eventually { count.current == 2 }, "told once the folder made is watched")
        try replace(folder.appendingPathComponent("s.plist"))
        #expect(eventually { count.current == 3 })
        try settle(monitor)
        #expect(count.current == 3, "nothing heard from the folder moved away")
        observation.cancel()
        #expect(try watchCount(of: monitor) == 0)
    }

    /// The removal of the watched folder and its making again were among events the system
    /// dropped (the queue overflowed while the monitor's thread was busy): every folder's path is
    /// followed again.
    @Test func aFolderMadeAgainWhileEventsWereLostIsFollowed() throws {
        let monitor = FileChangeMonitor()
        let folder = directory.file("documents")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (count, handler) = counter()
        let observation = try #require(monitor.watch(folder.appendingPathComponent("s.plist"), onChange: handler))
        let queued = try String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8)
        let limit = try #require(Int(queued.trimmingCharacters(in: .whitespacesAndNewlines)))

        // Events pile up while the monitor's thread is held.
        var toldBefore = 0
        try holdingFileWatches(in: directory, monitor: monitor) {
            // Two files written in turn: consecutive events differ, so none is merged.
            let noise = try ["noise-a", "noise-b"].map { name in
                #expect(FileManager.default.createFile(atPath: directory.file(name).path, contents: nil))
                return try FileHandle(forWritingTo: directory.file(name))
            }
            for round in 0...limit { noise[round % 2].write(Data("x".utf8)) }
            for handle in noise { try handle.close() }
            try FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            toldBefore = count.current
        }

        #expect(eventually { count.current > toldBefore }, "every handler is told of the overflow")
        let told = count.current
        try replace(folder.appendingPathComponent("s.plist"))
        #expect(eventually { count.current > told }, "the folder made again is watched")
        observation.cancel()
        #expect(try watchCount(of: monitor) == 0)
    }

    /// Folders moved away and made again without pause while files in them are watched and their
    /// watches cancelled, or their folder checked (found by reviews: a folder gone between two
    /// system calls of one watch was kept with no handler, and the watch of a folder that left
    /// the path between a check's two system calls was recorded nowhere, never removed). Moved,
    /// not removed: the kernel would free a watch of a removed folder by itself.
    @Test func noWatchIsLeftByFoldersMovedAwayAndMadeAgainWhileWatched() throws {
        let monitor = FileChangeMonitor()
        let top = directory.file("a")
        let folder = top.appendingPathComponent("b/c")
        let trash = directory.file("trash")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: trash, withIntermediateDirectories: true)
        let isStopped = Locked(false)
        let churn = Thread {
            var moved = 0
            while !isStopped.current {
                rename(top.path, trash.appendingPathComponent("\(moved)").path)
                moved += 1
                try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
        }
        let kept = monitor.watch(directory.file("kept")) {}
        churn.start()
        var watched = 0
        let watching = Date(timeIntervalSinceNow: 1)
        while Date() < watching {
            if let observation = monitor.watch(top.appendingPathComponent("y"), onChange: {}) {
                observation.cancel()
                watched += 1
            }
            #expect(!monitor.watchedFolders.contains(top.path), "a folder without handlers is not watched")
        }
        // The churn may move the folder away at each try: try until a watch is made, not forever.
        var inner: PersistentKeyObservation?
        let isInnerWatched = eventually {
            inner = monitor.watch(folder.appendingPathComponent("z")) {}
            return inner != nil
        }
        if !isInnerWatched { Issue.record("no watch of a file in the churned folder was made in 10 s") }
        let checking = Date(timeIntervalSinceNow: 1.5)
        while Date() < checking { monitor.rewatchFolder(atPath: folder.path) }
        isStopped.withLock { $0 = true }
        while !churn.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(watched > 0)
        inner?.cancel()
        kept?.cancel()
        #expect(monitor.watchedFolders.isEmpty)
        #expect(try watchCount(of: monitor) == 0)
    }

    /// A file made at a watched folder's path is not taken for the folder.
    @Test func aFileAtAFoldersPathIsNotWatchedAsTheFolder() throws {
        let monitor = FileChangeMonitor()
        let folder = directory.file("documents")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (count, handler) = counter()
        let observation = try #require(monitor.watch(folder.appendingPathComponent("s.plist"), onChange: handler))
        try FileManager.default.removeItem(at: folder)
        #expect(eventually { count.current == 1 })
        #expect(FileManager.default.createFile(atPath: folder.path, contents: Data("a file".utf8)))
        #expect(monitor.watch(folder.appendingPathComponent("t.plist")) {} == nil, "no folder there to watch")
        let watches = try watchCount(of: monitor)
        try replace(folder)
        try settle(monitor)
        #expect(count.current == 1, "the file's changes are not the folder's")
        #expect(try watchCount(of: monitor) == watches)
        observation.cancel()
        #expect(try watchCount(of: monitor) == 0)
    }

    /// Two names that differ only in their Unicode normalization: `café` with U+00E9, and with
    /// `e` and U+0301. One `String` to Swift, whose `==` is canonical equivalence, but two files
    /// (or folders) on Linux, whose names are bytes.
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    /// Files whose names differ only in their normalization, in one folder: each watch hears its
    /// own file alone, and a watch cancelled leaves the other's (found by a review: the monitor's
    /// tables were keyed by `String`, and took the two names for one).
    @Test func filesWhoseNamesDifferOnlyInNormalizationAreWatchedApart() throws {
        let monitor = FileChangeMonitor()
        let (composed, decomposed) = (directory.file(Self.composed + ".plist"), directory.file(Self.decomposed + ".plist"))
        #expect(composed.lastPathComponent == decomposed.lastPathComponent, "one String to Swift")
        try replace(composed)
        try replace(decomposed)
        let files = (FileSignature(path: composed.path), FileSignature(path: decomposed.path))
        #expect(files.0 != nil && files.1 != nil && !files.0!.isSameFile(as: files.1!), "two files")

        let (composedCount, composedHandler) = counter()
        let (decomposedCount, decomposedHandler) = counter()
        let composedWatch = try #require(monitor.watch(composed, onChange: composedHandler))
        let decomposedWatch = try #require(monitor.watch(decomposed, onChange: decomposedHandler))
        try replace(decomposed)
        #expect(eventually { decomposedCount.current == 1 }, "told: \(decomposedCount.current)")
        try settle(monitor)
        #expect(composedCount.current == 0, "the other file's change is not this one's")
        try replace(composed)
        #expect(eventually { composedCount.current == 1 }, "told: \(composedCount.current)")
        try settle(monitor)
        #expect(decomposedCount.current == 1, "the other file's change is not this one's")

        composedWatch.cancel()
        try replace(decomposed)
        #expect(eventually { decomposedCount.current == 2 }, "still watched once the other's watch ended")
        decomposedWatch.cancel()
        #expect(try watchCount(of: monitor) == 0)
    }

    /// Folders whose names differ only in their normalization: each watch hears its own folder's
    /// file alone, and a watch cancelled leaves the other's.
    @Test func foldersWhoseNamesDifferOnlyInNormalizationAreWatchedApart() throws {
        let monitor = FileChangeMonitor()
        let (composed, decomposed) = (directory.file(Self.composed), directory.file(Self.decomposed))
        for folder in [composed, decomposed] { #expect(mkdir(folder.path, 0o755) == 0, "two folders") }
        let (composedFile, decomposedFile) = (composed.appendingPathComponent("s.plist"), decomposed.appendingPathComponent("s.plist"))

        let (composedCount, composedHandler) = counter()
        let (decomposedCount, decomposedHandler) = counter()
        let composedWatch = try #require(monitor.watch(composedFile, onChange: composedHandler))
        let decomposedWatch = try #require(monitor.watch(decomposedFile, onChange: decomposedHandler))
        #expect(Set(monitor.watchedFolders.map(spelled)) == [spelled(composed.path), spelled(decomposed.path)])
        try settle(monitor)
        let told = (composedCount.current, decomposedCount.current)
        #expect(told == (0, 0), "nothing changed")
        try replace(decomposedFile)
        #expect(eventually { decomposedCount.current == 1 }, "told: \(decomposedCount.current)")
        try settle(monitor)
        #expect(composedCount.current == 0, "the other folder's change is not this one's")
        try replace(composedFile)
        #expect(eventually { composedCount.current == 1 }, "told: \(composedCount.current)")
        try settle(monitor)
        #expect(decomposedCount.current == 1, "the other folder's change is not this one's")

        composedWatch.cancel()
        #expect(monitor.watchedFolders.map(spelled) == [spelled(decomposed.path)])
        try replace(decomposedFile)
        #expect(eventually { decomposedCount.current == 2 }, "still watched once the other's watch ended")
        decomposedWatch.cancel()
        #expect(try watchCount(of: monitor) == 0)
    }

    /// The folder a path goes through is found by bytes: a name may start with a combining mark,
    /// one character with the `/` before it (`/` and U+0301).
    @Test func theFolderAPathGoesThroughIsFoundByBytes() {
        #expect(spelled(FileChangeMonitor.child(of: "/a", toward: "/a/\u{301}b/c")) == spelled("/a/\u{301}b"))
        #expect(spelled(FileChangeMonitor.child(of: "/", toward: "/\u{301}b/c")) == spelled("/\u{301}b"))
        #expect(FileChangeMonitor.child(of: "/a", toward: "/a/b") == "/a/b")
    }

    /// The watched folder's path is a link (a `~/.config` that is a link to a folder elsewhere):
    /// it is followed where it is, so its removal and its making again there are heard (found by
    /// a review: the folders watched above it were the link's).
    @Test func aFolderReachedThroughALinkIsFollowedWhereItIs() throws {
        let monitor = FileChangeMonitor()
        let target = directory.file("elsewhere/config")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let link = directory.file("config")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let (count, handler) = counter()
        let observation = try #require(monitor.watch(link.appendingPathComponent("s.plist"), onChange: handler))
        #expect(monitor.watchedFolders == [PropertyListFile.canonicalPath(of: target)])

        #expect(rename(target.path, directory.file("trash").path) == 0)
        #expect(eventually { count.current == 1 }, "told: \(count.current)")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        #expect(eventually { count.current == 2 }, "told once the folder made is watched")
        try replace(link.appendingPathComponent("s.plist"))
        #expect(eventually { count.current == 3 })
        observation.cancel()
        #expect(try watchCount(of: monitor) == 0)
    }
}
#endif
