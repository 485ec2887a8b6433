import Foundation
import KeyCatalog
import Testing

@Suite("Migrations: a real child process killed mid-migration on the file store")
struct KeyMigrationChildProcessTests {
    static let count = 120

    struct Kill: Sendable, CustomTestStringConvertible {
        enum Mode: String, Sendable { case move, rename }
        let mode: Mode
        /// After how many writes (or removals) of the child's it is killed: it stops itself right
        /// after that one (`--stop-after`), so the kill lands there however loaded the machine is.
        let afterWrites: Int
        /// Whether the rerun is the child again (to completion) rather than this process.
        let rerunInChild: Bool

        var testDescription: String { "\(mode), SIGKILL after \(afterWrites) writes, rerun in \(rerunInChild ? "a child" : "process")" }

        /// Points well inside the child's run (two writes a key, 240 in all, each key also made
        /// durable), so that every kill lands mid-migration: before the first write, between a
        /// key's write and its source's removal, and between keys.
        static let all: [Kill] = [
            Kill(mode: .move, afterWrites: 0, rerunInChild: false),
            Kill(mode: .move, afterWrites: 1, rerunInChild: true),
            Kill(mode: .move, afterWrites: 40, rerunInChild: false),
            Kill(mode: .move, afterWrites: 117, rerunInChild: true),
            Kill(mode: .rename, afterWrites: 61, rerunInChild: false),
        ]
    }

    static func old(_ index: Int) -> PropertyListValue { .string(String(index * 7)) }
    static func new(_ index: Int) -> PropertyListValue { .int(index * 7) }

    @Test("killed at any point and run again, the migration ends as an uninterrupted run, with no value lost", arguments: Kill.all)
    func killAndRerun(_ kill: Kill) throws {
        let directory = TemporaryDirectory()
        let from = directory.file("from.plist")
        let to = kill.mode == .move ? directory.file("to.plist") : from
        var seed = Dictionary(uniqueKeysWithValues: (0..<Self.count).map { ("old.\($0)", Self.old($0)) })
        seed["unrelated"] = .bool(true)
        try writeMigrationPropertyList(seed, to: from)
        let arguments =
            kill.mode == .move
            ? ["move", from.path, to.path, "\(Self.count)"]
            : ["rename", from.path, "\(Self.count)"]

        let child = try MigrationHelperExecutable.start(arguments + ["--stop-after", "\(kill.afterWrites)"])
        try Self.waitForLine(kill.afterWrites == 0 ? "started" : "wrote \(kill.afterWrites)", from: child)
        Foundation.kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal, "the child finished before it was killed")

        // What the killed child left on disk: every value at its new key or still at its old one.
        var moved = 0
        let fromAfterKill = try readMigrationPropertyList(from)
        let toAfterKill = try readMigrationPropertyList(to)
        for index in 0..<Self.count {
            let atKey = toAfterKill["new.\(index)"]
            let atSource = fromAfterKill["old.\(index)"]
            #expect(atKey == Self.new(index) || atSource == Self.old(index), "value \(index) lost")
            #expect(atKey == nil || atKey == Self.new(index))
            if atKey != nil { moved += 1 }
        }
        #expect(fromAfterKill["unrelated"] == .bool(true))

        if kill.rerunInChild {
            let rerun = try MigrationHelperExecutable.start(arguments)
            rerun.waitUntilExit()
            #expect(rerun.terminationReason == .exit && rerun.terminationStatus == 0)
        } else {
            // This process opens the files only now, so it reads what the child left.
            let fromStore = AnyPersistentKeyValueStore(FileKeyValueStore(url: from))
            let stores = ["from": fromStore, "to": kill.mode == .move ? AnyPersistentKeyValueStore(FileKeyValueStore(url: to)) : fromStore]
            let report = KeyMigrator.run(Self.migrations(), stores: { stores[$0] })
            #expect(report.failed.isEmpty)
            #expect(report.migrated.count == Self.count - moved + report.entries.filter { $0.outcome == .completedInterruptedMove }.count)
        }

        var expected = Dictionary(uniqueKeysWithValues: (0..<Self.count).map { ("new.\($0)", Self.new($0)) })
        if kill.mode == .move {
            #expect(try readMigrationPropertyList(from) == ["unrelated": .bool(true)])
        } else {
            expected["unrelated"] = .bool(true)
        }
        #expect(try readMigrationPropertyList(to) == expected)
    }

    /// The helper's table, rebuilt here (an executable's code cannot be imported).
    static func migrations() -> [KeyMigration] {
        (0..<count).map { index in
            KeyMigration(
                name: "value\(index)", key: PersistentKey<Int>("new.\(index)", defaultValue: -1), store: "to",
                sources: [
                    KeyMigrationSource(fromKey: "old.\(index)", store: "from", representation: String.persistentKeyValueRepresentation) { Int($0) }
                ])
        }
    }

    static func waitForLine(_ line: String, from process: Process) throws {
        let output = (process.standardOutput as! Pipe).fileHandleForReading
        var received = ""
        while !received.contains(line + "\n") {
            let data = output.availableData
            if data.isEmpty { throw PersistentKeyValueEncodingError("the helper exited before printing '\(line)'") }
            received += String(decoding: data, as: UTF8.self)
        }
    }
}
