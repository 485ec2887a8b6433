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

    init() {}

    /// Whether `key` may have handlers: `false` only if it has none.
    func mayContain(_ key: String) -> Bool {
        let (index, mask) = Self.position(of: key)
        return load(index) & mask != 0 || passesAll.load(ordering: .acquiring) || !Self.isASCII(key)
    }

    /// Sets the bit of `key`, which has gained a handler (under the center's lock).
    func insert(_ key: String) {
        if !Self.isASCII(key) { passesAll.store(true, ordering: .releasing) }
        let (index, mask) = Self.position(of: key)
        switch index {
        case 0: word0.bitwiseOr(mask, ordering: .releasing)
        case 1: word1.bitwiseOr(mask, ordering: .releasing)
        case 2: word2.bitwiseOr(mask, ordering: .releasing)
        default: word3.bitwiseOr(mask, ordering: .releasing)
        }
    }

    /// Sets exactly the bits of `keys`, the keys with handlers, after one lost its last (under the
    /// center's lock). A key among them keeps its bit set throughout.
    func rebuild(from keys: some Sequence<String>) {
        var words: [UInt64] = [0, 0, 0, 0]
        var passesAll = false
        for key in keys {
            let (index, mask) = Self.position(of: key)
            words[index] |= mask
            if !Self.isASCII(key) { passesAll = true }
        }
        word0.store(words[0], ordering: .releasing)
        word1.store(words[1], ordering: .releasing)
        word2.store(words[2], ordering: .releasing)
        word3.store(words[3], ordering: .releasing)
        self.passesAll.store(passesAll, ordering: .releasing)
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
