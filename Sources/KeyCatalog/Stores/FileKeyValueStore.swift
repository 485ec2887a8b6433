import Foundation

/// A store kept in a property-list file at a URL.
///
/// ```swift
/// let store = FileKeyValueStore(url: applicationSupport.appendingPathComponent("settings.plist"))
/// store.set(.launchCount, to: store.get(.launchCount) + 1)
/// ```
///
/// - A write is one record appended to the journal beside the file, `<name>.journal`, with one
///   `write(2)`: once `set` returns, the write survives the process being killed, and it costs
///   the same whatever else the store holds. The journal is flushed to the disk (`fdatasync`)
///   100 ms after a write, so a power loss can lose at most the writes of that window;
///   ``flushPersistentValues()`` flushes it at once. Once the journal has grown as large as the
///   file (and at least 256 KB), the file is rewritten with its records in the background and the
///   journal starts again. The store's contents are the file with the journal's records applied:
///   read the file alone and it may lag behind.
/// - Several processes may read and write one store: each write takes an advisory lock (`flock`)
///   on `<name>.lock` beside the file and first reads what other processes appended, so no
///   process's write is lost. Reads notice other processes' writes at once: each asks the
///   journal and the file it holds open whether they changed (`fstat`), and looks them up by path
///   if they did, and at least every 0.1 s. A change the open files cannot show (the store's
///   folder moved, a property list another program puts beside the journal) is read within
///   0.1 s, and by the next write at once, which looks both paths up and keeps what it finds.
/// - The file is replaced atomically (temporary file, flush, rename, flush of the folder), and a
///   journal record that a crash cut short is recognised by its checksum, moved aside and
///   reported: a crash leaves every key at its old value or its new one, never a mix.
/// - The file is a binary property list, which holds every string exactly (XML drops a leading
///   U+FEFF); XML files written by other code are read, and rewritten as binary.
/// - The file, its journal and its lock file are created readable and writable by their owner only (0600).
/// - Stores opened on the same file in one process share their contents and change
///   announcements, so they always agree. That shared state, with its open files (the list, the
///   journal and the lock file), lasts while a store of the file, an observer of one of its keys
///   or a pending flush holds it; then its files are closed, and a store opened later reads the
///   file again. Values registered for a file's keys last for the process, as UserDefaults'
///   registrations do, and so does Observation's tracking of its keys read through catalogs (a
///   few objects, no open file): a view that read a key hears of its changes through any later
///   store of the file.
/// - A collection (an array or dictionary of values that hold no class instance) is decoded once
///   per stored value, whoever wrote it: later reads return that value until the key changes.
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
        // As given: `standardizedFileURL` takes `..` away by name, where the kernel follows a
        // linked folder first.
        self.file = PropertyListFile.shared(at: url)
    }

    public var keyValueChanges: KeyValueChangeCenter { file.changes }

    public var persistentStoreDescription: String { "file store at \(url.path)" }

    /// Everything stored and readable, by storage key.
    public var storedValues: [String: PropertyListValue] {
        file.read { $0.storedValues }
    }

    public func persistentValue(forKey key: String) -> PropertyListValue? {
        file.read { $0.stored[key]?.value ?? $0.registered[key] }
    }

    /// Whether a value is stored for `key`, also one that cannot be read.
    public func hasPersistentValue(forKey key: String) -> Bool {
        file.read { $0.stored[key] != nil || $0.unreadable[key] != nil }
    }

    /// The value stored for `key`, without registered defaults: `.some(nil)` when none is, and
    /// `nil` when the one stored cannot be read (an XML entry whose value does not parse, kept in
    /// the file until the key is written).
    func storedValueIfReadable(forKey key: String) -> PropertyListValue?? {
        file.read { contents in
            if let entry = contents.stored[key] { return .some(entry.value) }
            return contents.unreadable[key] == nil ? .some(nil) : nil
        }
    }

    public func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        try file.update(key, to: value)
    }

    public func removePersistentValue(forKey key: String) throws {
        try file.update(key, to: nil)
    }

    /// Removes the value stored for `key` if it is `expected`, as any process last wrote it. No
    /// write comes between the check and the removal.
    func removePersistentValue(forKey key: String, ifStored expected: PropertyListValue) throws -> _ConditionalRemoval {
        try file.remove(key, ifStored: expected)
    }

    /// Flushes the journal to the disk (`fdatasync`), so that every write so far survives power
    /// loss too; a crash of the process alone never loses a write that returned.
    public func flushPersistentValues() throws {
        try file.flush()
    }

    /// Rewrites the file with every write so far and starts the journal again, so that a program
    /// reading the file alone sees them all. Writes do this by themselves, in the background, once
    /// the journal has grown as large as the file.
    ///
    /// - Throws: the error that kept the file from being written; nothing is lost then, the
    ///   journal still holds every write.
    public func compact() throws {
        try file.compactIfDue(force: true)
    }

    public func registerPersistentValues(_ values: [String: PropertyListValue]) {
        file.register(values)
    }

    public var _keepsDecodedValues: Bool { true }

    /// The value decoded from what the store holds for `key`: a collection is decoded once per
    /// stored value, whoever wrote it (this process or another), and later reads return that
    /// value until the key changes.
    public func _decodedValue(forKey key: String, representation: ObjectIdentifier, decode: (PropertyListValue) -> _AnyDecodedValue?) -> _AnyDecodedValue? {
        let lookup = file.read { contents -> KeptDecodedValue.Lookup in
            guard let entry = contents.stored[key] else {
                return contents.registered[key].map { .stored($0, generation: nil) } ?? .none
            }
            if let decoded = entry.decoded, decoded.representation == representation { return .kept(decoded.value) }
            return .stored(entry.value, generation: entry.generation)
        }
        return lookup.value(representation: representation, decode: decode) { decoded, generation in
            file.contents.withLock { $0.keep(decoded, forKey: key, decodedFrom: generation) }
        }
    }
}
