import Foundation
import KeyCatalog
import Testing

/// Several processes writing one file store at once, some killed mid-run; exact round trips
/// through a fresh process; `$HOME`; damage that stays local to one entry.
@Suite("File store: many processes, exact values, one home, local damage")
struct FileStoreMultiProcessTests {
    let folder = TemporaryDirectory()

    /// What one writer child acknowledged: the value of each key after its last returned `set`,
    /// and the number of its last returned write.
    private struct Acknowledged {
        var values: [String: Int] = [:]
        var lastWrite = 0
        var errors = ""
    }

    private static func lines(_ data: Data) -> [Substring] {
        // A killed child may leave a partial last line: only whole lines count.
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        if !text.hasSuffix("\n"), !lines.isEmpty { lines.removeLast() }
        return lines
    }

    private static func acknowledged(_ output: Data, errors: Data) -> Acknowledged {
        var result = Acknowledged(errors: String(decoding: errors, as: UTF8.self))
        for line in lines(output) {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let n = Int(parts[1]) else { continue }
            result.values[String(parts[0])] = n
            result.lastWrite = max(result.lastWrite, n)
        }
        return result
    }

    /// Five children write 8 keys each of one file, 3,000 writes per child (or
    /// `KEYCATALOG_STRESS_WRITES`, for a longer run); two more write until they are SIGKILLed, once
    /// they have acknowledged 60 writes. Every acknowledged write is in the final file. The journal
    /// outgrows the list several times over, so compactions run while other processes write.
    @Test(.timeLimit(.minutes(30)))
    func writersInSeveralProcessesLoseNoWrite() throws {
        let url = folder.file("shared.plist")
        let path = url.path
        let writers = 5
        let writesPerChild = ProcessInfo.processInfo.environment["KEYCATALOG_STRESS_WRITES"].flatMap { Int($0) } ?? 3000
        let victims: Set<Int> = [1, 3]
        let children = try (0..<writers).map { index in
            // A victim writes until it is killed: a write costs microseconds, so any count it could
            // reach would let it finish before the kill.
            let count = victims.contains(index) ? Int(Int32.max) : writesPerChild
            return try TestHelperExecutable.start(["file", path, "write-many", "child\(index)", "\(count)"], capturingErrors: true)
        }
        var outputs = [Data](repeating: Data(), count: writers)
        for victim in victims.sorted() {
            let output = (children[victim].standardOutput as! Pipe).fileHandleForReading
            while Self.lines(outputs[victim]).count < 60 {
                let chunk = output.availableData
                if chunk.isEmpty { break }
                outputs[victim].append(chunk)
            }
            kill(children[victim].processIdentifier, SIGKILL)
        }
        var errors = [Data](repeating: Data(), count: writers)
        for (index, child) in children.enumerated() {
            outputs[index].append((child.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile())
            errors[index] = (child.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
            child.waitUntilExit()
        }

        // The next writer after the kills, a fresh process: it reports a victim's write cut short
        // that no other writer found, and compacts, so that the store opened below has nothing to
        // report from its background compaction.
        let settleReports = try FileStoreOnDisk.settleAfterKill(url)
        let recorder = FailureRecorder()
        let final = try recorder.record { try FileStoreOnDisk.read(url) }
        var acknowledgedWrites = 0
        var tornTailReports = settleReports.filter(FileStoreOnDisk.isTornTailReport).count
        #expect(tornTailReports == settleReports.count, "\(settleReports)")
        for index in 0..<writers {
            let child = children[index]
            let acknowledged = Self.acknowledged(outputs[index], errors: errors[index])
            acknowledgedWrites += Self.lines(outputs[index]).count
            // A victim killed inside its append may leave a torn record (the kernel cuts a write
            // short at a page boundary for a fatal signal); whoever opens the journal next reports
            // it, moves it aside and cuts it off. That report is expected, and nothing else.
            let reports = acknowledged.errors.split(separator: "\n")
            let tornTails = reports.filter(FileStoreOnDisk.isTornTailReport)
            tornTailReports += tornTails.count
            #expect(reports.count == tornTails.count, "child \(index): \(acknowledged.errors.prefix(500))")
            if victims.contains(index) {
                #expect(child.terminationReason == .uncaughtSignal, "child \(index) was killed")
                #expect(acknowledged.lastWrite >= 60, "child \(index) was killed mid-run")
                // The write after the last acknowledged one may have landed before the kill.
                let unacknowledged = acknowledged.lastWrite + 1
                for (key, value) in acknowledged.values {
                    let stored = final[key]
                    let mayHaveLanded = key == "child\(index).\(unacknowledged % 8)"
                    #expect(stored == .int(value) || (mayHaveLanded && stored == .int(unacknowledged)), "\(key): \(String(describing: stored)), acknowledged \(value)")
                }
            } else {
                #expect(child.terminationStatus == 0)
                #expect(acknowledged.lastWrite == writesPerChild, "child \(index) finished")
                for (key, value) in acknowledged.values {
                    #expect(final[key] == .int(value), "\(key): \(String(describing: final[key])), acknowledged \(value)")
                }
            }
        }
        #expect(acknowledgedWrites >= 3 * writesPerChild + 2 * 60)
        #expect(tornTailReports <= victims.count, "one torn record at most per killed writer")
        // This process's view agrees with the file.
        let store = FileKeyValueStore(url: url)
        #expect(recorder.record { store.storedValues } == final)
        #expect(recorder.failures.isEmpty, "\(recorder.failures)")
    }

    /// Strings XML would change: a leading U+FEFF in a value and in a storage key, and a value
    /// and key with control characters where only a key can hold them.
    @Test(arguments: [
        ("\u{FEFF}bom-first", "Plain"),
        ("plain", "\u{FEFF}BomKey"),
        ("\u{FEFF}", "\u{FEFF}"),
        ("tab\tnew\nline\r\nend", "Key\u{1}With\u{7F}Controls"),
    ])
    func stringsRoundTripExactlyThroughAFreshProcess(value: String, key: String) throws {
        let url = folder.file("exact.plist")
        let recorder = FailureRecorder()
        recorder.record { FileKeyValueStore(url: url).set(PersistentKey<String>(key, defaultValue: ""), to: value) }
        #expect(recorder.failures.isEmpty, "\(recorder.failures)")

        let reader = try TestHelperExecutable.run(["file", url.path, "get-scalars", Self.scalars(key)])
        #expect(reader.status == 0)
        #expect(reader.output == Self.scalars(value) + "\n", "read back in a fresh process")
        #expect(try FileStoreOnDisk.read(url) == [key: .string(value)])
    }

    private static func scalars(_ string: String) -> String {
        string.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ".")
    }

    private static let xmlWithOneBadEntry = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>good</key>
        \t<integer>1</integer>
        \t<key>huge</key>
        \t<integer>99999999999999999999999</integer>
        \t<!-- a comment -->
        \t<key>list</key>
        \t<array><string>a &lt; b</string><dict><key>n</key><true/></dict></array>
        </dict>
        </plist>
        """

    @Test func oneUnreadableEntryKeepsTheOthersAndIsKeptInTheFile() throws {
        let url = folder.file("damaged.plist")
        try Data(Self.xmlWithOneBadEntry.utf8).write(to: url)
        let recorder = FailureRecorder()
        let store = recorder.record { FileKeyValueStore(url: url) }
        #expect(recorder.failures.count == 1)
        let failure = try #require(recorder.failures.first)
        #expect(failure.operation == .load)
        #expect(failure.message.contains("'huge'") && failure.message.contains("Integer overflow"), "\(failure.message)")
        #expect(!failure.message.contains("moved aside"))

        #expect(store.get(PersistentKey<Int>("good", defaultValue: 0)) == 1)
        #expect(store.persistentValue(forKey: "list") == .array([.string("a < b"), .dictionary(["n": .bool(true)])]))
        #expect(store.get(PersistentKey<Int>("huge", defaultValue: -1)) == -1, "the default")
        #expect(store.contains(PersistentKey<Int>("huge", defaultValue: -1)), "still stored")

        // A write keeps the bad entry, verbatim.
        recorder.record { store.set(PersistentKey<Int>("good", defaultValue: 0), to: 2) }
        try store.compact()
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(text.contains("<key>huge</key>\n\t<integer>99999999999999999999999</integer>"), "\(text)")
        let folderNames = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(!folderNames.contains { $0.contains("corrupt") }, "nothing moved aside")
        // A fresh process reads the good values, and reports the bad entry too.
        let reader = try TestHelperExecutable.start(["file", url.path, "get", "good"], capturingErrors: true)
        let output = (reader.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
        let errors = (reader.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
        reader.waitUntilExit()
        #expect(String(decoding: output, as: UTF8.self) == "2\n")
        #expect(String(decoding: errors, as: UTF8.self).contains("'huge'"))

        // While the file must stay XML, a string XML would change is refused, not altered.
        recorder.record { store.set(PersistentKey<String>("s", defaultValue: ""), to: "\u{FEFF}x") }
        #expect(recorder.failures.count == 2)
        #expect(recorder.failures.last?.operation == .write)
        #expect(recorder.failures.last?.message.contains("leading U+FEFF") == true, "\(recorder.failures)")
        #expect(store.get(PersistentKey<String>("s", defaultValue: "none")) == "none")

        // Writing the bad key replaces the entry; the file becomes binary again.
        recorder.record {
            store.set(PersistentKey<Int>("huge", defaultValue: 0), to: 3)
            store.set(PersistentKey<String>("s", defaultValue: ""), to: "\u{FEFF}x")
        }
        #expect(recorder.failures.count == 2)
        try store.compact()
        #expect(try Data(contentsOf: url).starts(with: Data("bplist".utf8)))
        #expect(
            try StoreFixture.readPropertyListFile(url) == [
                "good": .int(2), "huge": .int(3), "s": .string("\u{FEFF}x"),
                "list": .array([.string("a < b"), .dictionary(["n": .bool(true)])]),
            ])
    }

    /// `HOME` set for a child process (the environment is process-wide): `~/` file stores, relative
    /// file stores and the keychain's fallback all live under it.
    @Test func homeIsHonouredEverywhere() throws {
        let home = folder.file("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        for name in ["XDG_DATA_HOME", "XDG_CONFIG_HOME"] { environment[name] = nil }
        let child = try TestHelperExecutable.run(["home", "keycatalog-home-test"], environment: environment)
        #expect(child.status == 0)
        let homePath = home.path
        #expect(child.output.split(separator: "\n").allSatisfy { $0.contains(homePath) }, "\(child.output)")
        var files = ["home.plist", ".local/share/relative.plist"]
        #if !canImport(Security)
        files.append(".local/share/keycatalog/keychain/keycatalog-home-test.plist")  // the keychain's stand-in
        #endif
        for file in files {
            #expect(try FileStoreOnDisk.read(home.appendingPathComponent(file)) == ["Home": .int(1)], "\(file)")
        }
    }
}
