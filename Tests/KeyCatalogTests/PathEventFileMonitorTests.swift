import Foundation
import Testing

@testable import KeyCatalog

/// The file monitor of Apple platforms (`_PathEventFileMonitor`), whose events are kqueue's: of
/// opened files and folders, without names. Here its events come from `KqueueLikeEvents`, which
/// changes real files and reports what kqueue would: to the watches of the file changed (by its
/// inode, whatever its path names now) and of its folder when a name in it changed. Dispatch
/// sources themselves cannot run on Linux; `Tests/AppleTypeCheck` type-checks that shell.
@Suite("File monitor over kqueue-like events (Apple platforms)")
struct PathEventFileMonitorTests {
    let directory = TemporaryDirectory()

    /// Changes real files, and delivers kqueue's events for each change on this thread.
    final class KqueueLikeEvents: _PathEvents {
        struct Opened {
            let path: String
            let file: FileSignature
            let movesOnly: Bool
            let onEvent: @Sendable () -> Void
            var isCancelled = false
        }

        let opened = Locked<[Opened]>([])
        /// Runs as the next watch opens its path, once: another program's change that no event
        /// tells, made between the monitor's look at the path and its watch.
        let beforeNextOpen = Locked<(@Sendable (String) -> Void)?>(nil)

        /// Opens `path` and holds it open until cancelled, as a dispatch source's `O_EVTONLY`
        /// descriptor does: its inode cannot be reused by a file made meanwhile.
        func watch(_ path: String, movesOnly: Bool, onEvent: @escaping @Sendable () -> Void) -> _PathEventWatch? {
            let before = beforeNextOpen.withLock { before in
                defer { before = nil }
                return before
            }
            before?(path)
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            guard let file = FileSignature(descriptor: descriptor) else {
                close(descriptor)
                return nil
            }
            let index = opened.withLock { opened in
                opened.append(Opened(path: path, file: file, movesOnly: movesOnly, onEvent: onEvent))
                return opened.count - 1
            }
            return _PathEventWatch(file: file) { [opened] in
                opened.withLock { opened in
                    if !opened[index].isCancelled { close(descriptor) }
                    opened[index].isCancelled = true
                }
            }
        }

        /// The paths watched now for every event, sorted.
        var openPaths: [String] {
            opened.current.filter { !$0.isCancelled && !$0.movesOnly }.map(\.path).sorted()
        }

        /// The paths watched now for their moves only (folders above watched ones), sorted.
        var movesWatched: [String] {
            opened.current.filter { !$0.isCancelled && $0.movesOnly }.map(\.path).sorted()
        }

        /// Reports an event to every open watch of the file `signature` identifies; to those of
        /// its moves only if it is one (`isMove`: the file itself was renamed or removed).
        func report(toWatchesOf signature: FileSignature?, isMove: Bool = false) {
            guard let signature else { return }
            let handlers = opened.current.filter { opened in
                !opened.isCancelled && opened.file.isSameFile(as: signature) && (isMove || !opened.movesOnly)
            }.map(\.onEvent)
            for handler in handlers { handler() }
        }

        func folder(of path: String) -> FileSignature? {
            FileSignature(path: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        }

        /// Appends to the file at `path`, which stays open (a journal's writer): only its own
        /// watches hear it.
        func append(to path: String) throws {
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("record".utf8))
            try handle.close()
            report(toWatchesOf: FileSignature(path: path))
        }

        /// Makes the file at `path`: its folder's watches hear it.
        func create(_ path: String) {
            #expect(FileManager.default.createFile(atPath: path, contents: Data("new".utf8)))
            report(toWatchesOf: folder(of: path))
        }

        /// Renames a new file over `path`, as writers replace files: the folder's watches hear it,
        /// and those of the file replaced (it lost its name).
        func replace(_ path: String) throws {
            let replaced = FileSignature(path: path)
            let temporary = path + ".tmp"
            try Data("replacement".utf8).write(to: URL(fileURLWithPath: temporary))
            #expect(rename(temporary, path) == 0)
            report(toWatchesOf: folder(of: path))
            report(toWatchesOf: replaced, isMove: true)
        }

        /// Makes the folder at `path`: its folder's watches hear it.
        func makeFolder(_ path: String) throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            report(toWatchesOf: folder(of: path))
        }

        /// Removes the folder at `path` and what it holds: each folder removed tells its own
        /// watches, and the folder above it tells its own.
        func removeFolder(_ path: String) throws {
            let inner = try FileManager.default.contentsOfDirectory(atPath: path).map { path + "/" + $0 }
            let folders = inner.filter { (try? FileManager.default.attributesOfItem(atPath: $0)[.type] as? FileAttributeType) == .typeDirectory }
            for folder in folders { try removeFolder(folder) }
            let removed = FileSignature(path: path)
            let above = folder(of: path)
            try FileManager.default.removeItem(atPath: path)
            report(toWatchesOf: removed, isMove: true)
            report(toWatchesOf: above)
        }

        /// Renames the folder at `path` to `destination`: its own watches hear it, and those of
        /// the folders it left and entered; nothing in it tells anything.
        func moveFolder(_ path: String, to destination: String) {
            let moved = FileSignature(path: path)
            #expect(rename(path, destination) == 0)
            report(toWatchesOf: moved, isMove: true)
            report(toWatchesOf: folder(of: path))
            if folder(of: destination).map({ !$0.isSameFile(as: folder(of: path)!) }) ?? false {
                report(toWatchesOf: folder(of: destination))
            }
        }

        /// Removes `path`: its folder's watches hear it, and the file's own.
        func remove(_ path: String) {
            let removed = FileSignature(path: path)
            #expect(unlink(path) == 0)
            report(toWatchesOf: folder(of: path))
            report(toWatchesOf: removed, isMove: true)
        }
    }

    let events = KqueueLikeEvents()
    var monitor: _PathEventFileMonitor { _PathEventFileMonitor(events: events) }

    var folder: String { directory.url.path }
    func path(_ name: String) -> String { folder + "/" + name }

    /// Makes the file `name` before any watch.
    func make(_ name: String) {
        #expect(FileManager.default.createFile(atPath: path(name), contents: nil))
    }

    func counter() -> (count: Locked<Int>, handler: @Sendable () -> Void) {
        let count = Locked(0)
        return (count, { count.withLock { $0 += 1 } })
    }

    /// A watch of the file at `path` through `monitor`, and how often it was told.
    func countedWatch(of path: String, by monitor: _PathEventFileMonitor) throws -> (count: Locked<Int>, observation: PersistentKeyObservation) {
        let (count, handler) = counter()
        return (count, try #require(monitor.watch(URL(fileURLWithPath: path), onChange: handler)))
    }

    /// A watch of `a.plist` in `d/e`, through `monitor`: how often it was told.
    func watchTwoLevelsDown(with monitor: _PathEventFileMonitor) throws -> (outer: String, inner: String, count: Locked<Int>, observation: PersistentKeyObservation) {
        let outer = path("d")
        let inner = outer + "/e"
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        let (count, observation) = try countedWatch(of: inner + "/a.plist", by: monitor)
        return (outer, inner, count, observation)
    }

    @Test func appendsToAWatchedFileAreHeard() throws {
        make("a.journal")
        let monitor = monitor
        let (count, observation) = try countedWatch(of: path("a.journal"), by: monitor)
        #expect(events.openPaths == [folder, path("a.journal")])
        try events.append(to: path("a.journal"))
        try events.append(to: path("a.journal"))
        #expect(count.current == 2)
        observation.cancel()
    }

    /// A replaced file's watch is moved to the new file: its appends are heard (the old watch
    /// would hear nothing more: kqueue reports the file it opened, which lost its name).
    @Test func aReplacedFileIsHeardAndItsNewFileWatched() throws {
        make("a.journal")
        let monitor = monitor
        let (count, observation) = try countedWatch(of: path("a.journal"), by: monitor)
        try events.replace(path("a.journal"))
        #expect(count.current >= 1)
        let afterReplace = count.current
        try events.append(to: path("a.journal"))
        #expect(count.current == afterReplace + 1, "the new file's append is heard")
        #expect(events.openPaths == [folder, path("a.journal")], "the old file's watch is closed")
        observation.cancel()
    }

    @Test func aFileMadeAfterItsWatchIsHeardAndWatched() throws {
        let monitor = monitor
        let (count, observation) = try countedWatch(of: path("a.journal"), by: monitor)
        #expect(events.openPaths == [folder], "no file to open yet")
        events.create(path("a.journal"))
        #expect(count.current == 1)
        #expect(events.openPaths == [folder, path("a.journal")])
        try events.append(to: path("a.journal"))
        #expect(count.current == 2)
        observation.cancel()
    }

    @Test func aRemovedFileIsHeardAndWatchedAgainOnceMadeAgain() throws {
        make("a.plist")
        let monitor = monitor
        let (count, observation) = try countedWatch(of: path("a.plist"), by: monitor)
        events.remove(path("a.plist"))
        #expect(count.current >= 1)
        #expect(events.openPaths == [folder])
        let afterRemove = count.current
        events.create(path("a.plist"))
        try events.append(to: path("a.plist"))
        #expect(count.current == afterRemove + 2)
        observation.cancel()
    }

    /// A folder's event names no file: every watched file of the folder is told. A file's own
    /// event tells that file's handlers only.
    @Test func aFolderEventTellsEveryFileOfItAndAFileEventItsOwn() throws {
        make("a.plist")
        make("a.plist.journal")
        let monitor = monitor
        let (list, listHandler) = counter()
        let (journal, journalHandler) = counter()
        let observations = [
            try #require(monitor.watch(URL(fileURLWithPath: path("a.plist")), onChange: listHandler)),
            try #require(monitor.watch(URL(fileURLWithPath: path("a.plist.journal")), onChange: journalHandler)),
        ]
        #expect(events.openPaths == [folder, path("a.plist"), path("a.plist.journal")], "one watch for the folder")
        try events.append(to: path("a.plist.journal"))
        #expect((list.current, journal.current) == (0, 1))
        events.create(path("other"))
        #expect((list.current, journal.current) == (1, 2))
        for observation in observations { observation.cancel() }
    }

    @Test func handlersAreCalledInTheOrderTheyWatched() throws {
        make("a.plist")
        let monitor = monitor
        let calls = Locked<[Int]>([])
        let observations = try (0..<5).map { index in
            try #require(monitor.watch(URL(fileURLWithPath: path("a.plist"))) { calls.append(index) })
        }
        try events.append(to: path("a.plist"))
        #expect(calls.current == [0, 1, 2, 3, 4])
        for observation in observations { observation.cancel() }
    }

    @Test func cancellingClosesTheFilesWatchThenTheFolders() throws {
        make("a.plist")
        make("b.plist")
        let monitor = monitor
        let (count, handler) = counter()
        let first = try #require(monitor.watch(URL(fileURLWithPath: path("a.plist")), onChange: handler))
        let second = try #require(monitor.watch(URL(fileURLWithPath: path("a.plist")), onChange: handler))
        let other = try #require(monitor.watch(URL(fileURLWithPath: path("b.plist")), onChange: handler))
        first.cancel()
        #expect(events.openPaths == [folder, path("a.plist"), path("b.plist")], "a.plist still has a watcher")
        second.cancel()
        #expect(events.openPaths == [folder, path("b.plist")])
        try events.append(to: path("a.plist"))
        #expect(count.current == 0)
        other.cancel()
        #expect(events.openPaths == [])
        events.create(path("c.plist"))
        #expect(count.current == 0)
    }

    /// A folder removed and made again (an app's reset): the next watch of a file in it opens
    /// the new folder, and hears its files, as inotify's monitor does (found by a review: new
    /// watches joined the removed folder's watch, and heard nothing).
    @Test func aFolderMadeAgainIsWatchedAgain() throws {
        let sub = path("sub")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let monitor = monitor
        let (first, firstHandler) = counter()
        let old = try #require(monitor.watch(URL(fileURLWithPath: sub + "/a.plist"), onChange: firstHandler))
        let removed = FileSignature(path: sub)
        try FileManager.default.removeItem(atPath: sub)
        events.report(toWatchesOf: removed)
        #expect(first.current == 1)
        #expect(events.openPaths == [folder], "the removed folder's watch is closed; the folder above is watched")

        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let (second, secondHandler) = counter()
        let new = try #require(monitor.watch(URL(fileURLWithPath: sub + "/b.plist"), onChange: secondHandler))
        #expect(events.openPaths == [sub])
        #expect(eventually { first.current == 2 }, "told when the new folder is watched: a.plist may have changed meanwhile")
        events.create(sub + "/b.plist")
        #expect(second.current == 1)
        #expect(first.current == 3, "a.plist's watch is in the new folder too")

        // a.plist made in the new folder before its watch: its appends are heard (found by a
        // second review: the files of a folder watched again kept their old watches).
        let (third, thirdHandler) = counter()
        let removedAgain = FileSignature(path: sub)
        try FileManager.default.removeItem(atPath: sub)
        events.report(toWatchesOf: removedAgain)
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: sub + "/a.plist", contents: nil))
        let another = try #require(monitor.watch(URL(fileURLWithPath: sub + "/c.plist"), onChange: thirdHandler))
        // Told on another thread that the folder moved (removal 4, move 5).
        #expect(eventually { first.current == 5 })
        let before = first.current
        try events.append(to: sub + "/a.plist")
        #expect(first.current == before + 1)
        #expect(third.current == 0)
        old.cancel()
        new.cancel()
        another.cancel()
    }

    /// `rewatchFolder`: a file store that made its folder again, or gained an observer, moves the
    /// watch to the folder at the path, and the files watched there are heard again.
    @Test func aFolderMadeAgainIsWatchedOnRequest() throws {
        let sub = path("sub")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let monitor = monitor
        let (count, observation) = try countedWatch(of: sub + "/a.journal", by: monitor)
        monitor.rewatchFolder(sub)
        #expect(count.current == 0, "the same folder: nothing to do")
        let removed = FileSignature(path: sub)
        try FileManager.default.removeItem(atPath: sub)
        events.report(toWatchesOf: removed)
        #expect(count.current == 1)
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: sub + "/a.journal", contents: nil))
        monitor.rewatchFolder(sub)
        #expect(eventually { count.current == 2 })
        try events.append(to: sub + "/a.journal")
        #expect(count.current == 3)
        observation.cancel()
    }

    @Test func aFolderThatDoesNotExistCannotBeWatched() {
        #expect(monitor.watch(URL(fileURLWithPath: path("missing/a.plist"))) {} == nil)
        #expect(events.openPaths == [])
    }

    /// A folder removed, then made again by another program: the folder above it was watched
    /// meanwhile, and the watch moves back to the folder made (no new watch, no request).
    @Test func aFolderMadeAgainIsFoundThroughTheFolderAboveIt() throws {
        let sub = path("sub")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let monitor = monitor
        let (count, observation) = try countedWatch(of: sub + "/a.plist", by: monitor)
        try events.removeFolder(sub)
        #expect(count.current == 1)
        #expect(events.openPaths == [folder], "the folder above, while sub is gone")

        // Another folder's entry changed in the folder above: nothing for a.plist.
        events.create(path("unrelated.plist"))
        #expect(count.current == 1)
        try events.makeFolder(sub)
        #expect(count.current == 2, "told once the folder made is watched")
        #expect(events.openPaths == [sub])
        events.create(sub + "/a.plist")
        #expect(count.current == 3)
        observation.cancel()
        #expect(events.openPaths == [])
    }

    /// Two levels removed, then made again one after the other: the watch of the folder above
    /// moves down with each.
    @Test func aFolderRemovedWithTheOneAboveIsFoundOnceBothAreMadeAgain() throws {
        let monitor = monitor
        let (outer, inner, count, observation) = try watchTwoLevelsDown(with: monitor)
        try events.removeFolder(outer)
        #expect(events.openPaths == [folder])
        let told = count.current
        try events.makeFolder(outer)
        #expect(events.openPaths == [outer])
        #expect(count.current == told, "its folder is not there yet")
        try events.makeFolder(inner)
        #expect(events.openPaths == [inner])
        #expect(count.current == told + 1)
        observation.cancel()
        #expect(events.openPaths == [])
    }

    /// The folder above removed and made again, with the awaited folder in it, before any event
    /// was read: the next event of the folder watched finds the folder.
    @Test func aFolderMadeBeforeTheFolderAboveWasWatchedIsFound() throws {
        let monitor = monitor
        let (outer, inner, count, observation) = try watchTwoLevelsDown(with: monitor)
        let removedInner = FileSignature(path: inner)
        try FileManager.default.removeItem(atPath: inner)
        events.report(toWatchesOf: removedInner)
        #expect(events.openPaths == [outer], "the folder above")
        // Replaced by a folder holding the awaited one, with no event read yet.
        let removedOuter = FileSignature(path: outer)
        try FileManager.default.removeItem(atPath: outer)
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        events.report(toWatchesOf: removedOuter)
        #expect(events.openPaths == [inner])
        #expect(count.current == 2)
        observation.cancel()
    }

    /// The folder made again just before the watch of the folder above it opened: no event
    /// tells of it, so the monitor looks again once that watch is open.
    @Test func aFolderMadeAsTheFolderAboveIsOpenedIsFound() throws {
        let sub = path("sub")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let monitor = monitor
        let (count, observation) = try countedWatch(of: sub + "/a.plist", by: monitor)
        events.beforeNextOpen.withLock {
            $0 = { _ in
                #expect((try? FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: false)) != nil)
            }
        }
        try events.removeFolder(sub)
        #expect(events.openPaths == [sub])
        #expect(count.current == 1)
        events.create(sub + "/a.plist")
        #expect(count.current == 2)
        observation.cancel()
    }

    /// A file made at a gone folder's path is not taken for the folder.
    @Test func aFileAtAFoldersPathIsNotWatchedAsTheFolder() throws {
        let sub = path("sub")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let monitor = monitor
        let (count, observation) = try countedWatch(of: sub + "/a.plist", by: monitor)
        try events.removeFolder(sub)
        events.create(sub)
        #expect(events.openPaths == [folder], "the folder above, still waiting")
        #expect(monitor.watch(URL(fileURLWithPath: sub + "/b.plist")) {} == nil, "no folder there to watch")
        try events.append(to: sub)
        #expect(count.current == 1, "told of the removal only")
        observation.cancel()
    }

    /// The folders above `path`, but `/`.
    func foldersAbove(_ path: String) -> [String] {
        var folders: [String] = []
        var above = URL(fileURLWithPath: path).deletingLastPathComponent().path
        while above != "/" {
            folders.append(above)
            above = URL(fileURLWithPath: above).deletingLastPathComponent().path
        }
        return folders.sorted()
    }

    /// A folder moved with the folder above it tells nothing of its own: the folders above are
    /// watched for their moves (found by the last stop's note: on Apple platforms such a move went
    /// unheard until the store's next write or new observer).
    @Test func aFolderMovedWithAFolderAboveItIsHeard() throws {
        let monitor = monitor
        let (outer, inner, count, observation) = try watchTwoLevelsDown(with: monitor)
        #expect(events.movesWatched == foldersAbove(inner), "every folder above, but /, for its moves")
        events.moveFolder(outer, to: path("moved"))
        #expect(count.current == 1)
        #expect(events.openPaths == [folder], "the folder above, while d/e is gone")
        #expect(events.movesWatched == foldersAbove(outer), "d is gone")

        // Made again, then moved again: the watch of the new d tells.
        try events.makeFolder(outer)
        try events.makeFolder(inner)
        #expect(count.current == 2)
        #expect(events.openPaths == [inner])
        #expect(events.movesWatched == foldersAbove(inner))
        events.moveFolder(outer, to: path("moved again"))
        #expect(count.current == 3)
        observation.cancel()
        #expect(events.openPaths == [])
        #expect(events.movesWatched == [])
    }

    /// Folders below one folder share its watch; it ends with the last of them.
    @Test func foldersBelowOneFolderShareItsWatch() throws {
        let monitor = monitor
        let outer = path("d")
        for name in ["e", "f"] { try FileManager.default.createDirectory(atPath: outer + "/" + name, withIntermediateDirectories: true) }
        let (first, firstObservation) = try countedWatch(of: outer + "/e/a.plist", by: monitor)
        let (second, secondObservation) = try countedWatch(of: outer + "/f/a.plist", by: monitor)
        #expect(events.movesWatched == foldersAbove(outer + "/e"))
        #expect(events.opened.current.count { !$0.isCancelled && $0.path == outer } == 1)
        events.moveFolder(outer, to: path("moved"))
        #expect(first.current == 1)
        #expect(second.current == 1)
        firstObservation.cancel()
        #expect(events.movesWatched == foldersAbove(outer), "still watched for f")
        secondObservation.cancel()
        #expect(events.movesWatched == [])
    }

    /// Two names that differ only in their Unicode normalization: `café` with U+00E9, and with
    /// `e` and U+0301. One `String` to Swift, whose `==` is canonical equivalence, but two files
    /// (or folders) where names are bytes (Linux, and this test's events).
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    /// Paths by their bytes (``spelled(_:)``).
    func bytes(_ paths: [String]) -> Set<String> {
        Set(paths.map(spelled))
    }

    /// Files whose names differ only in their normalization, in one folder: each is opened, each
    /// watch hears its own file's events alone, and a watch cancelled leaves the other's (found by
    /// a review: the monitor's tables were keyed by `String`, and took the two names for one).
    @Test func filesWhoseNamesDifferOnlyInNormalizationAreWatchedApart() throws {
        let (composed, decomposed) = (path(Self.composed + ".journal"), path(Self.decomposed + ".journal"))
        make(Self.composed + ".journal")
        make(Self.decomposed + ".journal")
        let monitor = monitor
        let (composedCount, composedObservation) = try countedWatch(of: composed, by: monitor)
        let (decomposedCount, decomposedObservation) = try countedWatch(of: decomposed, by: monitor)
        #expect(bytes(events.openPaths) == bytes([folder, composed, decomposed]))
        try events.append(to: decomposed)
        #expect((composedCount.current, decomposedCount.current) == (0, 1))
        try events.append(to: composed)
        #expect((composedCount.current, decomposedCount.current) == (1, 1))
        composedObservation.cancel()
        #expect(bytes(events.openPaths) == bytes([folder, decomposed]))
        try events.append(to: decomposed)
        #expect(decomposedCount.current == 2, "still watched once the other's watch ended")
        decomposedObservation.cancel()
        #expect(events.openPaths == [])
    }

    /// Folders whose names differ only in their normalization, one above each watched folder:
    /// each is watched for its moves, a move tells the watches below it alone, and a watch
    /// cancelled leaves the other's.
    @Test func foldersWhoseNamesDifferOnlyInNormalizationAreWatchedApart() throws {
        let (composed, decomposed) = (path(Self.composed), path(Self.decomposed))
        for folder in [composed, decomposed] {
            #expect(mkdir(folder, 0o755) == 0 && mkdir(folder + "/e", 0o755) == 0, "two folders")
        }
        let monitor = monitor
        let (composedCount, composedObservation) = try countedWatch(of: composed + "/e/a.plist", by: monitor)
        let (decomposedCount, decomposedObservation) = try countedWatch(of: decomposed + "/e/a.plist", by: monitor)
        #expect(bytes(events.openPaths) == bytes([composed + "/e", decomposed + "/e"]))
        #expect(bytes(events.movesWatched) == bytes(foldersAbove(composed + "/e") + foldersAbove(decomposed + "/e")))
        events.create(decomposed + "/e/a.plist")
        #expect((composedCount.current, decomposedCount.current) == (0, 1))
        events.create(composed + "/e/a.plist")
        #expect((composedCount.current, decomposedCount.current) == (1, 1))
        events.moveFolder(decomposed, to: path("moved"))
        #expect((composedCount.current, decomposedCount.current) == (1, 2))
        events.moveFolder(path("moved"), to: decomposed)
        #expect((composedCount.current, decomposedCount.current) == (1, 3))

        composedObservation.cancel()
        #expect(bytes(events.openPaths) == bytes([decomposed + "/e", decomposed + "/e/a.plist"]))
        #expect(bytes(events.movesWatched) == bytes(foldersAbove(decomposed + "/e")))
        events.moveFolder(decomposed, to: path("moved"))
        #expect(decomposedCount.current == 4, "still watched once the other's watch ended")
        decomposedObservation.cancel()
        #expect(events.openPaths == [])
        #expect(events.movesWatched == [])
    }
}
