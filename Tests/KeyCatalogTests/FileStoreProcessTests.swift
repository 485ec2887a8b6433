import Foundation
import KeyCatalog
import Testing

/// The file store against other processes and permissions: real child processes, an
/// unprivileged user where the tests run as root.
@Suite("File store: other processes and permissions")
struct FileStoreProcessTests {
    let folder = TemporaryDirectory()

    /// A folder anyone may write in, so an unprivileged child can create temporary files there.
    private func sharedFolder() throws -> URL {
        let url = folder.file("shared")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        chmod(url.path, 0o777)
        return url
    }

    private func writePropertyList(_ values: [String: Any], to url: URL, mode: mode_t) throws {
        try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0).write(to: url)
        chmod(url.path, mode)
    }

    @Test func aFileThatCannotBeReadIsNeverOverwritten() throws {
        let url = try sharedFolder().appendingPathComponent("settings.plist")
        try writePropertyList(["precious": 42], to: url, mode: 0o000)

        let child = try TestHelperExecutable.runUnprivileged(["file", url.path, "set", "new", "1"])
        #expect(child.status == 0)
        #expect(child.errors.contains("file could not be read"), "\(child.errors)")
        #expect(child.errors.contains("not written, to keep the file that is there"), "\(child.errors)")
        chmod(url.path, 0o600)
        #expect(try StoreFixture.readPropertyListFile(url) == ["precious": .int(42)], "the file is as it was")
    }

    @Test func aJournalThatCannotBeReadIsNeverReplaced() throws {
        let url = try sharedFolder().appendingPathComponent("settings.plist")
        try writePropertyList(["listed": 1], to: url, mode: 0o644)
        let journal = url.path + ".journal"
        var child = try TestHelperExecutable.run(["file", url.path, "set", "journaled", "2"])
        #expect(child.status == 0)
        chmod(url.path + ".lock", 0o644)
        chmod(journal, 0o000)

        let unprivileged = try TestHelperExecutable.runUnprivileged(["file", url.path, "set", "new", "3"])
        #expect(unprivileged.status == 0)
        #expect(unprivileged.errors.contains("its journal \(journal) could not be read"), "\(unprivileged.errors)")
        #expect(unprivileged.errors.contains("not written, to keep the file that is there"), "\(unprivileged.errors)")
        chmod(journal, 0o600)
        #expect(try FileStoreOnDisk.read(url) == ["listed": .int(1), "journaled": .int(2)], "the journal is as it was")
        child = try TestHelperExecutable.run(["file", url.path, "get", "journaled"])
        #expect(child.output == "2\n")
    }

    @Test func aReadOnlyFolderMakesWritesFailAndKeepsTheOldValue() throws {
        let directory = try sharedFolder()
        let url = directory.appendingPathComponent("settings.plist")
        try writePropertyList(["n": 1], to: url, mode: 0o644)
        chmod(directory.path, 0o555)
        defer { chmod(directory.path, 0o777) }

        let child = try TestHelperExecutable.runUnprivileged(["file", url.path, "set", "n", "2"])
        #expect(child.status == 0)
        #expect(child.errors.contains("write of 'n'"), "\(child.errors)")
        #expect(try StoreFixture.readPropertyListFile(url) == ["n": .int(1)])
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names == ["settings.plist"])
    }

    @Test func aWriteKeepsWhatAnotherProcessWroteMeanwhile() throws {
        let url = folder.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        let mine = PersistentKey<Int>("Mine", defaultValue: 0)
        store.set(mine, to: 1)

        // Another process writes the file while this one has it open.
        let child = try TestHelperExecutable.run(["file", url.path, "set", "Theirs", "2"])
        #expect(child.status == 0)

        store.set(mine, to: 3)
        #expect(try FileStoreOnDisk.read(url) == ["Mine": .int(3), "Theirs": .int(2)])
        #expect(store.get(PersistentKey<Int>("Theirs", defaultValue: 0)) == 2, "the write read the file again")
    }
}

@Suite("Failures reported from awkward places")
struct AwkwardFailureTests {
    @Test(.timeLimit(.minutes(10)))
    func aHandlerMayOpenAFileStoreWhileALoadFailureIsReported() throws {
        let folder = TemporaryDirectory()
        let corrupt = folder.file("corrupt.plist")
        try Data("not a property list".utf8).write(to: corrupt)
        let log = folder.file("log.plist")
        let logged = LockedValues<String>()
        PersistentKeyValueFailure.withTaskHandler({ failure in
            // A handler that logs to a file store: it must not deadlock on the store registry.
            let logStore = FileKeyValueStore(url: log)
            logStore.set(PersistentKey<String>("last", defaultValue: ""), to: failure.message)
            logged.append(failure.message)
        }) {
            _ = FileKeyValueStore(url: corrupt)
        }
        #expect(logged.values.count == 1)
        #expect(FileKeyValueStore(url: log).get(PersistentKey<String>("last", defaultValue: "")).contains("moved aside"))
    }

    /// In a child process: a suite whose file cannot be written fails every `synchronize()` of
    /// the process (Foundation synchronizes every changed suite at once), which would fail other
    /// tests' writes here.
    @Test func aFailedBackgroundSynchronizeIsReported() throws {
        let home = TemporaryDirectory()
        let environment = TestHelperExecutable.environment(configurationIn: home)
        let name = "keycatalog.tests.blocked.\(UUID().uuidString)"
        let child = try TestHelperExecutable.start(["defaults", name, "set-blocked", "n", "1"], environment: environment, capturingErrors: true)
        let output = String(decoding: (child.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: (child.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0 && output == "done\n", "\(output)\(errors)")
        let reports = errors.split(separator: "\n").filter { $0.contains(name) }
        #expect(reports.count == 1, "\(errors)")
        #expect(reports.first?.contains("synchronize() failed") == true, "\(errors)")
    }
}
