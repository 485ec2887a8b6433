import Foundation
import Testing

@testable import KeyCatalog

/// What a file store holds on disk, read without opening a `FileKeyValueStore` (whose contents this
/// process would then cache): the property list, parsed by Foundation, with the records of its
/// journal (`<name>.journal`) applied in order. Absent files are empty.
enum FileStoreOnDisk {
    /// What another program does to a store's file: writes a new list beside it, takes the
    /// journal away, and renames the list over the old one.
    static func replaceList(_ url: URL, with values: [String: Int]) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
        let temporary = url.deletingLastPathComponent().appendingPathComponent("external.tmp")
        try data.write(to: temporary)
        unlink(url.path + ".journal")
        #expect(rename(temporary.path, url.path) == 0)
    }

    static func read(_ url: URL) throws -> [String: PropertyListValue] {
        var values: [String: PropertyListValue] = [:]
        if FileManager.default.fileExists(atPath: url.path) {
            values = try StoreFixture.readPropertyListFile(url)
        }
        for record in try journalRecords(url).records {
            values[record.key] = record.value
        }
        return values
    }

    /// The journal's records, and whether bytes that are not a whole record follow them.
    static func journalRecords(_ url: URL) throws -> FileStoreJournal.Scan {
        let journal = URL(fileURLWithPath: url.path + ".journal")
        guard FileManager.default.fileExists(atPath: journal.path) else { return FileStoreJournal.Scan() }
        let data = try Data(contentsOf: journal)
        let header = FileStoreJournal.header
        guard data.starts(with: header) else {
            throw PersistentKeyValueEncodingError("\(journal.path) does not start with the journal header")
        }
        return data.dropFirst(header.count).withUnsafeBytes { FileStoreJournal.scan($0) }
    }

    /// How many records the journal holds.
    static func journalRecordCount(_ url: URL) throws -> Int {
        try journalRecords(url).records.count
    }

    /// Has a fresh process open the store at `url` for writing and compact it, as the next writer
    /// after a killed one does; returns what it reported, which the caller asserts. That process
    /// moves aside a record the kill cut short, and reports it: a store this process opened on
    /// such a journal would report it from its background compaction (opened on a journal that has
    /// outgrown its list), to the process-wide handler, where no test asserts it.
    static func settleAfterKill(_ url: URL) throws -> [Substring] {
        let settled = try TestHelperExecutable.run(["file", url.path, "compact-set", "settled", "1"], capturingErrors: true)
        #expect(settled.status == 0, "\(settled.errors)")
        #expect(try journalRecords(url).hasDamagedTail == false)
        return settled.errors.split(separator: "\n")
    }

    /// Whether `report` is the one line a store writes when it moves aside a record cut short.
    static func isTornTailReport(_ report: Substring) -> Bool {
        report.contains("that do not read as whole records (a write cut short by a crash or power loss, or bytes damaged on the disk)")
            && report.contains("moved aside")
    }

    /// Whether anything of the store is on disk: the property list or its journal.
    static func exists(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path) || FileManager.default.fileExists(atPath: url.path + ".journal")
    }
}
