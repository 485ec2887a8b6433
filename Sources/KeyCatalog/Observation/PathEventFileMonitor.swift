import Foundation

/// Events of one opened file or folder, as kqueue reports them on Apple platforms (a dispatch
/// source of the file system): no names, and nothing after the path is given to another file.
///
/// ``_PathEventFileMonitor`` keeps these watches pointed at the files its watched paths name; an
/// implementation only opens a path and reports its events (``_DispatchPathEvents`` on Apple
/// platforms; a fake in the tests).
protocol _PathEvents: Sendable {
    /// Opens `path` for events and calls `onEvent` for each burst of them, one call at a time for
    /// every watch this makes, until the returned watch is cancelled: for a folder, an entry was
    /// added, removed or renamed; for a file, it was written, extended, removed or renamed; and
    /// either was itself removed or renamed. With `movesOnly`, only the last: the file or folder
    /// itself removed or renamed. `nil` when `path` cannot be opened (there is no such file).
    func watch(_ path: String, movesOnly: Bool, onEvent: @escaping @Sendable () -> Void) -> _PathEventWatch?
}

extension _PathEvents {
    /// Every event of `path` (``watch(_:movesOnly:onEvent:)``).
    func watch(_ path: String, onEvent: @escaping @Sendable () -> Void) -> _PathEventWatch? {
        watch(path, movesOnly: false, onEvent: onEvent)
    }
}

/// One opened file or folder whose events are reported.
struct _PathEventWatch: Sendable {
    /// The file opened: events are of this file, whatever is at its path later.
    let file: FileSignature
    /// Stops the events and closes the file (a report under way may finish).
    let cancel: @Sendable () -> Void
}

/// Calls back when a file is written, replaced or removed, by this process or another, where the
/// system reports events of opened files rather than of names (kqueue, on Apple platforms):
/// ``FileChangeMonitor`` there.
///
/// Each watched folder is opened once, and tells of files added, removed or renamed in it: a
/// writer's atomic replace, a journal made or compacted. Each watched file that exists is opened
/// too, and tells of its writes (a journal's appends, an edit in place). After every event the
/// watches of the folder's files are checked against what their paths name now, and opened
/// again on the new file where one was replaced; then the handlers are called, so a write after
/// the check is reported, and one before it is seen by the handler, which reads the file.
///
/// An event of a folder calls the handlers of every watched file in it: the event does not say
/// which name changed. Handlers read the file and compare, so an extra call costs a check.
///
/// While a watched folder is gone (removed, or moved away), the nearest folder above its path
/// that exists is watched instead: at each of its events the path is looked up again, and the
/// watch moves to a folder made there again, by any program.
///
/// A folder moved with a folder above it tells nothing of its own: each folder above a watched
/// one (but `/`) is watched for its moves too (``Ancestor``), once for all the folders below it.
/// When one moves, the folders below it are looked up again.
///
/// Paths and names are told apart by their bytes (``_ExactKey``): `café` written with U+00E9 and
/// with `e` and U+0301 are one `String`, but two files where names are bytes. (Where the file
/// system takes them for one name, each is watched, and hears that file.)
final class _PathEventFileMonitor: Sendable {
    private struct Folder {
        /// The folder at the path when it was last checked; `nil` while there is none.
        var watch: _PathEventWatch?
        /// While there is none, the nearest folder above the path that exists.
        var above: _PathEventWatch?
        var files: [_ExactKey: File] = [:]

        /// Ends its watches of folders.
        func cancel() {
            watch?.cancel()
            above?.cancel()
        }
    }

    private struct File {
        /// The file at the path when it was last checked; `nil` while there is none.
        var watch: _PathEventWatch?
        var handlers: [Int: @Sendable () -> Void] = [:]
    }

    /// A folder above watched folders, watched for its own moves and removal.
    private struct Ancestor {
        /// The folder at the path when it was last checked; `nil` while there is none.
        var watch: _PathEventWatch?
        /// The watched folders below it, by path.
        var below: Set<_ExactKey> = []
    }

    private struct State {
        var folders: [_ExactKey: Folder] = [:]
        /// By path: the folders above the watched folders' paths, but `/`.
        var ancestors: [_ExactKey: Ancestor] = [:]
        var nextID = 0
    }

    private let events: any _PathEvents
    private let state = _Locked(State())

    init(events: any _PathEvents) {
        self.events = events
    }

    /// Calls `onChange` each time `file` is written, replaced, created or removed, until the
    /// returned observation is cancelled or released; `nil` when its folder cannot be opened.
    func watch(_ file: URL, onChange: @escaping @Sendable () -> Void) -> PersistentKeyObservation? {
        let folderPath = _ExactKey(file.deletingLastPathComponent().path)
        let name = _ExactKey(file.lastPathComponent)
        let (id, toCall) = state.withLock { state -> (Int?, [(Int, @Sendable () -> Void)]) in
            var folder = state.folders[folderPath] ?? Folder()
            // Also a folder watched before: it may have been removed, or replaced, since. Then
            // the files watched in it are looked up again, and their handlers told.
            let toCall = checkFolder(&folder, at: folderPath) ? checkFiles(&folder, in: folderPath, named: nil) : []
            guard folder.watch != nil else {
                if folder.files.isEmpty { folder.cancel() } else { state.folders[folderPath] = folder }
                return (nil, toCall)
            }
            if folder.files[name] == nil {
                folder.files[name] = File(watch: openFile(name, in: folderPath))
            }
            state.nextID += 1
            folder.files[name]!.handlers[state.nextID] = onChange
            state.folders[folderPath] = folder
            checkAncestors(of: folderPath, in: &state)
            return (state.nextID, toCall)
        }
        // On another thread: the caller may hold locks these handlers (or their observers) take.
        if !toCall.isEmpty { DispatchQueue.global().async { Self.call(toCall) } }
        guard let id else { return nil }
        return PersistentKeyObservation { [weak self] in
            self?.state.withLock { state in
                guard var folder = state.folders[folderPath], var watched = folder.files[name] else { return }
                watched.handlers[id] = nil
                if watched.handlers.isEmpty {
                    watched.watch?.cancel()
                    folder.files[name] = nil
                } else {
                    folder.files[name] = watched
                }
                if folder.files.isEmpty {
                    folder.cancel()
                    state.folders[folderPath] = nil
                    Self.forgetAncestors(of: folderPath, in: &state)
                } else {
                    state.folders[folderPath] = folder
                }
            }
        }
    }

    /// Moves the watch of the folder at `folderPath`, if it is watched, to the folder the path
    /// names now, if that is another one; then the files watched there are looked up again and
    /// their handlers called (``FileChangeMonitor/rewatchFolder(atPath:)``).
    func rewatchFolder(_ folderPath: String) {
        let handlers = recheckFolder(_ExactKey(folderPath))
        // On another thread, as for ``watch(_:onChange:)``.
        if !handlers.isEmpty { DispatchQueue.global().async { Self.call(handlers) } }
    }

    /// Checks the folder at `folderPath` (``checkFolder(_:at:)``); if its watch moved, the watches
    /// of its files too, and returns their handlers, to be called.
    private func recheckFolder(_ folderPath: _ExactKey) -> [(Int, @Sendable () -> Void)] {
        state.withLock { state in recheckFolder(folderPath, in: &state) }
    }

    /// ``recheckFolder(_:)``, and the watches of the folders above it.
    private func recheckFolder(_ folderPath: _ExactKey, in state: inout State) -> [(Int, @Sendable () -> Void)] {
        guard var folder = state.folders[folderPath] else { return [] }
        let handlers = checkFolder(&folder, at: folderPath) ? checkFiles(&folder, in: folderPath, named: nil) : []
        // Stored back also when the folder's watch stays: the watch of the folder above may move.
        state.folders[folderPath] = folder
        checkAncestors(of: folderPath, in: &state)
        return handlers
    }

    /// The paths of the folders above `folderPath`, nearest first, but `/`.
    private static func ancestorPaths(of folderPath: _ExactKey) -> [_ExactKey] {
        var paths: [_ExactKey] = []
        var path = PropertyListFile.folder(of: folderPath.string)
        while path != "/", !path.isEmpty {
            paths.append(_ExactKey(path))
            path = PropertyListFile.folder(of: path)
        }
        return paths
    }

    /// Watches each folder above `folderPath` (but `/`) for its moves: the one at its path now,
    /// if another than the one watched.
    private func checkAncestors(of folderPath: _ExactKey, in state: inout State) {
        for path in Self.ancestorPaths(of: folderPath) {
            var ancestor = state.ancestors[path] ?? Ancestor()
            ancestor.below.insert(folderPath)
            let current = FileSignature(folderAt: path.string)
            if !Self.watches(ancestor.watch, current) {
                ancestor.watch?.cancel()
                ancestor.watch = current == nil ? nil : events.watch(path.string, movesOnly: true) { [weak self] in self?.ancestorMoved(path) }
            }
            state.ancestors[path] = ancestor
        }
    }

    /// Stops watching the folders above `folderPath` for it: a folder no longer watched.
    private static func forgetAncestors(of folderPath: _ExactKey, in state: inout State) {
        for path in Self.ancestorPaths(of: folderPath) {
            guard var ancestor = state.ancestors[path] else { continue }
            ancestor.below.remove(folderPath)
            if ancestor.below.isEmpty {
                ancestor.watch?.cancel()
                state.ancestors[path] = nil
            } else {
                state.ancestors[path] = ancestor
            }
        }
    }

    /// A folder above watched folders moved, or was removed: each folder below it is looked up
    /// again (``recheckFolder(_:in:)``), and the handlers of those whose watch moved are called.
    private func ancestorMoved(_ path: _ExactKey) {
        let handlers = state.withLock { state -> [(Int, @Sendable () -> Void)] in
            let below = state.ancestors[path]?.below.sorted { $0.string < $1.string } ?? []
            return below.flatMap { recheckFolder($0, in: &state) }
        }
        Self.call(handlers)
    }

    /// A watch of the file `name` in `folderPath`, telling of its own events; `nil` if there is none.
    private func openFile(_ name: _ExactKey, in folderPath: _ExactKey) -> _PathEventWatch? {
        events.watch(folderPath.string + "/" + name.string) { [weak self] in self?.changed(folderPath, name: name) }
    }

    /// Moves the folder's watch to the folder at `path` now, if that is another one (or none),
    /// and while there is none, its watch of the folder above (``Folder/above``) to the nearest
    /// that exists; returns whether the folder's watch moved.
    private func checkFolder(_ folder: inout Folder, at folderPath: _ExactKey) -> Bool {
        let path = folderPath.string
        var moved = false
        // Each pass looks again at what changed while it opened its watches (a folder made before
        // the watch of the folder it is in began tells nothing); a few passes unless some program
        // makes and removes folders there without end.
        for _ in 0..<8 {
            // A folder only: a file made at the path is not its folder.
            let current = FileSignature(folderAt: path)
            if !Self.watches(folder.watch, current) {
                folder.watch?.cancel()
                folder.watch = current == nil ? nil : events.watch(path) { [weak self] in self?.changed(folderPath, name: nil) }
                moved = true
            }
            guard folder.watch == nil else {
                folder.above?.cancel()
                folder.above = nil
                return moved
            }
            var above = path
            var aboveFile: FileSignature?
            repeat {
                above = PropertyListFile.folder(of: above)
                aboveFile = FileSignature(folderAt: above)
            } while aboveFile == nil && above != "/"
            if !Self.watches(folder.above, aboveFile) {
                folder.above?.cancel()
                folder.above = aboveFile == nil ? nil : events.watch(above) { [weak self] in self?.aboveChanged(folderPath) }
            }
            if FileSignature(folderAt: FileChangeMonitor.child(of: above, toward: path)) == nil { break }
        }
        return moved
    }

    /// Moves the watch of each file watched in the folder (or of `name` alone) to what its path
    /// names now; returns their handlers, with their ids.
    private func checkFiles(_ folder: inout Folder, in folderPath: _ExactKey, named name: _ExactKey?) -> [(Int, @Sendable () -> Void)] {
        var handlers: [(Int, @Sendable () -> Void)] = []
        for (fileName, var file) in folder.files where name == nil || fileName == name {
            let current = FileSignature(path: folderPath.string + "/" + fileName.string)
            if !Self.watches(file.watch, current) {
                file.watch?.cancel()
                file.watch = current == nil ? nil : openFile(fileName, in: folderPath)
                folder.files[fileName] = file
            }
            handlers += file.handlers.map { ($0.key, $0.value) }
        }
        return handlers
    }

    /// Calls `handlers` in the order they were added (outside the lock).
    private static func call(_ handlers: [(Int, @Sendable () -> Void)]) {
        for (_, handler) in handlers.sorted(by: { $0.0 < $1.0 }) { handler() }
    }

    /// Whether `watch` is of the file `current` describes (both `nil`: there is none to watch).
    private static func watches(_ watch: _PathEventWatch?, _ current: FileSignature?) -> Bool {
        if let watch, let current { watch.file.isSameFile(as: current) } else { watch == nil && current == nil }
    }

    /// An event of the folder (`name` is `nil`) or of one of its files: the watches of the files
    /// are moved to what their paths name now, then the handlers are called.
    private func changed(_ folderPath: _ExactKey, name: _ExactKey?) {
        let handlers = state.withLock { state -> [(Int, @Sendable () -> Void)] in
            guard var folder = state.folders[folderPath] else { return [] }
            let moved = name == nil && checkFolder(&folder, at: folderPath)
            let handlers = checkFiles(&folder, in: folderPath, named: name)
            state.folders[folderPath] = folder
            // Removed or replaced: so may be the folders above it.
            if moved { checkAncestors(of: folderPath, in: &state) }
            return handlers
        }
        Self.call(handlers)
    }

    /// An event of the folder watched while the one at `folderPath` is gone: if a folder was made
    /// there, it is watched, the watches of its files are opened, and their handlers called.
    private func aboveChanged(_ folderPath: _ExactKey) {
        Self.call(recheckFolder(folderPath))
    }
}
