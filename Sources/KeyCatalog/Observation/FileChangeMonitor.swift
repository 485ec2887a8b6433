import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Calls back when a file is written, replaced or removed, by this process or another: how file
/// stores (and, on Linux, UserDefaults suites) notice other processes' writes.
///
/// On Linux it is one inotify descriptor for the process and one thread blocked reading it, so it
/// costs no CPU while nothing changes; each watched folder is one inotify watch (shared by every
/// file watched in it), since writers replace files by renaming a new one over them. The folder
/// above each watched folder is watched too, for the folder's name (inotify tells a folder's own
/// removal only once no file in it is open any more), and each folder above that one for its
/// moves. While a watched folder is gone (removed, or moved away with a folder above it), the
/// nearest folder above its path that exists is watched instead, so that the watch moves to a
/// folder made at the path again, by any program. On Apple platforms it is kqueue, through
/// dispatch sources (``_PathEventFileMonitor``): each watched folder and each watched file that
/// exists is opened for its events, and each folder above a watched one for its moves; a folder
/// gone is followed the same way.
///
/// Paths and names are told apart by their bytes (``_ExactKey``), as the file system tells them:
/// `café` written with U+00E9 and with `e` and U+0301 are one `String` but two files on Linux.
///
/// ```swift
/// let watch = FileChangeMonitor.shared.watch(URL(fileURLWithPath: "/tmp/settings.plist")) {
///     print("settings.plist changed")
/// }
/// watch.cancel()
/// ```
final class FileChangeMonitor: Sendable {
    static let shared = FileChangeMonitor()

    private struct Folder {
        /// The inotify watch of the folder at the path; -1 while there is none.
        var descriptor: Int32
        /// The handlers of each watched file name, by registration id.
        var handlers: [_ExactKey: [Int: Handler]] = [:]
        /// How the path is followed to the folder it names (``follow(_:in:)``).
        var way = Way()
    }

    /// The inotify watches that tell of a change of the folder a path names: of the deepest
    /// folder of the path that exists (the folder itself, while there is one), for its entries;
    /// of the folder above that one, for its name (removed, renamed, made); and of each folder
    /// above that one but `/`, for its moves.
    private struct Way {
        var existing = ""
        var existingWatch: Int32 = -1
        /// -1 when `existing` is `/`.
        var aboveWatch: Int32 = -1
        var higherWatches: [Int32] = []

        var watches: [Int32] { [existingWatch, aboveWatch] + higherWatches }
    }

    private struct Handler {
        let onChange: @Sendable () -> Void
        /// Also called for a write that leaves the file open (an append), not only once it is closed.
        let includesAppends: Bool
    }

    private struct State {
        var folders: [_ExactKey: Folder] = [:]
        /// The folder paths each inotify watch serves: two paths name one folder when it was
        /// moved to the other's path (a watch is of the folder, not of its name).
        var paths: [Int32: Set<_ExactKey>] = [:]
        /// The folder paths whose ``Way`` uses each inotify watch.
        var ways: [Int32: Set<_ExactKey>] = [:]
        var nextID = 0
        var isReading = false
    }

    private let state = _Locked(State())
    #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
    private let pathEvents = _PathEventFileMonitor(events: _DispatchPathEvents())
    #elseif os(Linux)
    /// The monitor's inotify instance (its watches are listed in `/proc/self/fdinfo/<it>`).
    let inotify: Int32 = inotify_init1(Int32(IN_CLOEXEC))
    #endif

    /// Calls `onChange` each time `file` is written, replaced, created or removed, until the
    /// returned observation is cancelled or released; on the monitor's thread, or, when the file's
    /// folder was found moved, on another (so a handler may run twice at once). `nil` when the
    /// file's folder cannot be watched (it does not exist, or the system's watch limit is reached).
    ///
    /// The folder is watched by its path with every symbolic link resolved
    /// (``PropertyListFile/canonicalPath(of:)``): its Way is of the folders really above it.
    /// ``rewatchFolder(atPath:)`` takes that path.
    ///
    /// A write counts once the writer closes the file; with `includesAppends`, each write does (a
    /// file store's journal is appended to by writers that keep it open). On Apple platforms each
    /// write counts: kqueue tells of no closing.
    func watch(_ file: URL, includesAppends: Bool = false, onChange: @escaping @Sendable () -> Void) -> PersistentKeyObservation? {
        let file = URL(fileURLWithPath: PropertyListFile.canonicalPath(of: file.deletingLastPathComponent())).appendingPathComponent(file.lastPathComponent)
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        return pathEvents.watch(file, onChange: onChange)
        #elseif os(Linux)
        let folderPath = _ExactKey(file.deletingLastPathComponent().path)
        let name = _ExactKey(file.lastPathComponent)
        guard inotify >= 0 else { return nil }
        let (registration, moved) = state.withLock { state -> ((id: Int, startReading: Bool)?, [Int: Handler]) in
            var moved: [Int: Handler] = [:]
            if state.folders[folderPath] != nil {
                // Also a folder watched before: it may have been replaced since.
                moved = refollow(folderPath, in: &state)
            } else {
                let descriptor = inotify_add_watch(inotify, folderPath.string, Self.folderMask)
                guard descriptor >= 0 else { return (nil, [:]) }
                state.folders[folderPath] = Folder(descriptor: descriptor)
                state.paths[descriptor, default: []].insert(folderPath)
                _ = follow(folderPath, in: &state)
            }
            guard state.folders[folderPath]!.descriptor >= 0 else {
                // Gone meanwhile: kept only for the handlers it has.
                if state.folders[folderPath]!.handlers.isEmpty { forget(folderPath, in: &state) }
                return (nil, moved)
            }
            state.nextID += 1
            state.folders[folderPath]!.handlers[name, default: [:]][state.nextID] = Handler(onChange: onChange, includesAppends: includesAppends)
            defer { state.isReading = true }
            return ((state.nextID, !state.isReading), moved)
        }
        Self.callLater(moved)
        guard let registration else { return nil }
        if registration.startReading {
            let thread = Thread { [self] in readEvents() }
            thread.name = "KeyCatalog.FileChangeMonitor"
            thread.start()
        }
        return PersistentKeyObservation { [self] in
            state.withLock { state in
                state.folders[folderPath]?.handlers[name]?[registration.id] = nil
                if state.folders[folderPath]?.handlers[name]?.isEmpty == true {
                    state.folders[folderPath]?.handlers[name] = nil
                }
                if state.folders[folderPath]?.handlers.isEmpty == true { forget(folderPath, in: &state) }
            }
        }
        #else
        _ = file  // No monitor on this platform.
        return nil
        #endif
    }

    /// Watches the folder at `folderPath` again if the path names another folder than the one watched
    /// (the folder was replaced, or removed and made again): the handlers of the files watched in
    /// it move there and are called (their files may have changed meanwhile). For a watcher that
    /// knows the folder may be new: a file store that made it again, or that gains an observer.
    /// (The monitor finds such a folder by itself too; this spares the wait for its events.)
    func rewatchFolder(atPath folderPath: String) {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        pathEvents.rewatchFolder(folderPath)
        #elseif os(Linux)
        guard inotify >= 0 else { return }
        let moved = state.withLock { state in refollow(_ExactKey(folderPath), in: &state) }
        Self.callLater(moved)
        #endif
    }

    /// The path of the folder in `folder` that `path`, a path below it, goes through:
    /// `/a/b` in `/a` toward `/a/b/c`. By bytes, not characters: a name may start with a
    /// combining mark, which makes one character with the `/` before it.
    static func child(of folder: String, toward path: String) -> String {
        let start = folder == "/" ? "" : folder
        let name = path.utf8.dropFirst(start.utf8.count + 1).prefix { $0 != UInt8(ascii: "/") }
        return start + "/" + Substring(name)
    }

    #if os(Linux) && !KEYCATALOG_APPLE_TYPECHECK
    // A watched folder's. IN_MODIFY: a file store's journal is appended to, not closed.
    // IN_MOVE_SELF: the folder was moved away (to the Trash). Adding a watch of a folder watched
    // already replaces its mask: this one holds the two others, which add to a mask
    // (IN_MASK_ADD), so that a folder watched for several reasons is told of what each needs.
    // IN_ONLYDIR: a file at a folder's path is not taken for the folder.
    private static let folderMask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVE_SELF) | UInt32(IN_ONLYDIR)
    /// A folder watched for the names in it (``Way``): not told of writes.
    private static let nameMask = UInt32(IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVE_SELF) | UInt32(IN_ONLYDIR | IN_MASK_ADD)
    /// A folder watched for its moves alone.
    private static let moveMask = UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR | IN_MASK_ADD)

    /// The paths of the folders watched (the paths files are watched in, gone or not).
    var watchedFolders: [String] {
        state.withLock { state in state.folders.keys.map(\.string).sorted() }
    }

    /// ``follow(_:in:)``, unless the folder at `folderPath` is the one watched (one system call:
    /// the folder's watch is found again).
    private func refollow(_ folderPath: _ExactKey, in state: inout State) -> [Int: Handler] {
        guard let folder = state.folders[folderPath] else { return [:] }
        let own = inotify_add_watch(inotify, folderPath.string, Self.folderMask)
        if folder.descriptor >= 0, own == folder.descriptor { return [:] }
        let told = follow(folderPath, in: &state)
        // The watch just added is of a folder that may have left the path since: removed unless
        // `follow` found it there too.
        removeIfUnused([own], in: &state)
        return told
    }

    /// Stops watching the folder at `folderPath`: it has no handler left.
    private func forget(_ folderPath: _ExactKey, in state: inout State) {
        guard let folder = state.folders.removeValue(forKey: folderPath) else { return }
        detach(folderPath, from: folder.descriptor, in: &state)
        setWay(Way(), previous: folder.way, of: folderPath, in: &state)
    }

    /// Makes `way` the ``Way`` of the folder at `folderPath` in the index of watches' users, and
    /// removes the watches of `previous` that nothing uses any more.
    private func setWay(_ way: Way, previous: Way, of folderPath: _ExactKey, in state: inout State) {
        for descriptor in previous.watches where descriptor >= 0 {
            state.ways[descriptor]?.remove(folderPath)
            if state.ways[descriptor]?.isEmpty == true { state.ways[descriptor] = nil }
        }
        for descriptor in way.watches where descriptor >= 0 { state.ways[descriptor, default: []].insert(folderPath) }
        removeIfUnused(previous.watches, in: &state)
    }

    /// Points the watches of the folder at `folderPath` at what its path names now: its own at
    /// the folder there, if any (-1 if none), and its ``Way``. Returns the folder's handlers if its
    /// own watch changed (the folder was replaced, removed, or made again), to be called.
    private func follow(_ folderPath: _ExactKey, in state: inout State) -> [Int: Handler] {
        guard var folder = state.folders[folderPath] else { return [:] }
        var told: [Int: Handler] = [:]
        // Each pass looks again at what changed while it added its watches (a folder made before
        // the watch of the folder it is in began tells nothing); a few passes unless some program
        // makes and removes folders there without end.
        for _ in 0..<8 {
            let own = inotify_add_watch(inotify, folderPath.string, Self.folderMask)
            if own != folder.descriptor {
                detach(folderPath, from: folder.descriptor, in: &state)
                folder.descriptor = max(own, -1)
                if own >= 0 { state.paths[own, default: []].insert(folderPath) }
                for byID in folder.handlers.values { told.merge(byID) { first, _ in first } }
            }
            var way = Way(existing: folderPath.string, existingWatch: own)
            while way.existingWatch < 0, way.existing != "/" {
                way.existing = PropertyListFile.folder(of: way.existing)
                way.existingWatch = inotify_add_watch(inotify, way.existing, Self.nameMask)
            }
            var higher = way.existing
            if higher != "/" {
                higher = PropertyListFile.folder(of: higher)
                way.aboveWatch = inotify_add_watch(inotify, higher, Self.nameMask)
            }
            while higher != "/" {
                higher = PropertyListFile.folder(of: higher)
                if higher != "/" { way.higherWatches.append(inotify_add_watch(inotify, higher, Self.moveMask)) }
            }
            let previous = folder.way
            folder.way = way
            state.folders[folderPath] = folder
            setWay(way, previous: previous, of: folderPath, in: &state)
            // The deepest folder that exists is the watched one itself.
            let isFolderItself = _ExactKey(way.existing) == folderPath
            // Settled if the deepest folder is the one watched still (its watch found again: the
            // same folder), and no folder was made below it meanwhile. A folder made at its path
            // since got a watch of its own here, which nothing uses: removed.
            if way.existingWatch >= 0 {
                let again = inotify_add_watch(inotify, way.existing, isFolderItself ? Self.folderMask : Self.nameMask)
                if again != way.existingWatch {
                    removeIfUnused([again], in: &state)
                    continue
                }
            }
            if isFolderItself || FileSignature(folderAt: Self.child(of: way.existing, toward: folderPath.string)) == nil { break }
        }
        return told
    }

    /// `folderPath` no longer uses the inotify watch `descriptor` (-1: none); the watch is removed
    /// once nothing uses it.
    private func detach(_ folderPath: _ExactKey, from descriptor: Int32, in state: inout State) {
        guard descriptor >= 0 else { return }
        state.paths[descriptor]?.remove(folderPath)
        if state.paths[descriptor]?.isEmpty == true { state.paths[descriptor] = nil }
        removeIfUnused([descriptor], in: &state)
    }

    /// Removes each of the inotify watches `descriptors` that no watched folder uses, by its own
    /// watch or its ``Way``.
    private func removeIfUnused(_ descriptors: [Int32], in state: inout State) {
        for descriptor in Set(descriptors) where descriptor >= 0 && state.paths[descriptor] == nil && state.ways[descriptor] == nil {
            inotify_rm_watch(inotify, descriptor)
        }
    }

    /// The folders whose ``Way`` an event of the watch `descriptor` may change: of `name`, an
    /// entry made, removed or renamed in it (`nil`: the watched folder itself went).
    private func folders(followedThrough descriptor: Int32, name: _ExactKey?, in state: State) -> [_ExactKey] {
        (state.ways[descriptor] ?? []).compactMap { folderPath in
            guard let way = state.folders[folderPath]?.way else { return nil }
            guard let name else { return way.watches.contains(descriptor) ? folderPath : nil }
            // A folder made on the way to the one awaited, or the deepest one renamed or removed.
            if way.existingWatch == descriptor, _ExactKey(way.existing) != folderPath,
                Self.path(Self.child(of: way.existing, toward: folderPath.string), endsWith: name)
            {
                return folderPath
            }
            if way.aboveWatch == descriptor, Self.path(way.existing, endsWith: name) { return folderPath }
            return nil
        }
    }

    /// Whether the last name of `path` is `name`, byte for byte.
    private static func path(_ path: String, endsWith name: _ExactKey) -> Bool {
        let (path, name) = (path.utf8, name.string.utf8)
        return path.count > name.count && path.dropLast(name.count).last == UInt8(ascii: "/") && path.suffix(name.count).elementsEqual(name)
    }

    /// Calls the handlers of a watch that moved, on another thread: the caller may hold locks
    /// those handlers (or their observers) take.
    private static func callLater(_ handlers: [Int: Handler]) {
        guard !handlers.isEmpty else { return }
        DispatchQueue.global().async {
            for id in handlers.keys.sorted() { handlers[id]!.onChange() }
        }
    }

    /// The monitor's thread: blocks in `read` until events arrive, then calls their handlers.
    private func readEvents() {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(inotify, buffer, capacity)
            if count < 0 {
                if errno == EINTR { continue }
                // The next watch starts another thread.
                state.withLock { $0.isReading = false }
                return
            }
            // By registration id: a burst of events for one file calls each handler once.
            var handlers: [Int: Handler] = [:]
            var offset = 0
            state.withLock { state in
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    offset = nameStart + Int(event.len)
                    if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        // Events were lost (a folder made, removed or renamed among them): follow
                        // every folder's path again, and tell every handler.
                        for folderPath in state.folders.keys { _ = follow(folderPath, in: &state) }
                        for folder in state.folders.values {
                            for byID in folder.handlers.values { handlers.merge(byID) { first, _ in first } }
                        }
                        continue
                    }
                    let isGone = event.mask & UInt32(IN_IGNORED | IN_MOVE_SELF) != 0
                    // The name of the entry the event is of, in the watched folder; `nil` for the
                    // folder's own events.
                    let name = event.len > 0 ? _ExactKey(String(cString: buffer.advanced(by: nameStart).assumingMemoryBound(to: CChar.self))) : nil
                    // Any entry: a folder, or a link to one.
                    let isEntry = name != nil && event.mask & UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO) != 0
                    if isGone || isEntry {
                        // The folder watched was removed (its file system unmounted) or moved, or an
                        // entry was made, removed or renamed in it: the folders it is the watch of,
                        // or on the way to, are followed to what their paths name now (their
                        // handlers told if their own watch changed).
                        var followed = folders(followedThrough: event.wd, name: isGone ? nil : name, in: state)
                        if isGone { followed += state.paths[event.wd] ?? [] }
                        // A watch removed (IN_IGNORED) is no longer any folder's.
                        if event.mask & UInt32(IN_IGNORED) != 0 { state.paths[event.wd] = nil }
                        for folderPath in Set(followed) { handlers.merge(follow(folderPath, in: &state)) { first, _ in first } }
                        if isGone { continue }
                    }
                    guard let folderPaths = state.paths[event.wd], let name else { continue }
                    for folderPath in folderPaths {
                        var matching = state.folders[folderPath]?.handlers[name] ?? [:]
                        if event.mask & ~UInt32(IN_MODIFY) == 0 { matching = matching.filter { $0.value.includesAppends } }
                        handlers.merge(matching) { first, _ in first }
                    }
                }
            }
            for id in handlers.keys.sorted() { handlers[id]!.onChange() }
        }
    }
    #endif
}
