import Foundation
import Testing

@testable import KeyCatalog

/// Seeded random schedules on a simulated fleet: random writes and removals on random devices,
/// delivered in random order with duplicates, devices going offline and coming back, devices
/// joining late (their writes provisional until iCloud's values arrive). After everything is
/// delivered, every device and iCloud hold the same values, each the one of the newest write
/// (a provisional write counts only where it won), and nothing was pushed before an initial sync.
@Suite("iCloud sync: randomized fleets converge on the newest write")
struct SyncConvergenceTests {
    struct Schedule: Sendable, CustomTestStringConvertible {
        var seed: UInt64
        var devices = 3
        var operations = 1_000
        var keys = 4
        /// The chance a delivered message is delivered again later.
        var duplicate = 0.1
        /// The chance per operation that a device goes offline or comes back.
        var offline = 0.03
        /// Devices (from the second on) whose initial download arrives during the schedule.
        var lateJoiners = 0
        /// Local stores: memory, or a UserDefaults suite, a file and memory in turn.
        var realStores = false

        var testDescription: String {
            "seed \(seed): \(devices) devices, \(operations) operations on \(keys) keys, duplicates \(duplicate), offline \(offline), late joiners \(lateJoiners)\(realStores ? ", suite/file/memory stores" : "")"
        }
    }

    static let schedules: [Schedule] = ProcessInfo.processInfo.environment["SYNC_ONLY"].map { only in allSchedules.filter { "\($0.seed)" == only } } ?? allSchedules

    static let allSchedules: [Schedule] =
        (1...4).map { Schedule(seed: $0) }
        + [
            Schedule(seed: 100, devices: 5, operations: 500, keys: 2, duplicate: 0.3),
            Schedule(seed: 101, devices: 3, operations: 2_000, keys: 1, duplicate: 0.2, offline: 0.1),
            Schedule(seed: 200, lateJoiners: 2),
            Schedule(seed: 201, devices: 4, operations: 500, keys: 3, lateJoiners: 3),
            Schedule(seed: 300, operations: 300, realStores: true),
        ]

    struct Write {
        var stamp: UbiquitousSyncStamp
        var value: Int?
        var wasSyncing: Bool
    }

    @Test(arguments: schedules)
    func converges(_ schedule: Schedule) throws {
        var random = SeededGenerator(seed: schedule.seed)
        let cloud = SimulatedCloud()
        let clock = ManualClock()
        let names = (0..<schedule.keys).map { "K\($0)" }
        let keys = names.map { PersistentKey<Int?>($0, defaultValue: nil) }
        var keepAlive: [AnyObject] = []
        let devices = (0..<schedule.devices).map { index -> FleetDevice in
            let local: any PersistentKeyValueStore
            switch (schedule.realStores, index % 3) {
            case (true, 0):
                let suite = TemporarySuite("convergence\(index)")
                keepAlive.append(suite)
                local = suite.defaults
            case (true, 1):
                let folder = TemporaryDirectory()
                keepAlive.append(folder)
                local = FileKeyValueStore(url: folder.file("device.plist"))
            default:
                local = InMemoryKeyValueStore()
            }
            let skew = Int64.random(in: -50...50, using: &random)
            return cloud.makeDevice("D\(index)", local: local, clock: clock.reading(skew: skew), keys: names)
        }
        // Every initial download arrives now, except the late joiners'.
        let late = Set(devices.dropFirst().prefix(schedule.lateJoiners).map(\.backend.index))
        for index in cloud.pending.indices.reversed() {
            if case .initialSync(let device) = cloud.pending[index], !late.contains(device) { cloud.deliver(at: index) }
        }

        var writes: [String: [Write]] = [:]
        for operation in 0..<schedule.operations {
            let roll = Double.random(in: 0..<1, using: &random)
            if roll < 0.45 {
                let device = devices.randomElement(using: &random)!
                let key = Int.random(in: 0..<schedule.keys, using: &random)
                let value: Int? = Double.random(in: 0..<1, using: &random) < 0.15 ? nil : operation
                let wasSyncing = device.engine.isSyncing
                if let value {
                    device.store.set(keys[key], to: value)
                } else {
                    device.store.remove(keys[key])
                }
                let stamp = try #require(device.stamp(names[key]))
                writes[names[key], default: []].append(Write(stamp: stamp, value: value, wasSyncing: wasSyncing))
            } else if roll < 0.45 + schedule.offline {
                let device = devices.randomElement(using: &random)!
                cloud.setOnline(device.backend, !device.backend.isOnline)
            } else {
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    guard let index = cloud.randomDeliverableIndex(using: &random) else { break }
                    cloud.deliver(at: index, keepCopy: Double.random(in: 0..<1, using: &random) < schedule.duplicate)
                }
            }
            clock.advance(by: Int64.random(in: 0...2, using: &random))
        }
        for device in devices { cloud.setOnline(device.backend, true) }
        cloud.deliverAllRandomly(using: &random, duplicate: schedule.duplicate)

        #expect(cloud.uploadsBeforeInitialSync.isEmpty, "nothing pushed before a device's initial sync")
        #expect(cloud.pending.isEmpty)
        for name in names {
            let winner = UbiquitousSyncEnvelope(cloud.server()[UbiquitousSyncEngine.keyPrefix + name])
            let made = writes[name] ?? []
            guard let winner else {
                #expect(made.isEmpty, "\(name): written but not in iCloud")
                continue
            }
            // The newest write made with iCloud's values known can never lose.
            let newestSynced = made.filter(\.wasSyncing).map(\.stamp).max()
            #expect(newestSynced.map { winner.stamp >= $0 } ?? true, "\(name): an older write won")
            let winning = made.first { $0.stamp == winner.stamp }
            #expect(winning != nil, "\(name): iCloud holds a value nobody wrote")
            #expect(winner.value == winning?.value.map { .int($0) })
            if schedule.lateJoiners == 0 {
                #expect(winner.stamp == made.map(\.stamp).max(), "\(name): the newest write wins")
            }
            for device in devices {
                #expect(device.stamp(name) == winner.stamp, "\(name) on \(device.id)")
                #expect(device.get(keys[names.firstIndex(of: name)!]) == winning?.value, "\(name) on \(device.id)")
            }
        }
        withExtendedLifetime(keepAlive) {}
    }
}
