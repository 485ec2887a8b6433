import Foundation

/// Announces other processes' writes to a file store's observers: while any key of the file has
/// an observer, it watches the file (``FileChangeMonitor``: inotify on Linux, kqueue on Apple
/// platforms) and, when the file changes, has it read again and its changed keys posted. Writes
/// of this process change nothing on reading again, and the change center skips posts equal to
/// the last one delivered, so observers see each change once.
///
/// Every file store's change center has one; there is nothing to set up.
///
/// ```swift
/// let store = FileKeyValueStore(url: settingsURL)
/// let observation = store.observe(.theme) { theme in apply(theme) }   // also another process's writes
/// ```
final class FileStoreChangeWatcher: _KeyValueChangeWatching {
    // Set once, in init (`weak let` needs Swift 6.2; the package builds with 6.1).
    nonisolated(unsafe) private weak var file: PropertyListFile?
    /// The watches of the file and of its journal.
    private let watch = _Locked<[PersistentKeyObservation]?>(nil)

    /// The file's folder, as ``FileChangeMonitor`` watches it.
    private let folderPath: String

    init(file: PropertyListFile) {
        self.file = file
        // From the canonical path's bytes: `URL`'s operations cost a state's opening a tenth more.
        folderPath = PropertyListFile.folder(of: file.canonicalPath)
    }

    /// Watches the file's folder again if its path names another folder now (removed and made
    /// again): its handlers are then told. The monitor follows the folder by itself; this finds
    /// the new folder before the monitor has read its events, and where it could not follow (a
    /// folder above that it could not open).
    func rewatchFolder() {
        guard watch.withLock({ $0 != nil }) else { return }
        FileChangeMonitor.shared.rewatchFolder(atPath: folderPath)
    }

    /// Ends the watches: the file's state is gone (its center may be held on).
    func stop() {
        let stopped = watch.withLock { watch in
            defer { watch = nil }
            return watch ?? []
        }
        for observation in stopped { observation.cancel() }
    }

    func observedKeyDidChange(_ key: String, takesValue: Bool) {
        guard let file else { return }
        let (started, stopped, rewatches) = watch.withLock { watch -> (Bool, Bool, Bool) in
            // Decided under this lock, so that a stop and a start on two threads cannot cross.
            let isObserved = file.changes.hasObservedKeys
            if isObserved, watch == nil {
                // The folder the first write would create: it must exist to be watched.
                try? FileManager.default.createDirectory(at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
                let watches = [(file.url, false), (file.journalURL, true)].compactMap { url, includesAppends in
                    FileChangeMonitor.shared.watch(url, includesAppends: includesAppends) { [weak file] in file?.announceExternalChanges() }
                }
                watch = watches.isEmpty ? nil : watches
                return (watch != nil, false, false)
            } else if !isObserved, let current = watch {
                for observation in current { observation.cancel() }
                watch = nil
                return (false, true, false)
            }
            // Watched already: the folder may have been removed and made again since (one system
            // call on Linux). Asked for an observer that takes values, not for Observation's
            // tracking of a key's first read through a catalog: a system call each would cost that
            // read a third more.
            return (false, false, isObserved && takesValue)
        }
        // A change between the observer's first read and the watch would otherwise go unseen.
        if started { file.announceExternalChanges() }
        if stopped { file.forgetUnannouncedChanges() }
        if rewatches { rewatchFolder() }
    }
}
