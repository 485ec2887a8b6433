import Foundation

/// A store kept in a property-list file at a URL.
///
/// ```swift
/// let store = FileKeyValueStore(url: applicationSupport.appending(path: "settings.plist"))
/// store.set(.launchCount, to: store.get(.launchCount) + 1)
/// ```
///
/// - Every write replaces the file atomically (temporary file, flush, rename): a crash leaves the
///   old file or the new one, never a mix.
/// - The file is created readable and writable by its owner only (mode 0600).
/// - Stores opened on the same file in one process share their contents and change
///   announcements, so they always agree.
/// - A file that does not parse is never overwritten: it is moved aside to
///   `<name>.corrupt-<timestamp>`, the store starts empty, and the failure is reported.
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

    public var persistentStoreDescription: String { "file store at \(url.path(percentEncoded: false))" }

    /// Everything stored, by storage key.
    public var storedValues: [String: PropertyListValue] {
        file.contents.withLock { $0.stored }
    }

    public func persistentValue(forKey key: String) -> PropertyListValue? {
        file.contents.withLock { $0.stored[key] ?? $0.registered[key] }
    }

    public func hasPersistentValue(forKey key: String) -> Bool {
        file.contents.withLock { $0.stored[key] != nil }
    }

    public func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        try file.update { $0[key] = value }
    }

    public func removePersistentValue(forKey key: String) throws {
        try file.update { $0[key] = nil }
    }

    public func registerPersistentValues(_ values: [String: PropertyListValue]) {
        file.contents.withLock { $0.registered.merge(values) { _, new in new } }
    }
}

/// One property-list file's contents, shared by every store opened on it in this process.
final class PropertyListFile: Sendable {
    struct Contents {
        var stored: [String: PropertyListValue] = [:]
        var registered: [String: PropertyListValue] = [:]
        /// Why writes are refused: the file exists but could not be read, or it is corrupt and
        /// could not be moved aside. Writing would destroy it, so every write fails (reported)
        /// until the file can be read again.
        var writeBlock: String?
        /// The file as last read or written, to notice when another process replaced it.
        var signature: FileSignature?
        /// A load failure that did not block writes (a corrupt file moved aside), to report once.
        var loadReport: String?
    }

    let url: URL
    let contents: _Locked<Contents>
    let changes = KeyValueChangeCenter()

    private static let openFiles = _Locked<[String: PropertyListFile]>([:])

    static func shared(at url: URL) -> PropertyListFile {
        let path = canonicalPath(of: url)
        let (file, failure) = openFiles.withLock { files -> (PropertyListFile, String?) in
            if let file = files[path] { return (file, nil) }
            let file = PropertyListFile(url: URL(filePath: path))
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
        var path = url.standardizedFileURL.path(percentEncoded: false)
        for _ in 0..<32 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { break }
            path = destination.hasPrefix("/")
                ? URL(filePath: destination).standardizedFileURL.path(percentEncoded: false)
                : URL(filePath: path).deletingLastPathComponent().appending(path: destination).standardizedFileURL.path(percentEncoded: false)
        }
        var existing = URL(filePath: path).deletingLastPathComponent()
        var rest = [URL(filePath: path).lastPathComponent]
        while existing.path(percentEncoded: false) != "/" {
            if let resolved = realpath(existing.path(percentEncoded: false), nil) {
                defer { free(resolved) }
                return rest.reversed().reduce(URL(filePath: String(cString: resolved))) { $0.appending(path: $1) }
                    .path(percentEncoded: false)
            }
            rest.append(existing.lastPathComponent)
            existing.deleteLastPathComponent()
        }
        return path
    }

    private init(url: URL) {
        self.url = url
        let loaded = Self.load(url)
        var contents = Contents(stored: loaded.values, writeBlock: loaded.writeBlock, signature: FileSignature(of: url))
        contents.loadReport = loaded.report
        self.contents = _Locked(contents)
        Self.removeAbandonedTemporaryFiles(of: url)
    }

    /// Removes the temporary files of writes that never reached their rename (the process was
    /// killed), once they are old enough that no live writer can own them.
    private static func removeAbandonedTemporaryFiles(of url: URL, olderThan age: TimeInterval = 60) {
        let directory = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false)) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let file = directory.appending(path: name)
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path(percentEncoded: false))
            guard let modified = attributes?[.modificationDate] as? Date, modified < Date(timeIntervalSinceNow: -age) else { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Applies `change` and writes the file; if writing fails, the contents stay as they were.
    ///
    /// If another process replaced the file since this one last read or wrote it, the file is read
    /// again first, so the write keeps that process's values.
    func update(_ change: (inout [String: PropertyListValue]) -> Void) throws {
        let report: String? = try contents.withLock { contents in
            var report: String?
            if contents.writeBlock != nil || FileSignature(of: url) != contents.signature {
                let loaded = Self.load(url)
                if let block = loaded.writeBlock {
                    contents.writeBlock = block
                    throw FileStoreUnavailable(description: "not written, to keep the file that is there: \(block)")
                }
                contents.writeBlock = nil
                contents.stored = loaded.values
                report = loaded.report
            }
            var updated = contents.stored
            change(&updated)
            try Self.write(updated, to: url)
            contents.stored = updated
            contents.signature = FileSignature(of: url)
            return report
        }
        if let report { Self.report(url, report) }
    }

    /// What loading a file found: its values, why writes must be refused, a failure to report.
    private struct Loaded {
        var values: [String: PropertyListValue] = [:]
        var writeBlock: String?
        var report: String?
    }

    private static func load(_ url: URL) -> Loaded {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch CocoaError.fileReadNoSuchFile {
            return Loaded()
        } catch let error as NSError where error.domain == NSPOSIXErrorDomain && error.code == Int(ENOENT) {
            return Loaded()
        } catch {
            return Loaded(writeBlock: "file could not be read (\(error.localizedDescription)); the store starts empty, and writes are refused until it can be read")
        }
        if data.isEmpty { return Loaded() }
        do {
            let object = try PropertyListSerialization.propertyList(from: data, format: nil)
            guard case .dictionary(let values)? = PropertyListValue(foundationObject: object) else {
                throw PersistentKeyValueEncodingError("the top level is not a dictionary of property-list values")
            }
            return Loaded(values: values)
        } catch {
            let aside = url.deletingLastPathComponent().appending(
                path: "\(url.lastPathComponent).corrupt-\(Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeSeparator(.omitted)))"
            )
            do {
                try FileManager.default.moveItem(at: url, to: aside)
                return Loaded(report: "file is not a valid property list (\(error)); moved aside to \(aside.path(percentEncoded: false)); the store starts empty")
            } catch let moveError {
                return Loaded(writeBlock: "file is not a valid property list (\(error)) and could not be moved aside (\(moveError)); the store starts empty, and writes are refused until it is moved")
            }
        }
    }

    private static func report(_ url: URL, _ message: String) {
        PersistentKeyValueFailure.report(
            PersistentKeyValueFailure(operation: .load, key: nil, store: "file store at \(url.path(percentEncoded: false))", message: message)
        )
    }

    /// Writes `values` next to the file, flushes, and renames over it.
    private static func write(_ values: [String: PropertyListValue], to url: URL) throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: PropertyListValue.dictionary(values).foundationObject,
            format: .xml,
            options: 0
        )
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appending(path: ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let temporaryPath = temporary.path(percentEncoded: false)
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXFailure("create \(temporaryPath)") }
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
            close(descriptor)
            unlink(temporaryPath)
            throw error
        }
        close(descriptor)
        guard rename(temporaryPath, url.path(percentEncoded: false)) == 0 else {
            let failure = POSIXFailure("replace \(url.path(percentEncoded: false))")
            unlink(temporaryPath)
            throw failure
        }
        // Make the rename itself durable.
        let directoryDescriptor = open(directory.path(percentEncoded: false), O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}

/// A file store that refuses to write, so as not to destroy a file it could not read.
struct FileStoreUnavailable: Error, CustomStringConvertible {
    let description: String
}

/// What identifies one version of a file: another process's atomic replace changes it.
struct FileSignature: Equatable, Sendable {
    let inode: UInt64
    let size: UInt64
    let modified: Date

    /// The file's signature, or `nil` when there is no file.
    init?(of url: URL) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path(percentEncoded: false)),
            let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value,
            let size = (attributes[.size] as? NSNumber)?.uint64Value,
            let modified = attributes[.modificationDate] as? Date
        else { return nil }
        self.inode = inode
        self.size = size
        self.modified = modified
    }
}

/// A failed system call, with `errno`'s message.
struct POSIXFailure: Error, CustomStringConvertible {
    let description: String

    init(_ operation: String, errno code: Int32 = errno) {
        description = "could not \(operation): \(String(cString: strerror(code)))"
    }
}
