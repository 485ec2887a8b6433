import Foundation
import KeyCatalog
import Testing

@Suite("Migrations: a source's removal is on the disk when the run returns, and removes only the value moved")
struct KeyMigrationSourceRemovalTests {
    /// A store that calls `beforeFlush` at its first flush: in a move, after the key's write and
    /// before the source's removal.
    final class StoreHookedAtFlush: PersistentKeyValueStore, @unchecked Sendable {
        let base: any PersistentKeyValueStore
        private var beforeFlush: (() -> Void)?

        init(_ base: any PersistentKeyValueStore, beforeFlush: @escaping () -> Void) {
            self.base = base
            self.beforeFlush = beforeFlush
        }

        func flushPersistentValues() throws {
            let hook = beforeFlush
            beforeFlush = nil
            hook?()
            try base.flushPersistentValues()
        }

        func persistentValue(forKey key: String) -> PropertyListValue? { base.persistentValue(forKey: key) }
        func hasPersistentValue(forKey key: String) -> Bool { base.hasPersistentValue(forKey: key) }
        func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws { try base.setPersistentValue(value, forKey: key) }
        func removePersistentValue(forKey key: String) throws { try base.removePersistentValue(forKey: key) }
        func registerPersistentValues(_ values: [String: PropertyListValue]) { base.registerPersistentValues(values) }
        var keyValueChanges: KeyValueChangeCenter { base.keyValueChanges }
        var persistentStoreDescription: String { "hooked \(base.persistentStoreDescription)" }
    }

    static let rename = KeyMigration(
        name: "count", key: PersistentKey<Int>("new", defaultValue: 0), store: "to",
        sources: [KeyMigrationSource(fromKey: "old", store: "from", representation: Int.persistentKeyValueRepresentation)])

    /// What Foundation wrote for a suite on Linux, read from its file.
    static func suiteOnDisk(_ suite: TemporarySuite) throws -> [String: Any] {
        let data = try Data(contentsOf: suite.fileURL)
        return try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] ?? [:]
    }

    /// Found: UserDefaults on Linux writes a removal at its next synchronization, 100 ms later,
    /// and a process ending before it (killed) left the value in the suite as well as in the key,
    /// where it came back into the key once the key was emptied (a sign-out).
    @Test("a source moved out of a UserDefaults suite is gone from the suite's file when the run returns")
    func aRemovalFromASuiteIsOnTheDisk() throws {
        let suite = TemporarySuite()
        try suite.defaults.setPersistentValue(.int(42), forKey: "old")
        // Another key, so that the file stays (Foundation removes the file of an empty suite).
        try suite.defaults.setPersistentValue(.bool(true), forKey: "unrelated")
        try suite.defaults.flushPersistentValues()
        #expect(try Self.suiteOnDisk(suite).keys.sorted() == ["old", "unrelated"])
        let directory = TemporaryDirectory()
        let target = FileKeyValueStore(url: directory.file("to.plist"))

        let report = KeyMigrator.run([Self.rename]) { ["from": suite.defaults, "to": target][$0] }

        #expect(report.entries.map(\.outcome) == [.migrated])
        // Read at once: the suite's own coalesced synchronization would come 100 ms later.
        #expect(try Self.suiteOnDisk(suite).keys.sorted() == ["unrelated"])
        #expect(try readMigrationPropertyList(directory.file("to.plist")) == ["new": .int(42)])
    }

    /// Where the source is written meanwhile: a file store by another process (the check and the
    /// removal are under the file's lock), a suite by this one (read again before the removal).
    enum Writer: String, CaseIterable, Sendable { case otherProcessToFile, thisProcessToSuite }

    /// Found: the source was removed whatever it held by then, so a value another process wrote
    /// to the old key during the move (before it ended) was deleted, in neither place afterwards.
    @Test("a value written to the source during the move stays there, the move is taken back, and the next run moves it", arguments: Writer.allCases)
    func aWriteToTheSourceDuringTheMoveIsKept(_ writer: Writer) throws {
        let directory = TemporaryDirectory()
        let suite = TemporarySuite()
        let fromFile = directory.file("from.plist")
        let from: any PersistentKeyValueStore = writer == .otherProcessToFile ? FileKeyValueStore(url: fromFile) : suite.defaults
        try from.setPersistentValue(.int(6), forKey: "old")
        let to = FileKeyValueStore(url: directory.file("to.plist"))
        let hooked = StoreHookedAtFlush(to) {
            switch writer {
            case .otherProcessToFile:
                let child = try? TestHelperExecutable.run(["file", fromFile.path, "set", "old", "7"])
                #expect(child?.status == 0)
            case .thisProcessToSuite:
                #expect(throws: Never.self) { try suite.defaults.setPersistentValue(.int(7), forKey: "old") }
            }
        }
        let failures = FailureRecorder()

        let report = failures.record { KeyMigrator.run([Self.rename]) { ["from": from, "to": hooked][$0] } }

        let reason =
            "the source changed during the move (another thread or process wrote it); the key's value was taken back, the source kept, and the next run moves it again"
        #expect(report.entries.map(\.outcome) == [.failed(reason)])
        #expect(failures.failures.map(\.message) == ["from 'old': \(reason)"])
        #expect(storedValue("old", in: from) == .int(7))
        #expect(try readMigrationPropertyList(directory.file("to.plist")) == [:])

        let rerun = KeyMigrator.run([Self.rename]) { ["from": from, "to": to][$0] }

        #expect(rerun.entries.map(\.outcome) == [.migrated])
        #expect(storedValue("old", in: from) == nil)
        #expect(try readMigrationPropertyList(directory.file("to.plist")) == ["new": .int(7)])
    }

    /// Found by a review of the conditional removal: a run that found the source gone (another
    /// run of the same migration had finished the move) took the value back out of the key, and
    /// the value was in neither place.
    @Test("two runs of one migration at once: the value ends at the key, once")
    func twoRunsOfOneMigrationAtOnceKeepTheValue() throws {
        let directory = TemporaryDirectory()
        let from = FileKeyValueStore(url: directory.file("from.plist"))
        try from.setPersistentValue(.int(6), forKey: "old")
        let to = FileKeyValueStore(url: directory.file("to.plist"))
        let other = Locked<KeyMigrationReport?>(nil)
        // The other run, whole, between this run's write of the key and its removal of the source.
        let hooked = StoreHookedAtFlush(to) {
            let report = KeyMigrator.run([Self.rename]) { ["from": from, "to": to][$0] }
            other.withLock { $0 = report }
        }
        let failures = FailureRecorder()

        let report = failures.record { KeyMigrator.run([Self.rename]) { ["from": from, "to": hooked][$0] } }

        #expect(other.current?.entries.map(\.outcome) == [.completedInterruptedMove])
        #expect(report.entries.map(\.outcome) == [.migrated])
        #expect(failures.failures.isEmpty, "\(failures.failures)")
        #expect(try readMigrationPropertyList(directory.file("from.plist")) == [:])
        #expect(try readMigrationPropertyList(directory.file("to.plist")) == ["new": .int(6)])
    }

    /// An earlier run moved the value and stopped before removing the source; the source is
    /// written again before this run removes it.
    @Test("completing an interrupted move removes the source only if it still holds the value moved")
    func completingAnInterruptedMoveKeepsANewerSource() throws {
        let directory = TemporaryDirectory()
        let fromFile = directory.file("from.plist")
        let from = FileKeyValueStore(url: fromFile)
        try from.setPersistentValue(.int(6), forKey: "old")
        let to = FileKeyValueStore(url: directory.file("to.plist"))
        try to.setPersistentValue(.int(6), forKey: "new")
        let hooked = StoreHookedAtFlush(to) {
            let child = try? TestHelperExecutable.run(["file", fromFile.path, "set", "old", "7"])
            #expect(child?.status == 0)
        }
        let failures = FailureRecorder()

        let report = failures.record { KeyMigrator.run([Self.rename]) { ["from": from, "to": hooked][$0] } }

        let reason = "the source changed as an earlier move's removal of it was completed (another thread or process wrote it); the source is kept"
        #expect(report.entries.map(\.outcome) == [.failed(reason)])
        #expect(failures.failures.count == 1)
        #expect(try readMigrationPropertyList(fromFile) == ["old": .int(7)])
        #expect(try readMigrationPropertyList(directory.file("to.plist")) == ["new": .int(6)])
    }
}

/// What `store` holds for `key`, registered defaults aside, as this process reads it.
private func storedValue(_ key: String, in store: any PersistentKeyValueStore) -> PropertyListValue? {
    store.hasPersistentValue(forKey: key) ? store.persistentValue(forKey: key) : nil
}
