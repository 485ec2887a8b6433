import Foundation

/// Announces other processes' writes to a file store's observers: while any key of the file has
/// an observer, it watches the file (``FileChangeMonitor``: inotify on Linux) and, when the file
/// changes, has it read again and its changed keys posted. Writes of this process change nothing
/// on reading again, and the change center skips posts equal to the last one delivered, so
/// observers see each change once.
///
/// Every file store's change center has one; there is nothing to set up. While the file has
/// observers it holds the file's state, which then outlives its stores. (On Apple platforms
/// ``FileChangeMonitor`` watches nothing yet: there it never calls back.)
///
/// ```swift
/// let store = FileKeyValueStore(url: settingsURL)
/// let observation = store.observe(.theme) { theme in apply(theme) }   // also another process's writes
/// ```
final class FileStoreChangeWatcher: _KeyValueChangeWatching {
    // Set once, in init (`weak let` needs Swift 6.2; the package builds with 6.1).
    nonisolated(unsafe) private weak var file: PropertyListFile?
    /// While any key of the file is observed: the file, held so that its observers keep hearing
    /// of changes after every store of it is released (a store opened later on the file is then
    /// this one's), and the watches of the file and of its journal.
    private let watch = _Locked<Watch?>(nil)

    private struct Watch {
        let file: PropertyListFile
        let observations: [PersistentKeyObservation]
    }

    init(file: PropertyListFile) {
        self.file = file
    }

    func observedKeyDidChange(_ key: String, takesValue: Bool) {
        guard let file else { return }
        let (started, stopped) = watch.withLock { watch -> (Bool, Watch?) in
            // Decided under this lock, so that a stop and a start on two threads cannot cross.
            let isObserved = file.changes.hasObservedKeys
            // No watch yet, or none could be made (the watch limit was reached): try again.
            if isObserved, watch?.observations.isEmpty ?? true {
                // The folder the first write would create: it must exist to be watched.
                try? FileManager.default.createDirectory(at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
                let observations = [(file.url, false), (file.journalURL, true)].compactMap { url, includesAppends in
                    FileChangeMonitor.shared.watch(url, includesAppends: includesAppends) { [weak file] in file?.announceExternalChanges() }
                }
                watch = Watch(file: file, observations: observations)
                return (!observations.isEmpty, nil)
            } else if !isObserved, let current = watch {
                for observation in current.observations { observation.cancel() }
                watch = nil
                return (false, current)
            }
            return (false, nil)
        }
        // A change between the observer's first read and the watch would otherwise go unseen.
        if started { file.announceExternalChanges() }
        // The file may go with `stopped`, once this returns: outside the lock.
        if stopped != nil { file.forgetUnannouncedChanges() }
    }
}
