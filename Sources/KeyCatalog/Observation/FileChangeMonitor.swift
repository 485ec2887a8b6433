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
/// file watched in it), since writers replace files by renaming a new one over them. On Apple
/// platforms it is kqueue, through dispatch sources (``_PathEventFileMonitor``): each watched
/// folder and each watched file that exists is opened for its events.
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
        var descriptor: Int32
        /// The handlers of each watched file name, by registration id.
        var handlers: [String: [Int: Handler]] = [:]
    }

    private struct Handler {
        let onChange: @Sendable () -> Void
        /// Also called for a write that leaves the file open (an append), not only once it is closed.
        let includesAppends: Bool
    }

    private struct State {
        var folders: [String: Folder] = [:]
        /// The folder paths each inotify watch serves: two paths name one folder when it was
        /// moved to the other's path (a watch is of the folder, not of its name).
        var paths: [Int32: Set<String>] = [:]
        var nextID = 0
        var isReading = false
    }

    private let state = _Locked(State())
    #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
    private let pathEvents = _PathEventFileMonitor(events: _DispatchPathEvents())
    #elseif os(Linux)
    private let inotify: Int32 = inotify_init1(Int32(IN_CLOEXEC))
    #endif

    /// Calls `onChange` (on the monitor's thread) each time `file` is written, replaced, created or
    /// removed, until the returned observation is cancelled or released. `nil` when the file's
    /// folder cannot be watched (it does not exist, or the system's watch limit is reached).
    ///
    /// A write counts once the writer closes the file; with `includesAppends`, each write does (a
    /// file store's journal is appended to by writers that keep it open). On Apple platforms each
    /// write counts: kqueue tells of no closing.
    func watch(_ file: URL, includesAppends: Bool = false, onChange: @escaping @Sendable () -> Void) -> PersistentKeyObservation? {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        pathEvents.watch(file, onChange: onChange)
        #elseif os(Linux)
        let folderPath = file.deletingLastPathComponent().path
        let name = file.lastPathComponent
        guard inotify >= 0 else { return nil }
        let (registration, moved) = state.withLock { state -> ((id: Int, startReading: Bool)?, [Int: Handler]) in
            let (isWatched, moved) = attachFolder(folderPath, in: &state, adding: true)
            guard isWatched else { return (nil, moved) }
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
                if let folder = state.folders[folderPath], folder.handlers.isEmpty {
                    detach(folderPath, from: folder.descriptor, in: &state)
                    state.folders[folderPath] = nil
                }
            }
        }
        #else
        return nil
        #endif
    }

    /// Watches the folder at `folderPath` again if the path names another folder than the one watched
    /// (the folder was replaced, or removed and made again): the handlers of the files watched in
    /// it move there and are called (their files may have changed meanwhile). For a watcher that
    /// knows the folder may be new: a file store that made it again, or that gains an observer.
    func rewatchFolder(atPath folderPath: String) {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        pathEvents.rewatchFolder(folderPath)
        #elseif os(Linux)
        guard inotify >= 0 else { return }
        let moved = state.withLock { state in attachFolder(folderPath, in: &state, adding: false).moved }
        Self.callLater(moved)
        #endif
    }

    #if os(Linux) && !KEYCATALOG_APPLE_TYPECHECK
    /// Watches the folder at `folderPath` (`adding`: also one not watched yet). If the path names
    /// another folder than the one watched, the watch moves there and its handlers are returned,
    /// to be called. `isWatched` is `false` when the folder cannot be watched.
    private func attachFolder(_ folderPath: String, in state: inout State, adding: Bool) -> (isWatched: Bool, moved: [Int: Handler]) {
        guard adding || state.folders[folderPath] != nil else { return (false, [:]) }
        // IN_MODIFY: a file store's journal is appended to, not closed. IN_MOVE_SELF: the folder
        // was moved away (to the Trash).
        let mask = IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVE_SELF
        // The watch there already, if the folder is the one watched.
        let descriptor = inotify_add_watch(inotify, folderPath, UInt32(mask))
        guard descriptor >= 0 else { return (false, [:]) }
        guard var folder = state.folders[folderPath] else {
            state.folders[folderPath] = Folder(descriptor: descriptor)
            state.paths[descriptor, default: []].insert(folderPath)
            return (true, [:])
        }
        guard folder.descriptor != descriptor else { return (true, [:]) }
        detach(folderPath, from: folder.descriptor, in: &state)
        folder.descriptor = descriptor
        state.paths[descriptor, default: []].insert(folderPath)
        state.folders[folderPath] = folder
        return (true, folder.handlers.values.reduce(into: [:]) { moved, byID in moved.merge(byID) { first, _ in first } })
    }

    /// `folderPath` no longer uses the inotify watch `descriptor` (-1: none); the watch is removed
    /// once no path uses it.
    private func detach(_ folderPath: String, from descriptor: Int32, in state: inout State) {
        guard descriptor >= 0 else { return }
        state.paths[descriptor]?.remove(folderPath)
        if state.paths[descriptor]?.isEmpty == true {
            inotify_rm_watch(inotify, descriptor)
            state.paths[descriptor] = nil
        }
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
                        // Events were lost: tell every handler.
                        for folder in state.folders.values {
                            for byID in folder.handlers.values { handlers.merge(byID) { first, _ in first } }
                        }
                        continue
                    }
                    guard let folderPaths = state.paths[event.wd] else { continue }
                    if event.mask & UInt32(IN_IGNORED) != 0 {
                        // The folder is gone (removed, or its file system unmounted): its handlers
                        // are told, and kept for a folder made again at its path
                        // (``rewatchFolder(atPath:)``, or the next watch of a file in it).
                        state.paths[event.wd] = nil
                        for folderPath in folderPaths {
                            guard var folder = state.folders[folderPath], folder.descriptor == event.wd else { continue }
                            folder.descriptor = -1
                            state.folders[folderPath] = folder
                            for byID in folder.handlers.values { handlers.merge(byID) { first, _ in first } }
                        }
                        continue
                    }
                    if event.mask & UInt32(IN_MOVE_SELF) != 0 {
                        // The folder was moved: each path it was watched by moves its watch to the
                        // folder the path names now, if any, and its handlers are told.
                        for folderPath in folderPaths {
                            let (isWatched, moved) = attachFolder(folderPath, in: &state, adding: false)
                            handlers.merge(moved) { first, _ in first }
                            guard !isWatched, var folder = state.folders[folderPath], folder.descriptor == event.wd else { continue }
                            detach(folderPath, from: folder.descriptor, in: &state)
                            folder.descriptor = -1
                            state.folders[folderPath] = folder
                            for byID in folder.handlers.values { handlers.merge(byID) { first, _ in first } }
                        }
                        continue
                    }
                    guard event.len > 0 else { continue }
                    let name = String(cString: buffer.advanced(by: nameStart).assumingMemoryBound(to: CChar.self))
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
