import Foundation

/// One property-list file's contents, shared by every store opened on it in this process.
final class PropertyListFile: Sendable {
    struct Contents {
        var stored: [String: PropertyListValue] = [:]
        var registered: [String: PropertyListValue] = [:]
        /// Entries of an XML file whose value did not parse, as their XML text, by key: their keys
        /// read their defaults, and writes keep them in the file until the key is written.
        var unreadable: [String: String] = [:]
        /// Why writes are refused: the file exists but could not be read, or it is corrupt and
        /// could not be moved aside. Writing would destroy it, so every write fails (reported)
        /// until the file can be read again.
        var writeBlock: String?
        /// The file as last read or written (`nil`: there was no file), to notice when another
        /// process replaced it.
        var signature: FileSignature?
        /// That file, held open so that its inode cannot be reused by another file: an equal inode
        /// then means the very same file, which writers only ever replace, never change.
        var opened: OpenFile?
        /// A load failure that did not block writes (a corrupt file moved aside), to report once.
        var loadReport: String?
    }

    let url: URL
    /// The advisory lock that writers hold (`flock`): the store file itself is replaced by every
    /// write, so it cannot carry the lock.
    let lockURL: URL
    let contents: _Locked<Contents>
    let changes = KeyValueChangeCenter()

    private static let openFiles = _Locked<[String: PropertyListFile]>([:])

    static func shared(at url: URL) -> PropertyListFile {
        let path = canonicalPath(of: url)
        let (file, failure) = openFiles.withLock { files -> (PropertyListFile, String?) in
            if let file = files[path] { return (file, nil) }
            let file = PropertyListFile(url: URL(fileURLWithPath: path))
            _ = file.changes.attach(FileStoreChangeWatcher(file: file))
            files[path] = file
            return (file, file.contents.withLock { $0.writeBlock ?? $0.loadReport })
        }
        // Reported outside the lock: a handler may itself open a file store.
        if let failure { report(file.url, failure) }
        return file
    }

    /// The file's path with every symbolic link resolved, also when the file does not exist yet.
    ///
    /// `URL.resolvingSymlinksInPath()` on Linux leaves a path whose file does not exist untouched,
    /// so two spellings of one new file (through a symlinked folder) would get two caches, and
    /// each store's write would drop the other's values. So: follow the file if it is a link, then
    /// resolve its deepest existing folder with `realpath` and append the rest.
    static func canonicalPath(of url: URL) -> String {
        var path = url.standardizedFileURL.path
        for _ in 0..<32 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { break }
            path =
                destination.hasPrefix("/")
                ? URL(fileURLWithPath: destination).standardizedFileURL.path
                : URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(destination).standardizedFileURL.path
        }
        var existing = URL(fileURLWithPath: path).deletingLastPathComponent()
        var rest = [URL(fileURLWithPath: path).lastPathComponent]
        while existing.path != "/" {
            if let resolved = realpath(existing.path, nil) {
                defer { free(resolved) }
                return rest.reversed().reduce(URL(fileURLWithPath: String(cString: resolved))) { $0.appendingPathComponent($1) }
                    .path
            }
            rest.append(existing.lastPathComponent)
            existing.deleteLastPathComponent()
        }
        return path
    }

    private init(url: URL) {
        self.url = url
        self.lockURL = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".lock")
        var contents = Contents()
        var loaded = Self.load(url, movingCorruptAside: false)
        if loaded.isCorrupt {
            loaded = Self.loadUnderLock(url, lockURL: lockURL)
        }
        Self.apply(loaded, to: &contents)
        contents.loadReport = loaded.report
        self.contents = _Locked(contents)
        Self.removeAbandonedTemporaryFiles(of: url)
    }

    /// Removes the temporary files of writes that never reached their rename (the process was
    /// killed), once they are old enough that no live writer can own them.
    private static func removeAbandonedTemporaryFiles(of url: URL, olderThan age: TimeInterval = 60) {
        let directory = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let file = directory.appendingPathComponent(name)
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
            guard let modified = attributes?[.modificationDate] as? Date, modified < Date(timeIntervalSinceNow: -age) else { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Runs `body` on the contents, after reading the file again if another process replaced it
    /// (one `stat` when it did not). A failure found while reading is reported once.
    func read<Result>(_ body: (inout Contents) -> Result) -> Result {
        let (result, report) = contents.withLock { contents -> (Result, String?) in
            let report = reloadIfReplaced(&contents)
            return (body(&contents), report)
        }
        if let report { Self.report(url, report) }
        return result
    }

    /// Reads the file again if another process replaced it (one `stat` when it did not); returns
    /// a failure to report, if reading found one.
    private func reloadIfReplaced(_ contents: inout Contents) -> String? {
        guard FileSignature(path: url.path) != contents.signature else { return nil }
        var loaded = Self.load(url, movingCorruptAside: false)
        if loaded.isCorrupt {
            loaded = Self.loadUnderLock(url, lockURL: lockURL)
        }
        if loaded.writeBlock != nil {
            // Keep the values last read: better than none, and writes are refused anyway.
            contents.writeBlock = loaded.writeBlock
            contents.signature = loaded.signature
            contents.opened = nil
        } else {
            Self.apply(loaded, to: &contents)
        }
        return loaded.writeBlock ?? loaded.report
    }

    /// Reads the file again if another process replaced it, and announces each observed key whose
    /// value that changed. The file's ``FileStoreChangeWatcher`` calls it when the file changes.
    func announceExternalChanges() {
        let (changed, report) = contents.withLock { contents -> ([String], String?) in
            let before = contents.stored
            let report = reloadIfReplaced(&contents)
            let keys = Set(before.keys).union(contents.stored.keys).filter { before[$0] != contents.stored[$0] }
            return (keys.sorted(), report)
        }
        if let report { Self.report(url, report) }
        let observed = changed.filter { changes.hasObservers(forKey: $0) }
        guard !observed.isEmpty else { return }
        changes.postExternalChanges(forKeys: observed, in: FileKeyValueStore(url: url))
    }

    /// Sets (or, with `nil`, removes) one value and writes the file; if writing fails, the
    /// contents stay as they were.
    ///
    /// Under the file's lock: if another process replaced the file since this one last read or
    /// wrote it, the file is read again first, and only this one change is applied to it.
    func update(_ key: String, to value: PropertyListValue?) throws {
        let report: String? = try contents.withLock { contents in
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            return try Self.withFileLock(lockURL) { () throws -> String? in
                var report: String?
                if contents.writeBlock != nil || FileSignature(path: url.path) != contents.signature {
                    let loaded = Self.load(url, movingCorruptAside: true)
                    if let block = loaded.writeBlock {
                        contents.writeBlock = block
                        contents.signature = loaded.signature
                        throw FileStoreUnavailable(description: "not written, to keep the file that is there: \(block)")
                    }
                    Self.apply(loaded, to: &contents)
                    report = loaded.report
                }
                var stored = contents.stored
                stored[key] = value
                var unreadable = contents.unreadable
                unreadable[key] = nil
                let written = try Self.write(stored, keeping: unreadable, to: url)
                contents.stored = stored
                contents.unreadable = unreadable
                contents.signature = written.signature
                contents.opened = written.file
                return report
            }
        }
        if let report { Self.report(url, report) }
    }

    /// Takes the exclusive advisory lock on `lockURL` (creating it, mode 0600) for `body`.
    private static func withFileLock<Result>(_ lockURL: URL, _ body: () throws -> Result) throws -> Result {
        let path = lockURL.path
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor < 0 && errno == EACCES {
            // A lock file made by another user: locking needs no write access.
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        }
        guard descriptor >= 0 else { throw POSIXFailure("open the lock file \(path)") }
        // Closing the descriptor releases the lock.
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw POSIXFailure("lock \(path)")
        }
        return try body()
    }

    /// Loads the file under its lock, so that moving a corrupt file aside cannot move another
    /// process's fresh file instead; without the lock (it cannot be created), loads anyway.
    private static func loadUnderLock(_ url: URL, lockURL: URL) -> Loaded {
        (try? withFileLock(lockURL) { load(url, movingCorruptAside: true) }) ?? load(url, movingCorruptAside: true)
    }

    /// What loading a file found: its values, why writes must be refused, a failure to report.
    struct Loaded {
        var values: [String: PropertyListValue] = [:]
        var unreadable: [String: String] = [:]
        var writeBlock: String?
        var report: String?
        /// The file does not parse; it was not moved aside (a load without the lock).
        var isCorrupt = false
        var signature: FileSignature?
        var opened: OpenFile?
    }

    private static func apply(_ loaded: Loaded, to contents: inout Contents) {
        contents.stored = loaded.values
        contents.unreadable = loaded.unreadable
        contents.writeBlock = loaded.writeBlock
        contents.signature = loaded.signature
        contents.opened = loaded.opened
    }

    private static func load(_ url: URL, movingCorruptAside: Bool) -> Loaded {
        let path = url.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return Loaded() }
            let failure = POSIXFailure("open it")
            return Loaded(
                writeBlock: "file could not be read (\(failure)); the store starts empty, and writes are refused until it can be read",
                signature: FileSignature(path: path)
            )
        }
        let file = OpenFile(descriptor)
        let signature = FileSignature(descriptor: descriptor)
        let data: Data
        do {
            data = try file.readAll()
        } catch {
            return Loaded(
                writeBlock: "file could not be read (\(error)); the store starts empty, and writes are refused until it can be read",
                signature: signature
            )
        }
        var loaded = Loaded(signature: signature, opened: file)
        if data.isEmpty { return loaded }
        switch PropertyListFileDecoding.decode(data) {
        case .values(let values, let unreadable, let problems):
            loaded.values = values
            loaded.unreadable = unreadable
            if !problems.isEmpty {
                loaded.report =
                    "\(problems.count == 1 ? "1 entry" : "\(problems.count) entries") could not be read, "
                    + "so \(problems.count == 1 ? "its key reads its" : "their keys read their") default; kept in the file as written: "
                    + problems.joined(separator: "; ")
            }
            return loaded
        case .corrupt(let error):
            guard movingCorruptAside else {
                loaded.isCorrupt = true
                return loaded
            }
            let aside = url.deletingLastPathComponent().appendingPathComponent(
                "\(url.lastPathComponent).corrupt-\(Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeSeparator(.omitted)))"
            )
            do {
                try FileManager.default.moveItem(at: url, to: aside)
                return Loaded(report: "file is not a valid property list (\(error)); moved aside to \(aside.path); the store starts empty")
            } catch let moveError {
                return Loaded(
                    writeBlock: "file is not a valid property list (\(error)) and could not be moved aside (\(moveError)); the store starts empty, and writes are refused until it is moved",
                    signature: signature
                )
            }
        }
    }

    private static func report(_ url: URL, _ message: String) {
        PersistentKeyValueFailure.report(
            PersistentKeyValueFailure(operation: .load, key: nil, store: "file store at \(url.path)", message: message)
        )
    }

    /// Writes `values` (and the `unreadable` entries, verbatim) next to the file, flushes, and
    /// renames over it; returns the new file, still open.
    private static func write(
        _ values: [String: PropertyListValue],
        keeping unreadable: [String: String],
        to url: URL
    ) throws -> (signature: FileSignature?, file: OpenFile) {
        let data = try PropertyListFileDecoding.encode(values, keeping: unreadable)
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let temporaryPath = temporary.path
        let descriptor = open(temporaryPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXFailure("create \(temporaryPath)") }
        let file = OpenFile(descriptor)
        do {
            try data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw POSIXFailure("write \(temporaryPath)")
                    }
                    offset += written
                }
            }
            guard fsync(descriptor) == 0 else { throw POSIXFailure("flush \(temporaryPath)") }
        } catch {
            unlink(temporaryPath)
            throw error
        }
        guard rename(temporaryPath, url.path) == 0 else {
            let failure = POSIXFailure("replace \(url.path)")
            unlink(temporaryPath)
            throw failure
        }
        // Make the rename itself durable.
        let directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
        return (FileSignature(descriptor: descriptor), file)
    }
}

/// A file store that refuses to write, so as not to destroy a file it could not read.
struct FileStoreUnavailable: Error, CustomStringConvertible {
    let description: String
}

/// An open file descriptor, closed when released.
final class OpenFile: Sendable {
    let descriptor: Int32

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Everything from the current offset to the end.
    func readAll() throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXFailure("read it")
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }
}

/// What identifies one version of a file: another process's atomic replace changes it (a new
/// inode), and so does an edit in place (size or modification time).
struct FileSignature: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int64
    let modifiedNanoseconds: Int64

    /// The signature of the file at `path`, or `nil` when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The signature of an open file.
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
    }
}

/// A failed system call, with `errno`'s message.
struct POSIXFailure: Error, CustomStringConvertible {
    let description: String

    init(_ operation: String, errno code: Int32 = errno) {
        description = "could not \(operation): \(String(cString: strerror(code)))"
    }
}
