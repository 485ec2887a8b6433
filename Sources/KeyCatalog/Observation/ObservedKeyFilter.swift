#if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
import Synchronization

/// Which keys of a ``KeyValueChangeCenter`` may have handlers, read without its lock: 256 bits,
/// one for each fingerprint of a key (its UTF-8 length, first and last byte).
///
/// In an app whose catalog keys are read, some keys are always observed (Observation tracks
/// them), so every write of any other key would look its key up under the center's lock to find
/// nobody: a hash of the key, about 470 instructions, most of an in-memory write. A post of a key
/// whose bit is clear returns at once. A set bit may belong to another key; the center then looks
/// the key up as before. (`Atomic` needs macOS 15 and iOS 18: there, the lookup.)
///
/// The center finds keys by `String` equality, which is canonical equivalence: `"caf\u{E9}"` and
/// `"cafe\u{301}"`, even `"\u{212A}"` (KELVIN SIGN) and `"K"`, are one key to it, with other
/// bytes. A fingerprint of the bytes tells such keys apart, so it decides only where bytes and
/// `String` equality agree, among ASCII keys: a key that is not ASCII always passes, and while
/// one that is not ASCII is observed, every key passes.
struct _ObservedKeyFilter: ~Copyable, Sendable {
    private let word0 = Atomic<UInt64>(0)
    private let word1 = Atomic<UInt64>(0)
    private let word2 = Atomic<UInt64>(0)
    private let word3 = Atomic<UInt64>(0)
    /// Whether a key that is not ASCII is observed: then every key passes.
    private let passesAll = Atomic<Bool>(false)
    /// How many observed keys set each bit, and how many are not ASCII: a key that loses its last
    /// handler clears its bit only if no other key set it, without a walk of every observed key.
    /// Changed only under the center's lock; locked too, for `Sendable`.
    private let counts = _Locked(Counts())

    private struct Counts {
        var bits = [UInt32](repeating: 0, count: 256)
        var notASCII = 0
    }

    init() {}

    /// Whether `key` may have handlers: `false` only if it has none.
    func mayContain(_ key: String) -> Bool {
        let (index, mask) = Self.position(of: key)
        return load(index) & mask != 0 || passesAll.load(ordering: .acquiring) || !Self.isASCII(key)
    }

    /// Notes `key`, which has gained its first handler (under the center's lock).
    func insert(_ key: String) {
        let (index, mask) = Self.position(of: key)
        let isASCII = Self.isASCII(key)
        counts.withLock { counts in
            counts.bits[index << 6 | mask.trailingZeroBitCount] += 1
            if !isASCII { counts.notASCII += 1 }
        }
        if !isASCII { passesAll.store(true, ordering: .releasing) }
        update(index, mask, set: true)
    }

    /// Notes that `key`, noted by ``insert(_:)``, lost its last handler (under the center's lock):
    /// its bit stays set while another observed key has it.
    func remove(_ key: String) {
        let (index, mask) = Self.position(of: key)
        let isASCII = Self.isASCII(key)
        let (clearsBit, clearsPassesAll) = counts.withLock { counts in
            counts.bits[index << 6 | mask.trailingZeroBitCount] -= 1
            if !isASCII { counts.notASCII -= 1 }
            return (counts.bits[index << 6 | mask.trailingZeroBitCount] == 0, !isASCII && counts.notASCII == 0)
        }
        if clearsBit { update(index, mask, set: false) }
        if clearsPassesAll { passesAll.store(false, ordering: .releasing) }
    }

    /// Sets (`set`) or clears the bits of `mask` in word `index`.
    private func update(_ index: Int, _ mask: UInt64, set: Bool) {
        switch (index, set) {
        case (0, true): word0.bitwiseOr(mask, ordering: .releasing)
        case (0, false): word0.bitwiseAnd(~mask, ordering: .releasing)
        case (1, true): word1.bitwiseOr(mask, ordering: .releasing)
        case (1, false): word1.bitwiseAnd(~mask, ordering: .releasing)
        case (2, true): word2.bitwiseOr(mask, ordering: .releasing)
        case (2, false): word2.bitwiseAnd(~mask, ordering: .releasing)
        case (_, true): word3.bitwiseOr(mask, ordering: .releasing)
        case (_, false): word3.bitwiseAnd(~mask, ordering: .releasing)
        }
    }

    private func load(_ index: Int) -> UInt64 {
        switch index {
        case 0: word0.load(ordering: .acquiring)
        case 1: word1.load(ordering: .acquiring)
        case 2: word2.load(ordering: .acquiring)
        default: word3.load(ordering: .acquiring)
        }
    }

    /// The word and bit of `key`'s fingerprint: its UTF-8 length, first and last byte, mixed by
    /// multiplication (keys often share a prefix, rarely a length and a last byte too).
    private static func position(of key: String) -> (index: Int, mask: UInt64) {
        // A small string's bytes read from its value, a native string's in place: `utf8.first`
        // and `utf8.last` cost about 80 instructions each.
        let hash: UInt64
        if let small = _SmallUTF8(key) {
            let count = small.count
            hash = fingerprint(count: count, first: count == 0 ? 0 : small.byte(at: 0), last: count == 0 ? 0 : small.byte(at: count - 1))
        } else {
            hash = key.utf8.withContiguousStorageIfAvailable(fingerprint) ?? fingerprint(key.utf8)
        }
        let bit = Int(truncatingIfNeeded: hash >> 56)
        return (bit >> 6, 1 << UInt64(bit & 63))
    }

    /// Whether every byte of `key` is ASCII: read from a small string's value, or eight bytes at a
    /// time.
    private static func isASCII(_ key: String) -> Bool {
        if let small = _SmallUTF8(key) { return small.isASCII }
        let answer = key.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let base = bytes.baseAddress else { return true }
            var bits: UInt64 = 0
            var offset = 0
            while offset &+ 8 <= bytes.count {
                bits |= UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
            while offset < bytes.count {
                bits |= UInt64(base[offset])
                offset &+= 1
            }
            return bits & 0x8080_8080_8080_8080 == 0
        }
        return answer ?? key.utf8.allSatisfy { $0 < 0x80 }
    }

    private static func fingerprint(_ bytes: some BidirectionalCollection<UInt8>) -> UInt64 {
        fingerprint(count: bytes.count, first: bytes.first ?? 0, last: bytes.last ?? 0)
    }

    /// (An empty key's first and last byte are 0, which the products leave out.)
    private static func fingerprint(count: Int, first: UInt8, last: UInt8) -> UInt64 {
        UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
            ^ UInt64(first) &* 0xC2B2_AE3D_27D4_EB4F
            ^ UInt64(last) &* 0x1656_67B1_9E37_79F9
    }
}
#endif
