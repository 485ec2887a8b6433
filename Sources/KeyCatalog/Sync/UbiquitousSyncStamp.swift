/// When and where a synced write was made: what decides which of two writes wins.
///
/// Stamps order by ``time``, then by ``device`` (so two writes in the same millisecond on two
/// devices are ordered the same way on every device); the greater stamp is the newer write.
///
/// ```swift
/// let mine = UbiquitousSyncStamp(time: 1_700_000_000_000, device: "A")
/// let theirs = UbiquitousSyncStamp(time: 1_700_000_000_000, device: "B")
/// theirs > mine   // true: same millisecond, the greater device identifier wins
/// ```
///
/// ``UbiquitousSyncEngine`` makes stamps with a hybrid logical clock: a write's time is the
/// device's clock in milliseconds, or one more than the newest stamp the device has seen when
/// that is later, so a write made after seeing another device's value always wins over it, even
/// when the two devices' clocks disagree.
public struct UbiquitousSyncStamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970 (hybrid: never behind the newest stamp the device had seen).
    public var time: Int64
    /// The identifier of the device (the synced local store) that made the write.
    public var device: String

    /// A stamp for a write made at `time` by `device`.
    public init(time: Int64, device: String) {
        self.time = time
        self.device = device
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.time, lhs.device) < (rhs.time, rhs.device)
    }

    public var description: String { "\(time)@\(device)" }
}

/// What a synced key holds in iCloud: the value (or a tombstone when it was removed) and the
/// stamp of the write that made it, as a property-list dictionary `{"t": Int, "d": String, "v": value}`
/// (no `"v"`: removed).
struct UbiquitousSyncEnvelope: Equatable {
    var stamp: UbiquitousSyncStamp
    /// `nil`: a tombstone, the key was removed.
    var value: PropertyListValue?

    /// A stamp's time as stored: an `Int` where it fits, else unsigned (a 32-bit `Int`, on the
    /// watches of arm64_32, holds no time in milliseconds since 1970).
    static func storedTime(_ time: Int64) -> PropertyListValue {
        Int(exactly: time).map(PropertyListValue.int) ?? .uint(UInt64(max(time, 0)))
    }

    var propertyListValue: PropertyListValue {
        var members: [String: PropertyListValue] = ["t": Self.storedTime(stamp.time), "d": .string(stamp.device)]
        if let value { members["v"] = value }
        return .dictionary(members)
    }

    /// The envelope a backend object holds; `nil` for anything else.
    init?(_ value: PropertyListValue?) {
        guard case .dictionary(let members)? = value, case .string(let device)? = members["d"] else { return nil }
        let time: Int64
        switch members["t"] {
        case .int(let int)?: time = Int64(int)
        case .uint(let uint)? where uint <= UInt64(Int64.max): time = Int64(uint)
        default: return nil
        }
        self.init(stamp: UbiquitousSyncStamp(time: time, device: device), value: members["v"])
    }

    init(stamp: UbiquitousSyncStamp, value: PropertyListValue?) {
        self.stamp = stamp
        self.value = value
    }
}

extension UbiquitousSyncEnvelope {
    /// Whether `lhs` comes before `rhs` in an order every device computes alike (a removal first),
    /// which breaks the tie between two writes of one stamp: the greater value wins everywhere.
    /// Two writes share a stamp only when two stores share a device identifier (a backup restored
    /// onto another device, an app and its extension on one App Group suite) and write in the
    /// same millisecond of their hybrid clocks.
    static func precedes(_ lhs: PropertyListValue?, _ rhs: PropertyListValue?) -> Bool {
        guard let rhs else { return false }
        guard let lhs else { return true }
        return lhs.canonicallyPrecedes(rhs)
    }
}

extension PropertyListValue {
    /// A total order of values independent of the platform and of hashing: by kind, then by
    /// contents (numbers and dates by their bits, strings by their UTF-8, dictionaries by their
    /// sorted keys, then their values).
    fileprivate func canonicallyPrecedes(_ other: PropertyListValue) -> Bool {
        switch (self, other) {
        case (.bool(let a), .bool(let b)): return !a && b
        case (.int(let a), .int(let b)): return a < b
        case (.uint(let a), .uint(let b)): return a < b
        case (.double(let a), .double(let b)): return a.bitPattern < b.bitPattern
        case (.date(let a), .date(let b)): return a.timeIntervalSinceReferenceDate.bitPattern < b.timeIntervalSinceReferenceDate.bitPattern
        case (.string(let a), .string(let b)): return a.utf8.lexicographicallyPrecedes(b.utf8)
        case (.data(let a), .data(let b)): return a.lexicographicallyPrecedes(b)
        case (.array(let a), .array(let b)):
            return a.lexicographicallyPrecedes(b) { $0.canonicallyPrecedes($1) }
        case (.dictionary(let a), .dictionary(let b)):
            let aKeys = a.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let bKeys = b.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            guard aKeys == bKeys else { return aKeys.lexicographicallyPrecedes(bKeys) { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
            return aKeys.map { a[$0]! }.lexicographicallyPrecedes(bKeys.map { b[$0]! }) { $0.canonicallyPrecedes($1) }
        default: return kindRank < other.kindRank
        }
    }

    private var kindRank: Int {
        switch self {
        case .bool: 0
        case .int: 1
        case .uint: 2
        case .double: 3
        case .date: 4
        case .string: 5
        case .data: 6
        case .array: 7
        case .dictionary: 8
        }
    }
}
