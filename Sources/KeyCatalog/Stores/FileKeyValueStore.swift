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
    private let file: PropertyListFile

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
    }

    let url: URL
    let contents: _Locked<Contents>
    let changes = KeyValueChangeCenter()

    private static let openFiles = _Locked<[String: PropertyListFile]>([:])

    static func shared(at url: URL) -> PropertyListFile {
        let path = canonicalPath(of: url)
        return openFiles.withLock { files in
            if let file = files[path] { return file }
            let file = PropertyListFile(url: URL(filePath: path))
            files[path] = file
            return file
        }
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
        self.contents = _Locked(Contents(stored: Self.load(url)))
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
    func update(_ change: (inout [String: PropertyListValue]) -> Void) throws {
        try contents.withLock { contents in
            var updated = contents.stored
            change(&updated)
            try Self.write(updated, to: url)
            contents.stored = updated
        }
    }

    private static func load(_ url: URL) -> [String: PropertyListValue] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch CocoaError.fileReadNoSuchFile {
            return [:]
        } catch let error as NSError where error.domain == NSPOSIXErrorDomain && error.code == Int(ENOENT) {
            return [:]
        } catch {
            report(url, "file could not be read (\(error.localizedDescription)); the store starts empty and the file is left as it is")
            return [:]
        }
        if data.isEmpty { return [:] }
        do {
            let object = try PropertyListSerialization.propertyList(from: data, format: nil)
            guard case .dictionary(let values)? = PropertyListValue(foundationObject: object) else {
                throw PersistentKeyValueEncodingError("the top level is not a dictionary of property-list values")
            }
            return values
        } catch {
            let aside = url.deletingLastPathComponent().appending(
                path: "\(url.lastPathComponent).corrupt-\(Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeSeparator(.omitted)))"
            )
            do {
                try FileManager.default.moveItem(at: url, to: aside)
                report(url, "file is not a valid property list (\(error)); moved aside to \(aside.path(percentEncoded: false)); the store starts empty")
            } catch {
                report(url, "file is not a valid property list and could not be moved aside (\(error)); the store starts empty")
            }
            return [:]
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
            close(descriptor)
            guard rename(temporaryPath, url.path(percentEncoded: false)) == 0 else {
                throw POSIXFailure("replace \(url.path(percentEncoded: false))")
            }
        } catch {
            close(descriptor)
            unlink(temporaryPath)
            throw error
        }
        // Make the rename itself durable.
        let directoryDescriptor = open(directory.path(percentEncoded: false), O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}

/// A failed system call, with `errno`'s message.
struct POSIXFailure: Error, CustomStringConvertible {
    let description: String

    init(_ operation: String, errno code: Int32 = errno) {
        description = "could not \(operation): \(String(cString: strerror(code)))"
    }
}
