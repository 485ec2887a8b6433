import Foundation
import Testing

@testable import KeyCatalog

/// A child writes records of up to 9 KB to a file store as fast as it can and is SIGKILLed after a
/// random number of acknowledged writes, again and again on the same store: each key must then
/// hold its last acknowledged value, or the one write that was in flight, whole.
@Suite("File store: killed writers lose no acknowledged write")
struct FileStoreKillTests {
    /// `KEYCATALOG_KILL_ROUNDS` children (40 by default), each killed after 1 to 400 acknowledged
    /// writes (seeded), so that kills land in appends, in compactions and between them.
    @Test(.timeLimit(.minutes(10)))
    func everyAcknowledgedWriteSurvivesSIGKILL() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let rounds = ProcessInfo.processInfo.environment["KEYCATALOG_KILL_ROUNDS"].flatMap { Int($0) } ?? 40
        var generator = SeededGenerator(seed: 20_261_124)
        var acknowledged: [String: Int] = [:]
        var totalAcknowledged = 0
        for round in 0..<rounds {
            let first = round * 1_000_000
            let child = try TestHelperExecutable.start(["file", url.path, "write-records", "k", "\(first)"], capturingErrors: true)
            let output = (child.standardOutput as! Pipe).fileHandleForReading
            let killAfter = Int.random(in: 1...400, using: &generator)
            var received = Data()
            while received.count(where: { $0 == UInt8(ascii: "\n") }) < killAfter {
                let chunk = output.availableData
                if chunk.isEmpty { break }
                received.append(chunk)
            }
            kill(child.processIdentifier, SIGKILL)
            received.append(output.readDataToEndOfFile())
            let errors = String(decoding: (child.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            #expect(child.terminationReason == .uncaughtSignal, "round \(round): the child was killed")

            // Only whole lines were acknowledged.
            var lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
            if received.last != UInt8(ascii: "\n"), !lines.isEmpty { lines.removeLast() }
            var last = first - 1
            for line in lines {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let n = Int(parts[1]) else { continue }
                acknowledged[String(parts[0])] = n
                last = n
            }
            totalAcknowledged += lines.count
            #expect(lines.count >= killAfter, "round \(round)")
            // A previous child's write cut short is reported by the next writer, and only that.
            for line in errors.split(separator: "\n") {
                #expect(FileStoreOnDisk.isTornTailReport(line), "round \(round): \(line)")
            }

            let values = try FileStoreOnDisk.read(url)
            let inFlight = last + 1
            for (key, n) in acknowledged {
                let stored = values[key]
                let mayHaveLanded = key == "k.\(inFlight % 16)"
                #expect(
                    stored == Self.value(n) || (mayHaveLanded && stored == Self.value(inFlight)),
                    "round \(round): \(key) acknowledged \(n), holds \(Self.describe(stored))"
                )
            }
            if values["k.\(inFlight % 16)"] == Self.value(inFlight) { acknowledged["k.\(inFlight % 16)"] = inFlight }
        }
        #expect(totalAcknowledged >= rounds * 200 / 2, "thousands of writes: \(totalAcknowledged)")

        // The next writer, a fresh process, reports the last child's write cut short, if any, and
        // compacts; then a store opened here reads every acknowledged write, and reports nothing.
        for report in try FileStoreOnDisk.settleAfterKill(url) {
            #expect(FileStoreOnDisk.isTornTailReport(report), "\(report)")
        }
        let store = FileKeyValueStore(url: url)
        let recorder = FailureRecorder()
        for (key, n) in acknowledged {
            #expect(recorder.record { store.get(PersistentKey<[String]>(key, defaultValue: [])) } == helperRecord(n), "\(key)")
        }
        #expect(recorder.failures.isEmpty, "\(recorder.failures)")
    }

    /// What `write-records` stores for `n` (see `TestHelper.record(_:)`).
    static func value(_ n: Int) -> PropertyListValue {
        .array(helperRecord(n).map { .string($0) })
    }

    static func describe(_ value: PropertyListValue?) -> String {
        guard case .array(let elements)? = value else { return String(describing: value) }
        return elements.map { element in
            guard case .string(let string) = element else { return "\(element)" }
            return string.count > 12 ? "\(string.prefix(6))…(\(string.count))" : string
        }.joined(separator: ", ")
    }
}

/// `TestHelper.record(_:)`, rebuilt here (an executable's code cannot be imported).
func helperRecord(_ n: Int) -> [String] {
    let letter = Character(Unicode.Scalar(UInt8(97 + n % 26)))
    return [String(n), String(repeating: letter, count: n * 7919 % 9000), String(n)]
}
