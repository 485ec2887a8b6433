import Foundation
import Observation
import Testing

@testable import KeyCatalog

/// Each rule of the iCloud sync contract (README, "Set up iCloud sync"), on a simulated fleet.
@Suite("iCloud sync: the contract, rule by rule")
struct SyncContractTests {
    typealias K = SyncKeys

    // MARK: First launch

    @Test("first launch pushes nothing before iCloud's values arrive, then iCloud wins over provisional and stale local values")
    func firstLaunchNeverOverwritesTheCloud() {
        let cloud = SimulatedCloud()
        let clock = ManualClock()
        let a = cloud.makeDevice("A", clock: clock.reading())
        cloud.deliverAll()
        a.store.set(K.theme, to: "dark")
        a.store.set(K.fontSize, to: 18)
        cloud.deliverAll()

        // B: an app update that starts syncing; its suite holds a value from before (stale), and
        // it writes while iCloud's initial download is delayed.
        let suite = TemporarySuite()
        suite.defaults.set("sepia", forKey: "Theme")
        suite.defaults.set(3.0, forKey: "Note")
        clock.advance(by: 1000)
        let b = cloud.makeDevice("B", local: suite.defaults, clock: clock.reading())
        b.store.set(K.fontSize, to: 30)  // provisional: iCloud holds FontSize
        b.store.set(K.volume, to: 0.9)  // provisional: iCloud has no Volume
        #expect(b.get(K.fontSize) == 30, "provisional writes are local and visible")
        #expect(!b.engine.isSyncing)
        #expect(cloud.pending.allSatisfy { if case .upload = $0 { false } else { true } }, "nothing pushed before the initial sync")

        cloud.deliverAll()
        #expect(cloud.uploadsBeforeInitialSync.isEmpty)
        #expect(b.engine.isSyncing)
        #expect(b.get(K.theme) == "dark", "iCloud's value beats the stale local one")
        #expect(b.get(K.fontSize) == 18, "iCloud's value beats the provisional write")
        #expect(b.get(K.volume) == 0.9, "a provisional write to a key iCloud lacks is pushed")
        #expect(a.get(K.volume) == 0.9)
        #expect(a.get(K.theme) == "dark" && a.get(K.fontSize) == 18, "A's values were not overwritten")
        #expect(cloud.server()["kc:LocalOnly"] == nil)
        // Note held a Double although the key is a String?: iCloud had no Note, so the stale
        // value was offered with the oldest stamp; the key reads its default (reported) anywhere.
        #expect(b.stamp("Note")?.time == 0)
    }

    /// A store that announces each write before the write returns, as UserDefaults' Key-Value
    /// Observing does on Apple platforms.
    final class AnnouncingStore: PersistentKeyValueStore, @unchecked Sendable {
        let base = InMemoryKeyValueStore()
        let keyValueChanges = KeyValueChangeCenter()
        var persistentStoreDescription: String { "announcing store" }
        func persistentValue(forKey key: String) -> PropertyListValue? { base.persistentValue(forKey: key) }
        func hasPersistentValue(forKey key: String) -> Bool { base.hasPersistentValue(forKey: key) }
        func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
            base.setPersistentValue(value, forKey: key)
            keyValueChanges.postCurrentValue(forKey: key, in: self)
        }
        func removePersistentValue(forKey key: String) throws {
            base.removePersistentValue(forKey: key)
            keyValueChanges.postCurrentValue(forKey: key, in: self)
        }
        func registerPersistentValues(_ values: [String: PropertyListValue]) { base.registerPersistentValues(values) }
        func flushPersistentValues() throws {}
    }

    @Test("an observer called while the engine writes the local store may write a synced key")
    func anObserverCalledDuringTheEnginesWriteMayWriteASyncedKey() {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A", local: AnnouncingStore())
        let b = cloud.makeDevice("B")
        cloud.deliverAll()
        // Font sizes over 30 are brought back to 30 as soon as they are stored: the engine's own
        // write of the local store calls this, under the engine's lock without the hold.
        let store = a.store
        let observation = store.observe(K.fontSize) { size in
            if size > 30 { store.set(K.fontSize, to: 30) }
        }
        defer { observation.cancel() }
        a.store.set(K.fontSize, to: 40)
        #expect(a.get(K.fontSize) == 30)
        // iCloud's value, applied by the engine.
        b.store.set(K.fontSize, to: 50)
        cloud.deliverAll()
        #expect(a.get(K.fontSize) == 30)
        cloud.deliverAll()
        #expect(b.get(K.fontSize) == 30, "the value brought back is synced")
    }

    /// iCloud announces no initial download for an account that holds nothing: without a bound on
    /// the wait, every device of a new account would wait for another forever.
    @Test("on an account that holds nothing, devices start syncing once the initial-sync wait is over")
    func anEmptyAccountStartsSyncingAfterTheWait() async throws {
        let cloud = SimulatedCloud(announcesEmptyInitialSync: false)
        // The engine times its wait with Dispatch, not with the clock it stamps from: A first runs
        // with a wait far longer than the test, so the write is surely made, and checked, during it.
        var first: FleetDevice! = cloud.makeDevice("A", initialSyncTimeout: 3600)
        cloud.deliverAll()
        first.store.set(K.theme, to: "dark")
        cloud.deliverAll()
        #expect(!first.engine.isSyncing)
        #expect(cloud.server().isEmpty, "nothing is pushed during the wait")
        // Then A is launched again with a short wait: the write, held, is pushed once it is over.
        let (backend, local) = (first.backend, first.local)
        first = nil
        let a = cloud.relaunch("A", backend: backend, local: local, initialSyncTimeout: 0.05)
        let deadline = Date().addingTimeInterval(30)
        while !a.engine.isSyncing && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(a.engine.isSyncing)
        cloud.deliverAll()
        #expect(UbiquitousSyncEnvelope(cloud.server()["kc:Theme"])?.value == .string("dark"), "the write made during the wait is pushed")
        let b = cloud.makeDevice("B")
        cloud.deliverAll()
        #expect(b.get(K.theme) == "dark")

        // Without the bound, A would still wait.
        let waiting = SimulatedCloud(announcesEmptyInitialSync: false)
        let c = waiting.makeDevice("C")
        waiting.deliverAll()
        c.store.set(K.theme, to: "dark")
        try await Task.sleep(for: .milliseconds(100))
        waiting.deliverAll()
        #expect(!c.engine.isSyncing && waiting.server().isEmpty)
    }

    @Test("a value a migration moves into a synced key loses to any write made anywhere, and is pushed where iCloud has none")
    func migratedValuesTakeTheOldestStamp() {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A")
        let legacy = InMemoryKeyValueStore(["OldTheme": .string("sepia"), "OldSize": .int(20)])
        let b = cloud.makeDevice("B", local: legacy)
        cloud.deliverAll()
        // A writes while B is offline; then B's new version migrates its old keys.
        cloud.setOnline(b.backend, false)
        a.store.set(K.theme, to: "dark")
        cloud.deliverAll()
        let migrations = [
            KeyMigration(name: "theme", key: K.theme, store: "local", sources: [KeyMigrationSource(fromKey: "OldTheme", store: "local", representationOf: K.theme)]),
            KeyMigration(name: "fontSize", key: K.fontSize, store: "local", sources: [KeyMigrationSource(fromKey: "OldSize", store: "local", representationOf: K.fontSize)]),
        ]
        let report = KeyMigrator.run(migrations) { $0 == "local" ? b.store : nil }
        #expect(report.entries.map(\.outcome) == [.migrated, .migrated])
        #expect(b.stamp("Theme")?.time == 0 && b.stamp("FontSize")?.time == 0)
        cloud.setOnline(b.backend, true)
        cloud.deliverAll()
        #expect(a.get(K.theme) == "dark" && b.get(K.theme) == "dark", "A's write beats the migrated value")
        #expect(a.get(K.fontSize) == 20 && b.get(K.fontSize) == 20, "iCloud had no FontSize: the migrated value is pushed")
        #expect(legacy.storedValues["OldTheme"] == nil && legacy.storedValues["OldSize"] == nil)
    }

    /// The Migrations article's promise, with sync: a run killed at any point and run again ends
    /// as an uninterrupted run would. Killed right after the migration wrote the key's local value,
    /// the next launch took that value for a local write made after its saved stamp (a removal),
    /// stamped it just after, and pushed it over the removal on every device (found by a review).
    /// The engine now notes the value's oldest stamp, saved before the write: the migrator's order
    /// is checked at its write; the killed run replays the steps before that point, then relaunches.
    @Test("a migration into a synced key, killed right after its write, ends as an uninterrupted run would")
    func aMigrationKilledAfterItsWriteEndsAsAnUninterruptedRun() throws {
        let migration = KeyMigration(
            name: "theme", key: K.theme, store: "local", sources: [KeyMigrationSource(fromKey: "OldTheme", store: "local", representationOf: K.theme)])
        func run(killedAfterTheWrite: Bool) throws -> [String] {
            let cloud = SimulatedCloud()
            let clock = ManualClock()
            let a = cloud.makeDevice("A", clock: clock.reading())
            let local = WriteWatchingStore(InMemoryKeyValueStore(["OldTheme": .string("sepia")]))
            var b: FleetDevice! = cloud.makeDevice("B", local: local, clock: clock.reading(), keys: ["Theme"])
            cloud.deliverAll()
            // The person sets Theme, then removes it: iCloud holds the removal.
            for change in [{ b.store.set(K.theme, to: "dark") }, { b.store.remove(K.theme) }] {
                clock.advance(by: 1000)
                change()
                cloud.deliverAll()
            }
            clock.advance(by: 1000)
            guard killedAfterTheWrite else {
                // What the engine has saved for the key as the migrator writes it: the oldest stamp.
                var stampAtWrite: Int64?
                local.willWrite = { key in if key == "Theme" { stampAtWrite = b.stamp("Theme")?.time } }
                _ = KeyMigrator.run([migration]) { $0 == "local" ? b.store : nil }
                #expect(stampAtWrite == 0)
                cloud.deliverAll()
                return [a.get(K.theme), b.get(K.theme), "\(local.persistentValue(forKey: "OldTheme").map { "\($0)" } ?? "gone")"]
            }
            // The migrator's steps up to its write, then the process dies (its engine goes with it);
            // then the next launch.
            b.engine.prepareMigratedValue(.string("sepia"), forKey: "Theme", in: local)
            try local.setPersistentValue(.string("sepia"), forKey: "Theme")
            let backend = b.backend
            b = nil
            let relaunched = cloud.relaunch("B", backend: backend, local: local, clock: clock.reading(), keys: ["Theme"])
            _ = KeyMigrator.run([migration]) { $0 == "local" ? relaunched.store : nil }
            cloud.deliverAll()
            return [a.get(K.theme), relaunched.get(K.theme), "\(local.persistentValue(forKey: "OldTheme").map { "\($0)" } ?? "gone")"]
        }
        let uninterrupted = try run(killedAfterTheWrite: false)
        #expect(uninterrupted == ["light", "light", "gone"], "the removal, newer, wins over the migrated value")
        #expect(try run(killedAfterTheWrite: true) == uninterrupted)
    }

    @Test("a move whose source's removal reported a failure, the source gone, is a move: oldest stamp, pushed where iCloud has none")
    func aMoveWhoseSourceRemovalReportedAFailureIsAMove() {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A")
        let b = cloud.makeDevice("B")
        cloud.deliverAll()
        // B's new version migrates OldTheme, whose store removes it, then throws.
        let legacy = FailingStore(
            InMemoryKeyValueStore(["OldTheme": .string("sepia")]), name: "legacy",
            counter: FailingStore.Counter(failAt: 1, injection: FailingStore.Injection(timing: .after, crash: false)))
        let migration = KeyMigration(
            name: "theme", key: K.theme, store: "local", sources: [KeyMigrationSource(fromKey: "OldTheme", store: "legacy", representationOf: K.theme)])
        let failures = FailureRecorder()
        let report = failures.record {
            KeyMigrator.run([migration]) { name in
                switch name {
                case "local": b.store
                case "legacy": legacy
                default: nil
                }
            }
        }
        #expect(failures.failures.map(\.operation) == [.migrate], "the store's failure is reported")
        #expect(failures.failures.first?.message.contains("the source is gone and the key keeps the value") == true)
        #expect(report.migrated.map(\.fromKey) == ["OldTheme"] && report.failed.isEmpty, "the value moved")
        #expect(legacy.base.persistentValue(forKey: "OldTheme") == nil && b.get(K.theme) == "sepia")
        #expect(b.stamp("Theme")?.time == 0, "a migrated value loses to any write made anywhere")
        cloud.deliverAll()
        #expect(a.get(K.theme) == "sepia", "iCloud had no Theme: the migrated value is pushed")
    }

    /// Found by a review of the migrator's waits: a move into a synced key that was taken back
    /// (its source could not be removed) left the oldest stamp the engine noted before the write,
    /// for a key that then held nothing. The next launch took the empty key for a write made after
    /// that stamp, pushed a removal stamped just after it, and when the retried move went through
    /// (the source removed), that removal was newer than the moved value and removed it: the value
    /// was nowhere.
    @Test("a move into a synced key taken back and moved again at the next launch keeps the value")
    func aTakenBackMoveIntoASyncedKeyIsKeptWhenMovedAgain() {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A")
        let local = InMemoryKeyValueStore()
        var b: FleetDevice! = cloud.makeDevice("B", local: local)
        cloud.deliverAll()
        let legacy = InMemoryKeyValueStore(["OldTheme": .string("sepia")])
        let migration = KeyMigration(
            name: "theme", key: K.theme, store: "local", sources: [KeyMigrationSource(fromKey: "OldTheme", store: "legacy", representationOf: K.theme)])
        func run(on device: FleetDevice, legacy: any PersistentKeyValueStore) -> KeyMigrationReport {
            FailureRecorder().record {
                KeyMigrator.run([migration]) { name in
                    switch name {
                    case "local": device.store
                    case "legacy": legacy
                    default: nil
                    }
                }
            }
        }
        // The first run cannot remove the source (it throws before removing): the move is taken back.
        let failingLegacy = FailingStore(legacy, name: "legacy", counter: FailingStore.Counter(failAt: 1))
        let first = run(on: b, legacy: failingLegacy)
        #expect(first.failed.map(\.fromKey) == ["OldTheme"] && first.migrated.isEmpty)
        #expect(local.persistentValue(forKey: "Theme") == nil && legacy.persistentValue(forKey: "OldTheme") == .string("sepia"))
        cloud.deliverAll()

        // The next launch moves it.
        let backend = b.backend
        b = nil
        let relaunched = cloud.relaunch("B", backend: backend, local: local)
        cloud.deliverAll()
        let second = run(on: relaunched, legacy: legacy)
        #expect(second.migrated.map(\.fromKey) == ["OldTheme"], "\(second.entries)")
        cloud.deliverAll()
        #expect(relaunched.get(K.theme) == "sepia", "the moved value stays in the key")
        #expect(a.get(K.theme) == "sepia", "and is pushed: iCloud had no Theme")
    }

    /// The local value is written before its stamp is saved: a process that ends between the two
    /// leaves a new value under the old stamp, which iCloud's older value (same stamp) once beat.
    @Test("a value written just before the process ended, its stamp unsaved, is stamped at the next launch and wins")
    func aValueWhoseStampWasNotSavedIsStampedAtTheNextLaunch() {
        let cloud = SimulatedCloud()
        let clock = ManualClock()
        let local = InMemoryKeyValueStore()
        let a = cloud.makeDevice("A", local: local, clock: clock.reading())
        let b = cloud.makeDevice("B", clock: clock.reading())
        cloud.deliverAll()
        a.store.set(K.theme, to: "dark")
        cloud.deliverAll()
        // The app writes "apple", and ends before the stamp of that write is saved.
        local.setPersistentValue(.string("apple"), forKey: "Theme")
        clock.advance(by: 1000)
        let relaunched = cloud.relaunch("A", backend: a.backend, local: local, clock: clock.reading())
        cloud.deliverAll()
        #expect(relaunched.get(K.theme) == "apple" && b.get(K.theme) == "apple")
        #expect(relaunched.stamp("Theme")?.time == 1_800_000_000_001, "just after the saved stamp")
        // An unchanged value is not stamped again at a launch.
        let again = cloud.relaunch("A", backend: a.backend, local: local, clock: clock.reading())
        #expect(again.stamp("Theme") == relaunched.stamp("Theme"))
    }

    @Test("after the initial-sync wait, a late download is still iCloud's initial download: its values win over writes made before it")
    func aLateDownloadAfterTheWaitStillWins() async throws {
        let cloud = SimulatedCloud(dropsUploadsBeforeInitialSync: true)
        let clock = ManualClock()
        let b = cloud.makeDevice("B", clock: clock.reading())
        cloud.deliverAll()
        b.store.set(K.theme, to: "dark")
        cloud.deliverAll()
        // A signs in; its download is late, and it writes meanwhile, later than B did.
        clock.advance(by: 1000)
        let a = cloud.makeDevice("A", clock: clock.reading(), initialSyncTimeout: 0.05)
        a.store.set(K.theme, to: "sepia")
        let deadline = Date().addingTimeInterval(30)
        while !a.engine.isSyncing && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(a.engine.isSyncing, "the wait is over: A pushes")
        cloud.deliverAll()
        #expect(a.get(K.theme) == "dark" && b.get(K.theme) == "dark", "the late download took the place of A's provisional write")
        #expect(UbiquitousSyncEnvelope(cloud.server()["kc:Theme"])?.value == .string("dark"))
    }

    /// Devices of `ids` on an account that holds nothing (iCloud announces no download), each
    /// past its initial-sync wait (0.05 s), on `clock` (plus its skew in ms, if any).
    func devicesPastTheInitialSyncWait(
        _ ids: [String], in cloud: SimulatedCloud, clock: ManualClock, skews: [String: Int64] = [:]
    ) async throws -> [FleetDevice] {
        let devices = ids.map { cloud.makeDevice($0, clock: clock.reading(skew: skews[$0] ?? 0), initialSyncTimeout: 0.05) }
        // Their initial downloads: the account is empty, and nothing is announced.
        cloud.deliverAll()
        let deadline = Date().addingTimeInterval(30)
        while !devices.allSatisfy({ $0.engine.isSyncing }) && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(devices.allSatisfy { $0.engine.isSyncing }, "the wait is over: all push")
        return devices
    }

    /// A provisional write pushed after the wait may reach iCloud, and other devices, after the
    /// value iCloud sends as its first word: the device that takes iCloud's value in its place
    /// pushes it again, so every device ends on it (found by a review: A kept B's value while B
    /// and iCloud kept A's, for good).
    @Test("devices that both pushed after the initial-sync wait end on one value")
    func devicesThatPushedAfterTheWaitConverge() async throws {
        let cloud = SimulatedCloud(announcesEmptyInitialSync: false)
        let clock = ManualClock()
        let devices = try await devicesPastTheInitialSyncWait(["A", "B"], in: cloud, clock: clock)
        let (a, b) = (devices[0], devices[1])
        b.store.set(K.theme, to: "from B")
        // B's upload reaches iCloud, and its download to A is queued; then A writes, later.
        cloud.deliver(at: 0)
        clock.advance(by: 1000)
        a.store.set(K.theme, to: "from A")
        cloud.deliverAll()
        let server = UbiquitousSyncEnvelope(cloud.server()["kc:Theme"])?.value
        #expect(a.get(K.theme) == b.get(K.theme), "the devices converge")
        #expect(server == .string(a.get(K.theme)), "on iCloud's value")
        #expect(a.get(K.theme) == "from B", "iCloud's first word to A wins over A's provisional write")
    }

    /// The value pushed again is stamped just after the provisional write it replaces: a write
    /// another device made after that one still wins (found by a review: stamped with the time of
    /// the first word, the old value beat it everywhere).
    @Test("the value pushed again at a first word does not beat a later write")
    func theValuePushedAgainDoesNotBeatALaterWrite() async throws {
        let cloud = SimulatedCloud(announcesEmptyInitialSync: false)
        let clock = ManualClock()
        let devices = try await devicesPastTheInitialSyncWait(["A", "B", "C"], in: cloud, clock: clock)
        let (a, b, c) = (devices[0], devices[1], devices[2])
        b.store.set(K.theme, to: "from B")
        cloud.deliverFirst { if case .upload = $0 { true } else { false } }
        clock.advance(by: 1000)
        a.store.set(K.theme, to: "from A")
        // C hears B's write, then writes, later than A.
        cloud.deliverFirst { if case .download(2, _, _) = $0 { true } else { false } }
        clock.advance(by: 1000)
        c.store.set(K.theme, to: "from C")
        clock.advance(by: 1000)
        // A's first word: B's value, older than A's own.
        cloud.deliverFirst { if case .download(0, _, _) = $0 { true } else { false } }
        cloud.deliverAll()
        #expect([a, b, c].map { $0.get(K.theme) } == ["from C", "from C", "from C"])
        #expect(UbiquitousSyncEnvelope(cloud.server()["kc:Theme"])?.value == .string("from C"))
    }

    /// Nor one stamped just after it, by a device whose clock is behind (the hybrid clock gives it
    /// the provisional write's time plus one): found by a review, where a tie of times was broken
    /// by the device identifiers, and the older value won half the time.
    @Test("the value pushed again does not beat a later write stamped just after the provisional one")
    func theValuePushedAgainDoesNotBeatALaterWriteOfTheNextMillisecond() async throws {
        let cloud = SimulatedCloud(announcesEmptyInitialSync: false)
        let clock = ManualClock()
        let devices = try await devicesPastTheInitialSyncWait(["Z", "B", "A"], in: cloud, clock: clock, skews: ["A": -500])
        let (z, b, a) = (devices[0], devices[1], devices[2])
        b.store.set(K.theme, to: "from B")
        cloud.deliverFirst { if case .upload(1, _, _, _) = $0 { true } else { false } }
        clock.advance(by: 1000)
        z.store.set(K.theme, to: "from Z")
        cloud.deliverFirst { if case .upload(0, _, _, _) = $0 { true } else { false } }
        // A hears B's write, then Z's; then it writes, its clock 500 ms behind.
        cloud.deliverFirst { if case .download(2, _, _) = $0 { true } else { false } }
        cloud.deliverFirst { if case .download(2, _, _) = $0 { true } else { false } }
        clock.advance(by: 100)
        a.store.set(K.theme, to: "from A")
        #expect(a.stamp("Theme")?.time == z.stamp("Theme").map { $0.time + 1 }, "the next millisecond")
        clock.advance(by: 1000)
        // Z's first word: B's value, older than Z's own.
        cloud.deliverFirst { if case .download(0, _, _) = $0 { true } else { false } }
        cloud.deliverAll()
        #expect([z, b, a].map { $0.get(K.theme) } == ["from A", "from A", "from A"])
    }

    /// A file store's entry that cannot be read reads as the registered default, or as nothing:
    /// neither is what the store holds, so neither is pushed, not a default nor a removal (found by
    /// a review: the default went to iCloud, and every device stored it).
    @Test("an unreadable entry of a file store is not pushed as its default or as a removal", arguments: [true, false])
    func anUnreadableEntryIsNotPushed(registersDefault: Bool) throws {
        let folder = TemporaryDirectory()
        let url = folder.file("settings.plist")
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>Theme</key><integer>99999999999999999999999</integer><key>FontSize</key><integer>3</integer></dict></plist>
            """
        try Data(xml.utf8).write(to: url)
        let failures = FailureRecorder()
        let file = failures.record { FileKeyValueStore(url: url) }
        if registersDefault { file.register(K.theme) }
        #expect(file.hasPersistentValue(forKey: "Theme"))
        let cloud = SimulatedCloud()
        let a = failures.record { cloud.makeDevice("A", local: file) }
        let b = cloud.makeDevice("B")
        failures.record { cloud.deliverAll() }
        #expect(UbiquitousSyncEnvelope(cloud.server()["kc:FontSize"])?.value == .int(3), "the readable value is pushed")
        #expect(cloud.server()["kc:Theme"] == nil)
        #expect(!b.local.hasPersistentValue(forKey: "Theme"))
        #expect(try String(contentsOf: url, encoding: .utf8).contains("99999999999999999999999"), "the entry stays in the file")
        withExtendedLifetime(a) {}
    }

    @Test("a default is never pushed, and a value stored before syncing is offered with the oldest stamp")
    func defaultsAreNeverPushedAndStaleValuesLoseToAnyWrite() {
        let cloud = SimulatedCloud()
        let legacy = InMemoryKeyValueStore(["Theme": .string("sepia")])
        let a = cloud.makeDevice("A", local: legacy)
        let b = cloud.makeDevice("B")
        cloud.deliverAll()
        #expect(Set(cloud.server().keys) == ["kc:Theme"], "only the stored value, no default")
        #expect(b.get(K.theme) == "sepia")
        #expect(a.stamp("Theme") == UbiquitousSyncStamp(time: 0, device: "A"))
        b.store.set(K.theme, to: "dark")
        cloud.deliverAll()
        #expect(a.get(K.theme) == "dark")
    }

    /// Where a launch argument is read beneath: `standard` on Linux only (see below).
    static var launchArgumentStores: [String] {
        #if canImport(Darwin)
        ["suite"]
        #else
        ["suite", "standard"]
        #endif
    }

    /// In a child process launched with `-Theme argument`: the argument domain is process-wide.
    /// (`standard` on Linux only: on Apple platforms a helper without a bundle identifier has no
    /// standard domain name to read beneath the argument.)
    @Test(
        "a launch argument overriding a synced key is never pushed, and hides neither local writes nor iCloud's values",
        arguments: Self.launchArgumentStores)
    func launchArgumentsAreNotValues(_ store: String) throws {
        let home = TemporaryDirectory()
        let suite = store == "standard" ? "standard" : "keycatalog.tests.sync-arguments.\(UUID().uuidString)"
        let child = try TestHelperExecutable.run(
            ["defaults", suite, "sync-under-argument", "Theme", "-Theme", "argument"],
            environment: TestHelperExecutable.environment(configurationIn: home), capturingErrors: true)
        #expect(child.status == 0)
        #expect(child.output == "first stored\npushed written read argument\napplied argument\n")
        #expect(child.errors == "", "nothing reported")
    }

    /// The same through a `UserDefaults(suiteName:)` KeyCatalog did not open, whose domain name it
    /// cannot know: what lies beneath the argument is unknown, so nothing is pushed, and an account
    /// change leaves the stored value alone instead of replacing a value it could not keep aside;
    /// once it can be read, it is adopted as the account change would have (kept aside, replaced),
    /// never pushed into the new account.
    @Test("beneath a launch argument a store cannot read, nothing is pushed, and an account change waits to adopt the value")
    func launchArgumentsOverAnUnnamedSuite() throws {
        let home = TemporaryDirectory()
        let child = try TestHelperExecutable.run(
            ["defaults", "keycatalog.tests.sync-arguments.\(UUID().uuidString)", "sync-under-argument-unnamed", "Theme", "-Theme", "argument"],
            environment: TestHelperExecutable.environment(configurationIn: home), capturingErrors: true)
        #expect(child.status == 0)
        #expect(child.output == "first nothing\npushed nothing read argument\nstored written\nadopted other cloud other previous string(\"written\")\n")
        // The account change is reported twice: when it is heard, with nothing kept aside (the
        // value beneath the argument cannot be read), and when the value is adopted and kept aside.
        let reports = child.errors.split(separator: "\n")
        #expect(reports.count == 2, "\(child.errors)")
        #expect(reports.allSatisfy { $0.hasPrefix("KeyCatalog: load of iCloud sync (Cloud) failed: the iCloud account changed") }, "\(child.errors)")
        #expect(reports.last?.contains("the previous values of 'Theme' were kept aside on this device, not pushed") == true, "\(child.errors)")
    }

    /// What a synced store remembers is read back whole at the next launch.
    @Test("the sync metadata a store keeps reads back as it was written")
    func metadataRoundTrips() {
        var metadata = UbiquitousSyncMetadata(device: "A")
        metadata.hasSynced = true
        metadata.entries["Theme"] = UbiquitousSyncMetadata.Entry(stamp: UbiquitousSyncStamp(time: 5, device: "B"), isPending: true, digest: -3)
        metadata.entries["Count"] = UbiquitousSyncMetadata.Entry(stamp: UbiquitousSyncStamp(time: .max, device: "A"), isPending: false, digest: nil)
        metadata.previousAccount["Theme"] = .string("sepia")
        metadata.awaitingAccountChange = ["Theme", "Font"]
        #expect(UbiquitousSyncMetadata(metadata.storedValue) == metadata)
        guard case .data(let bytes) = metadata.storedValue else { Issue.record("stored as bytes"); return }
        #expect(bytes.starts(with: [0x4B, 0x43, 0x53, 0x4D, 1]))
        // As stores kept it before: a dictionary, the one the bytes encode.
        let dictionary = metadata.dictionaryAsKeptBefore
        guard case .dictionary(let members)? = dictionary else { Issue.record("a dictionary"); return }
        #expect(Set(members.keys) == ["device", "synced", "keys", "previous", "adopt"])
        #expect(UbiquitousSyncMetadata(dictionary) == metadata)
        // Damaged bytes read as no metadata.
        #expect(UbiquitousSyncMetadata(.data(bytes.dropLast())) == nil)
    }

    /// Each entry's part of the stored bytes is encoded when the entry is set, not at each save.
    @Test("the sync metadata's stored bytes follow every change of its entries, and a copy's its own")
    func metadataBytesFollowEachChange() {
        var metadata = UbiquitousSyncMetadata(device: "A")
        let stamp = UbiquitousSyncStamp(time: 5, device: "B")
        for index in 0..<100 {
            metadata.entries["Key\(index)"] = UbiquitousSyncMetadata.Entry(stamp: stamp, isPending: true, digest: Int64(index))
        }
        _ = metadata.storedValue
        metadata.entries["Key3"]?.isPending = false
        metadata.entries["Key4"] = UbiquitousSyncMetadata.Entry(stamp: UbiquitousSyncStamp(time: 9, device: "C"), isPending: true, digest: nil)
        metadata.entries["Key5"] = nil
        let read = UbiquitousSyncMetadata(metadata.storedValue)
        #expect(read == metadata)
        #expect(read?.entries.count == 99)
        #expect(read?.entries["Key3"]?.isPending == false)
        #expect(read?.entries["Key4"] == UbiquitousSyncMetadata.Entry(stamp: UbiquitousSyncStamp(time: 9, device: "C"), isPending: true, digest: nil))
        #expect(read?.entries["Key5"] == nil)
        var copy = metadata
        copy.entries["Key6"]?.isPending = false
        #expect(UbiquitousSyncMetadata(metadata.storedValue)?.entries["Key6"]?.isPending == true)
        #expect(UbiquitousSyncMetadata(copy.storedValue)?.entries["Key6"]?.isPending == false)
        // Two spellings of one key (a composed and a decomposed accent) are one entry, saved
        // under the spelling the entries keep: the first.
        var spelled = UbiquitousSyncMetadata(device: "A")
        spelled.entries["caf\u{E9}"] = UbiquitousSyncMetadata.Entry(stamp: stamp, isPending: true, digest: nil)
        spelled.entries["cafe\u{301}"] = UbiquitousSyncMetadata.Entry(stamp: stamp, isPending: false, digest: nil)
        let saved = UbiquitousSyncMetadata(spelled.storedValue)
        #expect(saved?.entries.map { Array($0.key.utf8) } == [Array("caf\u{E9}".utf8)])
        #expect(saved?.entries["caf\u{E9}"]?.isPending == false)
    }

    @Test("metadata kept as a dictionary by an earlier version is read, and saved again as bytes")
    func metadataKeptAsADictionaryIsRead() {
        let cloud = SimulatedCloud()
        let local = InMemoryKeyValueStore()
        var earlier = UbiquitousSyncMetadata(device: "A")
        earlier.hasSynced = true
        earlier.entries["Theme"] = UbiquitousSyncMetadata.Entry(stamp: UbiquitousSyncStamp(time: 7, device: "A"), isPending: false, digest: nil)
        local.setPersistentValue(earlier.dictionaryAsKeptBefore!, forKey: UbiquitousSyncMetadata.storageKey)
        let a = cloud.makeDevice("A", local: local)
        #expect(a.engine.isSyncing, "the store synced before")
        #expect(a.stamp("Theme") == UbiquitousSyncStamp(time: 7, device: "A"))
        a.store.set(K.fontSize, to: 3)
        guard case .data? = local.persistentValue(forKey: UbiquitousSyncMetadata.storageKey) else {
            Issue.record("saved again as bytes")
            return
        }
        #expect(a.stamp("Theme") == UbiquitousSyncStamp(time: 7, device: "A"))
    }

    @Test("a later launch syncs at once: the store synced before, so iCloud's values are known")
    func laterLaunchNeedsNoInitialSync() {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A")
        let b = cloud.makeDevice("B")
        cloud.deliverAll()
        let relaunched = cloud.relaunch("A", backend: a.backend, local: a.local)
        #expect(relaunched.engine.isSyncing)
        relaunched.store.set(K.theme, to: "dark")
        cloud.deliverAll()
        #expect(b.get(K.theme) == "dark")
    }

    /// Found by a review: the store attached last made iCloud's values known (it synced on an
    /// earlier launch), and only it was reconciled; a store attached before it kept its writes
    /// provisional and unpushed until the next change from iCloud, and never had a first sync.
    @Test("a store attached before one that synced on an earlier launch has its first sync as that one is attached")
    func aStoreAttachedBeforeASyncedOneHasItsFirstSync() {
        let cloud = SimulatedCloud()
        let backend = cloud.addDevice()
        let settings = InMemoryKeyValueStore()
        do {
            // The first launch: `settings` syncs with an empty account.
            let firstLaunch = UbiquitousSyncEngine(backend: backend, deviceID: "A", initialSyncTimeout: nil)
            _ = firstLaunch.attach(settings, keys: ["Theme"])
            cloud.deliverAll()
        }
        // The next launch attaches a store new to sync first, and writes to it.
        let engine = UbiquitousSyncEngine(backend: backend, deviceID: "A", initialSyncTimeout: nil)
        let widgets = InMemoryKeyValueStore()
        let widgetSettings = engine.attach(widgets, keys: ["FontSize"])
        widgetSettings.set(K.fontSize, to: 20)
        #expect(!engine.isSyncing, "nothing says yet that iCloud's values are here")
        _ = engine.attach(settings, keys: ["Theme"])
        #expect(engine.isSyncing)
        cloud.deliverAll()
        #expect(UbiquitousSyncEnvelope(cloud.server()["kc:FontSize"])?.value == .int(20), "the write is pushed")
        #expect(UbiquitousSyncMetadata(widgets.persistentValue(forKey: UbiquitousSyncMetadata.storageKey))?.hasSynced == true)
    }

    /// An app and its extension sharing a suite (an app group), each with its engine: the
    /// extension's engine here is a second engine over the same suite, with its own iCloud cache.
    func appAndExtension(sharing suite: TemporarySuite, in cloud: SimulatedCloud, clock: ManualClock) -> (app: FleetDevice, widget: FleetDevice) {
        let app = cloud.makeDevice("A", local: suite.defaults, clock: clock.reading())
        let widget = cloud.relaunch("A", backend: cloud.addDevice(), local: UserDefaultsPersistence.suite(named: suite.name)!, clock: clock.reading())
        return (app, widget)
    }

    /// Found by a review: each engine kept the stamps it read at launch and saved them whole
    /// with each write, so the app's engine undid the stamps its extension saved, and took an
    /// older write from iCloud over the extension's newer one.
    @Test("an app and its extension sharing a suite keep each other's stamps: an older write from iCloud does not replace the extension's")
    func anAppAndItsExtensionKeepEachOthersStamps() {
        let cloud = SimulatedCloud()
        let clock = ManualClock()
        let suite = TemporarySuite()
        let (app, widget) = appAndExtension(sharing: suite, in: cloud, clock: clock)
        let other = cloud.makeDevice("O", clock: clock.reading())
        cloud.deliverAll()
        // O writes, then the extension writes later; both offline.
        cloud.setOnline(other.backend, false)
        cloud.setOnline(widget.backend, false)
        clock.advance(by: 1000)
        other.store.set(K.theme, to: "older, from O")
        clock.advance(by: 1000)
        widget.store.set(K.theme, to: "newer, from the extension")
        #expect(app.stamp("Theme") == widget.stamp("Theme"), "the app's engine knows the stamp its extension saved")
        app.store.set(K.fontSize, to: 20)
        #expect(widget.stamp("Theme")?.time == 1_800_000_002_000, "the app's save kept it")
        // O's older write reaches iCloud and the app.
        cloud.setOnline(other.backend, true)
        cloud.deliverAll()
        #expect(app.get(K.theme) == "newer, from the extension")
        #expect(other.get(K.theme) == "newer, from the extension", "the app's engine pushed it")
    }

    /// A save of the stamps that KeyCatalog keeps out of UserDefaults for now (`defersEveryWrite`,
    /// or a large suite synchronizing) is what the other engine sharing the suite reads, not the
    /// stamps the suite held before: on Linux the stamps are read from the suite's own domain
    /// unless a write of them is kept. In a child process: `defersEveryWrite` is process-wide.
    @Test("an app reads the stamps its extension saved while UserDefaults writes are kept")
    func anAppReadsStampsItsExtensionSavedWhileWritesAreKept() async {
        await #expect(processExitsWith: .success) {
            let cloud = SimulatedCloud()
            let clock = ManualClock()
            let suite = TemporarySuite()
            let app = cloud.makeDevice("A", local: suite.defaults, clock: clock.reading())
            let widget = cloud.relaunch("A", backend: cloud.addDevice(), local: UserDefaultsPersistence.suite(named: suite.name)!, clock: clock.reading())
            cloud.deliverAll()
            app.store.set(SyncKeys.fontSize, to: 12)  // stamps saved in UserDefaults itself
            UserDefaultsPersistence.defersEveryWrite = true
            clock.advance(by: 1000)
            widget.store.set(SyncKeys.theme, to: "dark")  // stamps kept by KeyCatalog
            #expect(widget.stamp("Theme") != nil)
            #expect(app.stamp("Theme") == widget.stamp("Theme"), "the app's engine reads the kept stamps")
            UserDefaultsPersistence.synchronizePendingWrites()
            #expect(app.stamp("Theme") == widget.stamp("Theme"))
        }
    }

    /// Both engines hear of an account change; the second found the new account's values in the
    /// suite, and kept those aside as the previous account's, in place of the values kept first.
    @Test("an app and its extension sharing a suite keep the previous account's values once, as they were")
    func anAppAndItsExtensionKeepThePreviousAccountsValues() {
        let cloud = SimulatedCloud()
        let clock = ManualClock()
        let suite = TemporarySuite()
        let (app, widget) = appAndExtension(sharing: suite, in: cloud, clock: clock)
        let other = cloud.makeDevice("O", account: "work", clock: clock.reading())
        cloud.deliverAll()
        app.store.set(K.theme, to: "personal")
        other.store.set(K.theme, to: "work")
        cloud.deliverAll()
        let reports = FailureRecorder()
        reports.record {
            cloud.switchAccount(app.backend, to: "work")
            cloud.switchAccount(widget.backend, to: "work")
        }
        #expect(reports.failures.map(\.operation) == [.load, .load], "each engine reports the account change")
        #expect(reports.failures.first?.message.contains("the previous values of 'Theme' were kept aside") == true, "\(reports.failures)")
        #expect(app.get(K.theme) == "work" && widget.get(K.theme) == "work")
        #expect(app.engine.previousAccountValues(in: app.local) == ["Theme": .string("personal")])
        #expect(widget.engine.previousAccountValues(in: widget.local) == ["Theme": .string("personal")])
    }

    /// Found by a review of 4ba2f5e: an extension's engine, over the shared suite and a store of
    /// its own, read the app's engine's saved first sync as its own, took its own initial download
    /// for an ordinary change, and pushed a provisional write over iCloud's value.
    @Test("an extension's own store has its first sync, whatever the app's engine saved in the suite they share")
    func anExtensionsOwnStoreStillHasItsFirstSync() {
        let cloud = SimulatedCloud()
        let clock = ManualClock()
        let suite = TemporarySuite()
        let other = cloud.makeDevice("O", clock: clock.reading())
        cloud.deliverAll()
        clock.advance(by: 1000)
        other.store.set(K.fontSize, to: 30)
        cloud.deliverAll()

        let appBackend = cloud.addDevice()
        let app = UbiquitousSyncEngine(backend: appBackend, deviceID: "A", clock: clock.reading(), initialSyncTimeout: nil)
        _ = app.attach(suite.defaults, keys: ["Theme"])
        let widgetBackend = cloud.addDevice()
        let widget = UbiquitousSyncEngine(backend: widgetBackend, deviceID: "A", clock: clock.reading(), initialSyncTimeout: nil)
        _ = widget.attach(UserDefaultsPersistence.suite(named: suite.name)!, keys: ["Theme"])
        let own = InMemoryKeyValueStore()
        let ownSettings = widget.attach(own, keys: ["FontSize"])
        clock.advance(by: 1000)
        ownSettings.set(K.fontSize, to: 20)  // provisional: iCloud's values are not known yet
        #expect(!widget.isSyncing)

        cloud.deliverFirst { $0 == .initialSync(device: appBackend.index) }
        cloud.deliverAll()  // the extension's initial download, then whatever it pushes
        #expect(ownSettings.get(K.fontSize) == 30, "at its first sync iCloud's value wins over a provisional write")
        #expect(UbiquitousSyncEnvelope(cloud.server()["kc:FontSize"])?.value == .int(30), "the provisional write is not pushed over it")
        #expect(other.get(K.fontSize) == 30)
    }

    /// Found by a review of d2dc988: a value nested 510 deep (a store allows 511), kept aside at
    /// an account change, sits two levels down in the stamps' bytes, past their reader's limit:
    /// the whole metadata read as none at the next launch.
    @Test("stamps keeping aside a value nested as deep as a store allows read back")
    func metadataKeepingADeepValueReadsBack() throws {
        var deep = PropertyListValue.int(1)
        for _ in 0..<510 { deep = .array([deep]) }
        try deep.validateForPropertyList()
        let cloud = SimulatedCloud()
        let local = InMemoryKeyValueStore()
        let a = cloud.makeDevice("A", local: local)
        cloud.deliverAll()
        try a.store.setPersistentValue(deep, forKey: "Note")
        cloud.deliverAll()
        let reports = FailureRecorder()
        reports.record { cloud.switchAccount(a.backend, to: "work") }
        #expect(reports.failures.first?.message.contains("the previous values of 'Note' were kept aside") == true, "\(reports.failures)")
        #expect(a.engine.previousAccountValues(in: local)["Note"].map { $0 == deep } == true)
        #expect(UbiquitousSyncMetadata(local.persistentValue(forKey: UbiquitousSyncMetadata.storageKey)) != nil, "the saved stamps read back")
        let next = cloud.relaunch("A", backend: a.backend, local: local)
        #expect(next.engine.isSyncing, "the store synced before")
        #expect(next.engine.previousAccountValues(in: local)["Note"].map { $0 == deep } == true, "the value kept aside")
    }

    /// Found by a review of d2dc988: stamps of a newer format were taken as none, without a word,
    /// and saved over.
    @Test("stamps a newer version saved are reported, their keys stay local, and they are not saved over")
    func stampsOfANewerFormatAreReportedAndKept() throws {
        var newer = UbiquitousSyncMetadata(device: "A")
        newer.hasSynced = true
        newer.entries["Theme"] = UbiquitousSyncMetadata.Entry(stamp: UbiquitousSyncStamp(time: 1_900_000_000_000, device: "A"), isPending: true, digest: nil)
        guard case .data(var bytes) = newer.storedValue else { Issue.record("bytes"); return }
        bytes[4] = 2
        let local = InMemoryKeyValueStore(["Theme": .string("written by the newer version, not pushed yet")])
        local.setPersistentValue(.data(bytes), forKey: UbiquitousSyncMetadata.storageKey)
        let cloud = SimulatedCloud()
        let recorder = FailureRecorder()
        let a = recorder.record { cloud.makeDevice("A", local: local) }
        recorder.record { a.store.set(K.fontSize, to: 3) }
        #expect(recorder.failures.contains { $0.message.contains("format") }, "\(recorder.failures.map(\.message))")
        #expect(local.persistentValue(forKey: UbiquitousSyncMetadata.storageKey) == .data(bytes), "the newer stamps are kept")
    }

    @Test("without iCloud's initial download, the app can decide to start pushing")
    func assumeInitialSyncComplete() {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A")
        a.store.set(K.theme, to: "dark")
        a.engine.assumeInitialSyncComplete()
        #expect(a.engine.isSyncing)
        #expect(cloud.pending.contains { if case .upload(_, _, "kc:Theme", _) = $0 { true } else { false } })
    }

    // MARK: Conflicts

    @Test("concurrent writes: the newest wins on every device, whatever the delivery order", arguments: [false, true])
    func newestWins(reversed: Bool) {
        let cloud = SimulatedCloud()
        let clock = ManualClock()
        let a = cloud.makeDevice("A", clock: clock.reading())
        let b = cloud.makeDevice("B", clock: clock.reading(skew: 5))
        let c = cloud.makeDevice("C", clock: clock.reading())
        cloud.deliverAll()
        a.store.set(K.theme, to: "from A")  // t
        b.store.set(K.theme, to: "from B")  // t + 5: newest
        c.store.set(K.theme, to: "from C")  // t
        var order = cloud.deliverable
        if reversed { order.reverse() }
        for index in order.sorted(by: >) where reversed { cloud.deliver(at: index) }
        cloud.deliverAll()
        for device in [a, b, c] {
            #expect(device.get(K.theme) == "from B", "device \(device.id)")
            #expect(device.stamp("Theme")?.device == "B")
        }
        #expect(UbiquitousSyncEnvelope(cloud.server()["kc:Theme"])?.value == .string("from B"))
    }

    @Test("a tie in time is broken by the device identifier, the same way everywhere")
    func tiesAreDeterministic() {
        let cloud = SimulatedCloud()
        let clock = ManualClock()
        let a = cloud.makeDevice("A", clock: clock.reading())
        let b = cloud.makeDevice("B", clock: clock.reading())
        cloud.deliverAll()
        b.store.set(K.fontSize, to: 2)
        a.store.set(K.fontSize, to: 1)
        #expect(a.stamp("FontSize")?.time == b.stamp("FontSize")?.time)
        // A's upload arrives last, so iCloud's server holds A's value until B answers it.
        let uploads = cloud.pending.indices.filter { if case .upload = cloud.pending[$0] { true } else { false } }
        cloud.deliver(at: uploads.first { cloud.pending[$0].device == b.backend.index }!)
        cloud.deliverAll()
        #expect(a.get(K.fontSize) == 2 && b.get(K.fontSize) == 2, "B > A")
    }

    /// Two stores with one device identifier (a backup restored onto a second device, an app and
    /// its extension): their writes of one millisecond share a stamp, and once left each device
    /// with its own value.
    @Test("a tie in stamp is broken by the value, the same way everywhere", arguments: [false, true])
    func stampTiesAreBrokenByValue(greaterFirst: Bool) {
        let cloud = SimulatedCloud()
        let clock = ManualClock()
        let a = cloud.makeDevice("A", clock: clock.reading())
        let restored = cloud.makeDevice("A", clock: clock.reading())
        cloud.deliverAll()
        let (first, second) = greaterFirst ? (a, restored) : (restored, a)
        first.store.set(K.theme, to: "zebra")
        second.store.set(K.theme, to: "apple")
        #expect(a.stamp("Theme") == restored.stamp("Theme"))
        cloud.deliverAll()
        #expect(a.get(K.theme) == "zebra" && restored.get(K.theme) == "zebra", "the greater value, on both")
        #expect(a.cloudEnvelope("Theme")?.value == .string("zebra"))
        #expect(UbiquitousSyncEnvelope(cloud.server()["kc:Theme"])?.value == .string("zebra"))
    }

    @Test("a stamp at the end of time in iCloud (a damaged entry) does not stop local writes")
    func aStampAtTheEndOfTimeDoesNotStopWrites() {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A")
        let other = cloud.makeDevice("Z")
        cloud.deliverAll()
        let far = UbiquitousSyncEnvelope(stamp: UbiquitousSyncStamp(time: .max, device: "Z"), value: .string("far"))
        other.backend.set(far.propertyListValue.foundationObject, forKey: "kc:Theme")
        cloud.deliverAll()
        #expect(a.get(K.theme) == "far")
        a.store.set(K.theme, to: "near")
        #expect(a.stamp("Theme")?.time == .max, "the clock saturates instead of overflowing")
        cloud.deliverAll()
        #expect(a.get(K.theme) == "far", "the entry's stamp still wins, as any newer stamp would")
        #expect(UbiquitousSyncEnvelope(cloud.server()["kc:Theme"]) == far)
    }

    @Test("a device whose clock is behind still wins with a write made after seeing the other's")
    func hybridClockOrdersCausalWrites() {
        let cloud = SimulatedCloud()
        let clock = ManualClock()
        let fast = cloud.makeDevice("A", clock: clock.reading(skew: 60_000))
        let slow = cloud.makeDevice("B", clock: clock.reading())
        cloud.deliverAll()
        fast.store.set(K.theme, to: "fast")
        let fastStamp = fast.stamp("Theme")!
        cloud.deliverAll()
        slow.store.set(K.theme, to: "slow, later")
        cloud.deliverAll()
        #expect(fast.get(K.theme) == "slow, later")
        #expect(slow.stamp("Theme")! > fastStamp, "one past the newest stamp seen, not the slow clock")
        #expect(fast.stamp("Theme") == slow.stamp("Theme"))
    }

    @Test("duplicated and reordered deliveries of stale values do not undo the newest")
    func staleDeliveriesAreAnsweredWithTheNewest() {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A")
        let b = cloud.makeDevice("B")
        cloud.deliverAll()
        a.store.set(K.fontSize, to: 1)
        cloud.deliver(at: 0)  // upload 1
        let oldDownload = cloud.pending[0]
        cloud.deliver(at: 0, keepCopy: true)  // B gets 1, and will again
        a.store.set(K.fontSize, to: 2)
        cloud.deliverAll()  // 2 everywhere, then the stale copy of 1
        #expect(!cloud.pending.contains(oldDownload))
        #expect(a.get(K.fontSize) == 2 && b.get(K.fontSize) == 2)
        #expect(UbiquitousSyncEnvelope(cloud.server()["kc:FontSize"])?.value == .int(2))
    }

    // MARK: Removal

    @Test("removing a key on one device removes it everywhere, with a tombstone that beats older writes")
    func removalPropagates() {
        let cloud = SimulatedCloud()
        let clock = ManualClock()
        let a = cloud.makeDevice("A", clock: clock.reading())
        let b = cloud.makeDevice("B", clock: clock.reading())
        cloud.deliverAll()
        a.store.set(K.note, to: "hello")
        cloud.deliverAll()
        #expect(b.get(K.note) == "hello")
        cloud.setOnline(a.backend, false)
        a.store.set(K.note, to: "offline edit")  // older than B's removal
        clock.advance(by: 10)
        b.store.remove(K.note)
        cloud.deliverAll()
        cloud.setOnline(a.backend, true)
        cloud.deliverAll()
        #expect(a.get(K.note) == nil && b.get(K.note) == nil)
        #expect(!a.local.hasPersistentValue(forKey: "Note"))
        let tombstone = UbiquitousSyncEnvelope(cloud.server()["kc:Note"])
        #expect(tombstone != nil && tombstone?.value == nil && tombstone?.stamp.device == "B")
    }

    // MARK: Offline

    @Test("a device taken offline catches up when it comes back, and its offline writes win where newer")
    func offlineDeviceCatchesUp() {
        let cloud = SimulatedCloud()
        let clock = ManualClock()
        let a = cloud.makeDevice("A", clock: clock.reading())
        let b = cloud.makeDevice("B", clock: clock.reading())
        cloud.deliverAll()
        cloud.setOnline(b.backend, false)
        a.store.set(K.theme, to: "dark")
        clock.advance()
        b.store.set(K.fontSize, to: 40)
        cloud.deliverAll()
        #expect(b.get(K.theme) == "light" && a.get(K.fontSize) == 12, "nothing moves while B is offline")
        cloud.setOnline(b.backend, true)
        cloud.deliverAll()
        #expect(b.get(K.theme) == "dark" && a.get(K.fontSize) == 40)
    }

    // MARK: Account change

    @Test("an account change neither pushes local values into the new account nor discards them; it reports them")
    func accountChange() {
        let cloud = SimulatedCloud()
        let other = cloud.makeDevice("O", account: "other")
        let a = cloud.makeDevice("A")
        cloud.deliverAll()
        other.store.set(K.fontSize, to: 99)
        a.store.set(K.theme, to: "dark")
        a.store.set(K.fontSize, to: 20)
        cloud.deliverAll()

        let recorder = FailureRecorder()
        recorder.record { cloud.switchAccount(a.backend, to: "other") }
        #expect(a.get(K.fontSize) == 99, "the new account's value")
        #expect(a.get(K.theme) == "light", "keys the new account lacks read their defaults")
        #expect(a.engine.previousAccountValues(in: a.local) == ["Theme": .string("dark"), "FontSize": .int(20)])
        #expect(recorder.failures.count == 1)
        #expect(recorder.failures.first?.message.contains("'FontSize', 'Theme'") == true)
        #expect(recorder.failures.first?.message.contains("not pushed") == true)
        cloud.deliverAll()
        #expect(cloud.server("other")["kc:Theme"] == nil, "nothing pushed into the new account")
        #expect(other.get(K.fontSize) == 99)

        a.engine.restorePreviousAccountValues(in: a.local)
        cloud.deliverAll()
        #expect(other.get(K.theme) == "dark" && other.get(K.fontSize) == 20, "restored on request, as new writes")
        #expect(a.engine.previousAccountValues(in: a.local).isEmpty)
    }

    @Test("values kept from the previous account can be discarded")
    func discardPreviousAccount() {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A")
        cloud.deliverAll()
        a.store.set(K.theme, to: "dark")
        FailureRecorder().record { cloud.switchAccount(a.backend, to: "other") }
        a.engine.discardPreviousAccountValues(in: a.local)
        #expect(a.engine.previousAccountValues(in: a.local).isEmpty)
        #expect(a.get(K.theme) == "light")
    }

    /// Device A under account a, with Theme "a" and FontSize 20; account b holds a Theme ("b",
    /// from another device) and no FontSize; any other account holds nothing.
    static func deviceOfAccountA() -> (cloud: SimulatedCloud, a: FleetDevice) {
        let cloud = SimulatedCloud()
        let other = cloud.makeDevice("O", account: "b")
        let a = cloud.makeDevice("A", account: "a")
        cloud.deliverAll()
        a.store.set(K.theme, to: "a")
        a.store.set(K.fontSize, to: 20)
        other.store.set(K.theme, to: "b")
        cloud.deliverAll()
        return (cloud, a)
    }

    /// Found by a review of the account-change rule: the values kept aside were updated key by key
    /// at each change, and a key the store held nothing for kept the value of an account left
    /// earlier. After A -> B -> C the device listed A's FontSize among B's values, and after
    /// C -> A it still listed B's Theme (C held nothing): restoring brought into the account
    /// values the device did not hold when it left the one before.
    @Test("after account changes in a row, the values kept aside are what the device held when it left the last account")
    func accountChangesInARowKeepTheLastAccountsValues() {
        let (cloud, a) = Self.deviceOfAccountA()
        let reports = FailureRecorder()

        reports.record { cloud.switchAccount(a.backend, to: "b") }
        #expect(a.get(K.theme) == "b" && a.get(K.fontSize) == 12)
        #expect(a.engine.previousAccountValues(in: a.local) == ["Theme": .string("a"), "FontSize": .int(20)])

        reports.record { cloud.switchAccount(a.backend, to: "c") }
        #expect(a.get(K.theme) == "light" && a.get(K.fontSize) == 12)
        #expect(a.engine.previousAccountValues(in: a.local) == ["Theme": .string("b")], "under b FontSize read its default, not a's 20")
        #expect(reports.failures.last?.message.contains("the previous values of 'Theme' were kept aside") == true, "\(reports.failures)")

        reports.record { cloud.switchAccount(a.backend, to: "a") }
        #expect(a.get(K.theme) == "a" && a.get(K.fontSize) == 20, "back on a: a's values, from iCloud")
        #expect(a.engine.previousAccountValues(in: a.local).isEmpty, "the device held nothing under c")
        a.engine.restorePreviousAccountValues(in: a.local)
        cloud.deliverAll()
        #expect(UbiquitousSyncEnvelope(cloud.server("a")["kc:Theme"])?.value == .string("a"), "b's Theme not restored into a")
        #expect(cloud.server("c").isEmpty, "nothing pushed into c")
        #expect(reports.failures.count == 3, "each change reported once")
    }

    @Test("going back and forth between two accounts keeps aside, each time, the values of the account left")
    func accountChangesBackAndForthKeepTheAccountLeft() {
        let (cloud, a) = Self.deviceOfAccountA()
        let reports = FailureRecorder()

        reports.record { cloud.switchAccount(a.backend, to: "b") }
        reports.record { cloud.switchAccount(a.backend, to: "a") }
        #expect(a.get(K.theme) == "a" && a.get(K.fontSize) == 20, "a's values, from iCloud")
        #expect(a.engine.previousAccountValues(in: a.local) == ["Theme": .string("b")], "what the device held under b")

        reports.record { cloud.switchAccount(a.backend, to: "b") }
        #expect(a.get(K.theme) == "b" && a.get(K.fontSize) == 12)
        #expect(a.engine.previousAccountValues(in: a.local) == ["Theme": .string("a"), "FontSize": .int(20)])
        #expect(cloud.server("b")["kc:FontSize"] == nil, "nothing pushed into b")
        #expect(reports.failures.count == 3)
    }

    /// A key the store cannot read at an account change (a locked keychain) waits to be adopted:
    /// what an earlier change kept aside for it is another account's, and stayed listed beside the
    /// values of the account just left, and was restored into the new account.
    @Test("a key adopted after the account change does not keep the value of an account left earlier")
    func aKeyAdoptedLaterKeepsNoEarlierAccountsValue() {
        let cloud = SimulatedCloud()
        let local = HidingStore()
        let other = cloud.makeDevice("O", account: "b")
        let a = cloud.makeDevice("A", local: local, account: "z")
        cloud.deliverAll()
        a.store.set(K.theme, to: "z")
        a.store.set(K.fontSize, to: 20)
        cloud.deliverAll()
        let reports = FailureRecorder()
        reports.record { cloud.switchAccount(a.backend, to: "a") }  // a holds nothing
        #expect(a.engine.previousAccountValues(in: local) == ["Theme": .string("z"), "FontSize": .int(20)])
        a.store.set(K.fontSize, to: 30)  // under a: a FontSize, no Theme
        cloud.deliverAll()

        local.hidden = ["Theme"]
        reports.record { cloud.switchAccount(a.backend, to: "b") }
        #expect(a.engine.previousAccountValues(in: local)["Theme"] == nil, "the device held no Theme under a")
        local.hidden = []
        other.store.set(K.theme, to: "b")  // Theme is adopted as it arrives
        reports.record { cloud.deliverAll() }
        #expect(a.get(K.theme) == "b")
        #expect(a.engine.previousAccountValues(in: local) == ["FontSize": .int(30)], "what the device held when it left a")
        a.engine.restorePreviousAccountValues(in: local)
        cloud.deliverAll()
        #expect(a.get(K.theme) == "b" && other.get(K.theme) == "b", "z's Theme not restored into b")
    }

    // MARK: Quota

    @Test("a value iCloud cannot hold is reported with its key, stays local, and is not pushed")
    func oversizedValueIsReported() {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A")
        let b = cloud.makeDevice("B")
        cloud.deliverAll()
        let big = String(repeating: "x", count: 1_000_001)
        let recorder = FailureRecorder()
        recorder.record { a.store.set(K.theme, to: big) }
        cloud.deliverAll()
        #expect(a.get(K.theme) == big, "the local value stays")
        #expect(b.get(K.theme) == "light")
        #expect(recorder.failures.map(\.key) == ["Theme"])
        #expect(recorder.failures.first?.message.contains("allows 1000000 per value") == true)
    }

    @Test(
        "a quota violation from iCloud is reported with its keys; the local value stays and is pushed again later",
        arguments: [true, false])
    func quotaViolationIsReported(reportNamesKeys: Bool) {
        let cloud = SimulatedCloud(quotaViolationsNameKeys: reportNamesKeys)
        let a = cloud.makeDevice("A")
        let b = cloud.makeDevice("B")
        cloud.deliverAll()
        cloud.setRefused("kc:FontSize", true)
        let recorder = FailureRecorder()
        a.store.set(K.fontSize, to: 40)
        recorder.record { cloud.deliverAll() }
        #expect(recorder.failures.map(\.key) == ["FontSize"])
        #expect(a.get(K.fontSize) == 40 && b.get(K.fontSize) == 12)
        cloud.setRefused("kc:FontSize", false)
        b.store.set(K.theme, to: "dark")  // the next change from iCloud that A hears of
        cloud.deliverAll()
        #expect(b.get(K.fontSize) == 40, "A's refused write was pushed again")
        #expect(recorder.failures.count == 1)
    }

    @Test("a sync engine and a ubiquitous store over one iCloud store check its 1 MB against their writes together")
    func engineAndUbiquitousStoreShareTheLimits() throws {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A")
        cloud.deliverAll()
        let ubiquitous = UbiquitousKeyValueStore.shared(over: a.backend)
        let blob = PersistentKey<Data>("Blob", defaultValue: Data())
        let recorder = FailureRecorder()
        recorder.record {
            a.store.set(K.theme, to: "dark")  // the engine has measured iCloud's entries
            ubiquitous.set(blob, to: Data(count: 600_000))
            a.store.set(K.note, to: String(repeating: "x", count: 500_000))
        }
        #expect(recorder.failures.map(\.key) == ["Note"])
        #expect(recorder.failures.first?.message.contains("it allows 1000000 in all") == true, "\(recorder.failures)")
        #expect(a.get(K.note)?.count == 500_000, "the value stays on this device")
        // And the other way round: the store sees what the engine pushed.
        recorder.record {
            a.store.set(K.note, to: String(repeating: "y", count: 300_000))
            ubiquitous.set(blob, to: Data(count: 800_000))
        }
        #expect(recorder.failures.map(\.key) == ["Note", "Blob"])
        #expect(ubiquitous.get(blob).count == 600_000)
    }

    @Test("a 1,025th key in iCloud is refused before it is pushed")
    func keyCountLimit() {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A")
        cloud.deliverAll()
        a.backend.cache.withLock { cache in
            for index in 0..<UbiquitousKeyValueStore.maximumKeyCount { cache["other.\(index)"] = .int(index) }
        }
        let recorder = FailureRecorder()
        recorder.record { a.store.set(K.theme, to: "dark") }
        #expect(recorder.failures.map(\.key) == ["Theme"])
        #expect(a.get(K.theme) == "dark")
    }

    @Test("a key whose iCloud name would pass 64 bytes stays local, reported")
    func longKeyStaysLocal() {
        let cloud = SimulatedCloud()
        let long = String(repeating: "k", count: 62)
        let recorder = FailureRecorder()
        let a = recorder.record { cloud.makeDevice("A", keys: [long]) }
        cloud.deliverAll()
        #expect(recorder.failures.map(\.key) == [long])
        a.store.set(PersistentKey<Int>(long, defaultValue: 0), to: 1)
        cloud.deliverAll()
        #expect(cloud.server().isEmpty)
    }

    // MARK: Observers

    @Test("values from other devices reach callbacks, async sequences and Observation, on the attached and the local store")
    @MainActor
    func remoteValuesReachEveryObserver() async {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A")
        let b = cloud.makeDevice("B")
        cloud.deliverAll()
        let attachedSeen = Locked<[String]>([])
        let localSeen = Locked<[String]>([])
        let attached = b.store.observe(K.theme) { value in attachedSeen.withLock { $0.append(value) } }
        let local = b.local.observe(K.theme) { value in localSeen.withLock { $0.append(value) } }
        var values = b.store.values(for: K.theme).makeAsyncIterator()
        #expect(await values.next() == "light")
        let model = PersistentValueModel(K.theme, store: b.store)
        let observed = Locked(false)
        withObservationTracking {
            _ = model.value
        } onChange: {
            observed.withLock { $0 = true }
        }

        a.store.set(K.theme, to: "dark")
        cloud.deliverAll()
        #expect(attachedSeen.current == ["dark"])
        #expect(localSeen.current == ["dark"])
        #expect(await values.next() == "dark")
        #expect(observed.current)
        #expect(model.value == "dark")

        a.store.remove(K.theme)
        cloud.deliverAll()
        #expect(attachedSeen.current == ["dark", "light"])
        #expect(await values.next() == "light")
        attached.cancel()
        local.cancel()
    }

    @Test("keys that are not synced stay local")
    func unsyncedKeysStayLocal() {
        let cloud = SimulatedCloud()
        let a = cloud.makeDevice("A")
        let b = cloud.makeDevice("B")
        cloud.deliverAll()
        a.store.set(K.localOnly, to: 7)
        cloud.deliverAll()
        #expect(a.get(K.localOnly) == 7 && b.get(K.localOnly) == 0)
        #expect(cloud.server().isEmpty)
    }

    @Test("real local stores: a UserDefaults suite and a file sync with each other, and stamps survive a relaunch")
    func realStores() {
        let cloud = SimulatedCloud()
        let suite = TemporarySuite()
        let folder = TemporaryDirectory()
        let file = FileKeyValueStore(url: folder.file("settings.plist"))
        let a = cloud.makeDevice("A", local: suite.defaults)
        let b = cloud.makeDevice("B", local: file)
        cloud.deliverAll()
        a.store.set(K.theme, to: "dark")
        b.store.set(K.fontSize, to: 14)
        cloud.deliverAll()
        #expect(b.get(K.theme) == "dark" && a.get(K.fontSize) == 14)
        let reopened = FileKeyValueStore(url: folder.file("settings.plist"))
        let relaunched = cloud.relaunch("B", backend: b.backend, local: reopened)
        #expect(relaunched.stamp("Theme") == a.stamp("Theme"))
        #expect(relaunched.engine.isSyncing)
    }
}

/// An in-memory store that calls `willWrite` before each write.
final class WriteWatchingStore: PersistentKeyValueStore, @unchecked Sendable {
    private let base: InMemoryKeyValueStore
    var willWrite: ((String) -> Void)?

    init(_ base: InMemoryKeyValueStore) {
        self.base = base
    }

    func persistentValue(forKey key: String) -> PropertyListValue? { base.persistentValue(forKey: key) }
    func hasPersistentValue(forKey key: String) -> Bool { base.hasPersistentValue(forKey: key) }
    func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        willWrite?(key)
        base.setPersistentValue(value, forKey: key)
    }
    func removePersistentValue(forKey key: String) throws { base.removePersistentValue(forKey: key) }
    func registerPersistentValues(_ values: [String: PropertyListValue]) { base.registerPersistentValues(values) }
    func flushPersistentValues() throws {}
    var keyValueChanges: KeyValueChangeCenter { base.keyValueChanges }
    var persistentStoreDescription: String { "in memory, writes watched" }
}

/// An in-memory store that cannot tell, for the keys in `hidden`, whether it stores a value (as a
/// locked device's keychain cannot).
final class HidingStore: PersistentKeyValueStore, @unchecked Sendable {
    private let base = InMemoryKeyValueStore()
    private let lock = NSLock()
    nonisolated(unsafe) private var _hidden: Set<String> = []
    var hidden: Set<String> {
        get { lock.withLock { _hidden } }
        set { lock.withLock { _hidden = newValue } }
    }

    func persistentValue(forKey key: String) -> PropertyListValue? { base.persistentValue(forKey: key) }
    func hasPersistentValue(forKey key: String) -> Bool { base.hasPersistentValue(forKey: key) }
    func _hasPersistentValueIfKnown(forKey key: String) -> Bool? { hidden.contains(key) ? nil : base.hasPersistentValue(forKey: key) }
    func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws { base.setPersistentValue(value, forKey: key) }
    func removePersistentValue(forKey key: String) throws { base.removePersistentValue(forKey: key) }
    func registerPersistentValues(_ values: [String: PropertyListValue]) { base.registerPersistentValues(values) }
    func flushPersistentValues() throws {}
    var keyValueChanges: KeyValueChangeCenter { base.keyValueChanges }
    var persistentStoreDescription: String { "in memory, some keys hidden" }
}

extension UbiquitousSyncMetadata {
    /// The metadata as earlier versions kept it in a store: the dictionary whose bytes
    /// ``storedValue`` holds now.
    fileprivate var dictionaryAsKeptBefore: PropertyListValue? {
        guard case .data(let bytes) = storedValue else { return nil }
        return FileStoreJournal.decoded(bytes.dropFirst(Self.storedHeader.count), extraDepth: 2)
    }
}
