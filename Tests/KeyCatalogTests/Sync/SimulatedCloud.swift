import Foundation

@testable import KeyCatalog

/// iCloud's key-value service, simulated for a fleet of devices and driven step by step by the
/// test: nothing moves until the test delivers a message, so no assertion depends on timing.
///
/// Each device has a local cache (its `UbiquitousKeyValueBackend`), as `NSUbiquitousKeyValueStore`
/// does: a write changes the cache at once and queues an upload; an upload that arrives replaces
/// the account's server value (the last to arrive wins, whatever it holds, as on iCloud) and
/// queues a download for every other device of the account; a download replaces the device's
/// cached value and posts a server change. A device's first initial download is a message too,
/// so the test decides when it arrives. The test can deliver messages in any order, deliver one
/// twice, take a device offline (its messages wait), make the server refuse keys over quota, and
/// switch a device to another account.
final class SimulatedCloud: @unchecked Sendable {
    enum Message: Equatable, CustomStringConvertible {
        case upload(device: Int, account: String, key: String, value: PropertyListValue?)
        case download(device: Int, key: String, value: PropertyListValue?)
        case initialSync(device: Int)

        var device: Int {
            switch self {
            case .upload(let device, _, _, _), .download(let device, _, _), .initialSync(let device): device
            }
        }

        var description: String {
            switch self {
            case .upload(let device, let account, let key, _): "upload(\(device)→\(account), \(key))"
            case .download(let device, let key, _): "download(→\(device), \(key))"
            case .initialSync(let device): "initialSync(→\(device))"
            }
        }
    }

    private let lock = NSLock()
    private var servers: [String: [String: PropertyListValue]] = [:]
    private var devices: [SimulatedDevice] = []
    private var queue: [Message] = []
    /// Cloud keys the server refuses, as over quota.
    private var refused: Set<String> = []
    /// Uploads a device sent before its initial download arrived (the engine must send none).
    private(set) var uploadsBeforeInitialSync: [Message] = []
    /// Every upload that reached a server, in arrival order.
    private(set) var arrivedUploads: [Message] = []
    /// Whether an initial download that brings nothing (an empty account) is announced. iCloud
    /// announces none; most tests let it be announced, to say when a device starts syncing.
    let announcesEmptyInitialSync: Bool
    /// Whether a quota violation names the refused key (iCloud's reports may name none).
    let quotaViolationsNameKeys: Bool
    /// Whether a write made before the device's initial download is dropped, as iCloud drops it;
    /// most tests keep it, to see that the engine sends none.
    let dropsUploadsBeforeInitialSync: Bool

    init(announcesEmptyInitialSync: Bool = true, quotaViolationsNameKeys: Bool = true, dropsUploadsBeforeInitialSync: Bool = false) {
        self.announcesEmptyInitialSync = announcesEmptyInitialSync
        self.quotaViolationsNameKeys = quotaViolationsNameKeys
        self.dropsUploadsBeforeInitialSync = dropsUploadsBeforeInitialSync
    }

    /// A new device signed in to `account`; its initial download is queued.
    func addDevice(account: String = "person") -> SimulatedDevice {
        lock.withLock {
            let device = SimulatedDevice(cloud: self, index: devices.count, account: account)
            devices.append(device)
            queue.append(.initialSync(device: device.index))
            return device
        }
    }

    /// The messages waiting, in queue order.
    var pending: [Message] { lock.withLock { queue } }

    /// The server's values for `account`.
    func server(_ account: String = "person") -> [String: PropertyListValue] {
        lock.withLock { servers[account] ?? [:] }
    }

    /// The indices in ``pending`` that can be delivered now (their device is online).
    var deliverable: [Int] {
        lock.withLock {
            let online = devices.map(\.isOnline)
            return queue.indices.filter { online[queue[$0].device] }
        }
    }

    /// A random index in ``pending`` that can be delivered now; `nil` when none can.
    func randomDeliverableIndex(using random: inout some RandomNumberGenerator) -> Int? {
        let (count, online) = lock.withLock { (queue.count, devices.map(\.isOnline)) }
        guard count > 0 else { return nil }
        if online.allSatisfy({ $0 }) { return Int.random(in: 0..<count, using: &random) }
        return deliverable.randomElement(using: &random)
    }

    /// Delivers the message at `index` in ``pending``; when `keepCopy`, it stays queued, to be
    /// delivered again (a duplicate).
    func deliver(at index: Int, keepCopy: Bool = false) {
        let notification: (SimulatedDevice, UbiquitousExternalChange)? = lock.withLock {
            let message = keepCopy ? queue[index] : queue.remove(at: index)
            switch message {
            case .upload(let from, let account, let key, let value):
                if refused.contains(key) {
                    return (devices[from], UbiquitousExternalChange(reason: .quotaViolation, changedKeys: quotaViolationsNameKeys ? [key] : []))
                }
                arrivedUploads.append(message)
                servers[account, default: [:]][key] = value
                for device in devices where device.index != from && device.account == account && device.hasInitialSync {
                    queue.append(.download(device: device.index, key: key, value: value))
                }
                return nil
            case .download(let to, let key, let value):
                let device = devices[to]
                device.cache.withLock { $0[key] = value }
                return (device, UbiquitousExternalChange(reason: .serverChange, changedKeys: [key]))
            case .initialSync(let to):
                let device = devices[to]
                guard !device.hasInitialSync else { return nil }
                device.hasInitialSync = true
                let server = servers[device.account] ?? [:]
                device.cache.withLock { $0 = server }
                guard !server.isEmpty || announcesEmptyInitialSync else { return nil }
                return (device, UbiquitousExternalChange(reason: .initialSync, changedKeys: server.keys.sorted()))
            }
        }
        if let (device, change) = notification { device.notify(change) }
    }

    /// Delivers the first message in ``pending`` that `matches`, if any.
    func deliverFirst(where matches: (Message) -> Bool) {
        if let index = pending.firstIndex(where: matches) { deliver(at: index) }
    }

    /// Delivers every deliverable message in queue order, and those they cause, until none is left.
    func deliverAll() {
        while let index = deliverable.first {
            deliver(at: index)
        }
    }

    /// Delivers deliverable messages in random order until none is left, leaving a copy of each
    /// with probability `duplicate` (a copy is not copied again).
    func deliverAllRandomly(using random: inout some RandomNumberGenerator, duplicate: Double = 0) {
        var copied: Set<Int> = []
        var step = 0
        while true {
            guard let index = randomDeliverableIndex(using: &random) else { return }
            step += 1
            precondition(step < 1_000_000, "the fleet does not settle")
            let keepCopy = !copied.contains(index) && Double.random(in: 0..<1, using: &random) < duplicate
            deliver(at: index, keepCopy: keepCopy)
            copied = keepCopy ? [index] : []
        }
    }

    /// Takes `device` offline (its messages wait) or brings it back.
    func setOnline(_ device: SimulatedDevice, _ isOnline: Bool) {
        lock.withLock { device.isOnline = isOnline }
    }

    /// Makes the server refuse uploads of `cloudKey` as over quota, or accept them again.
    func setRefused(_ cloudKey: String, _ isRefused: Bool) {
        lock.withLock {
            if isRefused { refused.insert(cloudKey) } else { refused.remove(cloudKey) }
        }
    }

    /// Signs `device` in to `account`: its cache becomes that account's values at once, its
    /// pending messages are dropped, and it is told of an account change.
    func switchAccount(_ device: SimulatedDevice, to account: String) {
        let keys: [String] = lock.withLock {
            queue.removeAll { $0.device == device.index }
            let previous = device.cache.withLock { $0.keys }
            device.account = account
            device.hasInitialSync = true
            let server = servers[account] ?? [:]
            device.cache.withLock { $0 = server }
            return Set(previous).union(server.keys).sorted()
        }
        device.notify(UbiquitousExternalChange(reason: .accountChange, changedKeys: keys))
    }

    fileprivate func upload(from device: SimulatedDevice, key: String, value: PropertyListValue?) {
        lock.withLock {
            let message = Message.upload(device: device.index, account: device.account, key: key, value: value)
            if !device.hasInitialSync {
                uploadsBeforeInitialSync.append(message)
                if dropsUploadsBeforeInitialSync { return }
            }
            queue.append(message)
        }
    }
}

/// One device's view of the simulated iCloud: its local cache and its notifications.
final class SimulatedDevice: UbiquitousKeyValueBackend, @unchecked Sendable {
    // @unchecked: `cache` and `handlers` are locked; the rest is changed under the cloud's lock.
    unowned let cloud: SimulatedCloud
    let index: Int
    var account: String
    var isOnline = true
    var hasInitialSync = false
    let cache = Locked<[String: PropertyListValue]>([:])
    private let handlers = Locked<[@Sendable (UbiquitousExternalChange) -> Void]>([])

    init(cloud: SimulatedCloud, index: Int, account: String) {
        self.cloud = cloud
        self.index = index
        self.account = account
    }

    func object(forKey aKey: String) -> Any? {
        cache.withLock { $0[aKey]?.foundationObject }
    }

    func set(_ anObject: Any?, forKey aKey: String) {
        let value = anObject.flatMap(PropertyListValue.init(foundationObject:))
        cache.withLock { $0[aKey] = value }
        cloud.upload(from: self, key: aKey, value: value)
    }

    func removeObject(forKey aKey: String) {
        set(nil, forKey: aKey)
    }

    func synchronize() -> Bool { true }

    var dictionaryRepresentation: [String: Any] {
        cache.withLock { $0.mapValues(\.foundationObject) }
    }

    func observeExternalChanges(_ handler: @escaping @Sendable (UbiquitousExternalChange) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    fileprivate func notify(_ change: UbiquitousExternalChange) {
        for handler in handlers.withLock({ $0 }) { handler(change) }
    }
}

/// A seeded generator (SplitMix64), so a failing schedule can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let milliseconds: Locked<Int64>

    init(_ start: Int64 = 1_800_000_000_000) {
        milliseconds = Locked(start)
    }

    func advance(by delta: Int64 = 1) {
        milliseconds.withLock { $0 += delta }
    }

    /// A device's view of this clock, `skew` milliseconds off.
    func reading(skew: Int64 = 0) -> @Sendable () -> Date {
        { [self] in Date(timeIntervalSince1970: Double(milliseconds.withLock { $0 } + skew) / 1000) }
    }
}
