import Foundation

/// A store kept in a property-list file at a URL.
///
/// ```swift
/// let store = FileKeyValueStore(url: applicationSupport.appendingPathComponent("settings.plist"))
/// store.set(.launchCount, to: store.get(.launchCount) + 1)
/// ```
///
/// - Several processes may read and write one file: each write takes an advisory lock
///   (`flock`) on `<name>.lock` beside the file, reads the file again if another process
///   replaced it, applies its one change and replaces the file, so no process's write is lost.
///   Reads notice another process's write (a `stat` per read) and read the file again.
/// - Every write replaces the file atomically (temporary file, flush, rename, flush of the
///   folder): a crash leaves the old file or the new one, never a mix. A write that returned is
///   on disk.
/// - The file is a binary property list, which holds every string exactly (XML drops a leading
///   U+FEFF); XML files written by other code are read, and rewritten as binary.
/// - The file and its lock file are created readable and writable by their owner only (0600).
/// - Stores opened on the same file in one process share their contents and change
///   announcements, so they always agree.
/// - A file that does not parse is never overwritten: it is moved aside to
///   `<name>.corrupt-<timestamp>`, the store starts empty, and the failure is reported. A file
///   that cannot be read at all is left alone, and writes are refused (reported) until it can be.
/// - In an XML file whose structure parses but where one value does not (an `<integer>` out of
///   range), only that entry is lost to reads: it is reported, its key reads its default, and it
///   is kept in the file, verbatim, until the key is written or removed. Such a file is rewritten
///   as XML to keep the entry, so while it lasts a string with a leading U+FEFF is refused
///   (reported) instead of being changed.
public final class FileKeyValueStore: PersistentKeyValueStore, Sendable {
    /// The file's location.
    public let url: URL
    /// The file's shared contents: one per file in this process, however its path is spelled.
    let file: PropertyListFile

    /// Opens the store at `url`, reading the file if it exists; it is created on the first write.
    public init(url: URL) {
        self.url = url.standardizedFileURL
        self.file = PropertyListFile.shared(at: self.url)
    }

    public var keyValueChanges: KeyValueChangeCenter { file.changes }

    public var persistentStoreDescription: String { "file store at \(url.path)" }

    /// Everything stored and readable, by storage key.
    public var storedValues: [String: PropertyListValue] {
        file.read { $0.stored }
    }

    public func persistentValue(forKey key: String) -> PropertyListValue? {
        file.read { $0.stored[key] ?? $0.registered[key] }
    }

    /// Whether a value is stored for `key`, also one that cannot be read.
    public func hasPersistentValue(forKey key: String) -> Bool {
        file.read { $0.stored[key] != nil || $0.unreadable[key] != nil }
    }

    public func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        try file.update(key, to: value)
    }

    public func removePersistentValue(forKey key: String) throws {
        try file.update(key, to: nil)
    }

    public func registerPersistentValues(_ values: [String: PropertyListValue]) {
        file.read { $0.registered.merge(values) { _, new in new } }
    }
}
