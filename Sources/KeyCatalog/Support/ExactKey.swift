#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// A `String` that equals another only when their UTF-8 bytes are the same, as CoreFoundation
/// compares the keys of a UserDefaults suite. Swift compares strings by canonical equivalence:
/// `"é"` (U+00E9) and `"e\u{301}"` (e and a combining accent) are one `String` but two keys of a
/// suite, and a `[String: …]` of a suite's keys would give one key's value for the other.
struct _ExactKey: Hashable {
    let string: String

    init(_ string: String) {
        self.string = string
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        let (left, right) = (lhs.string.utf8, rhs.string.utf8)
        guard left.count == right.count else { return false }
        // Native strings hold their UTF-8 contiguously: compared with `memcmp`, where comparing
        // the views element by element cost about 600 instructions for 17 bytes.
        let compared = left.withContiguousStorageIfAvailable { left in
            right.withContiguousStorageIfAvailable { right in
                left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
        return (compared ?? nil) ?? left.elementsEqual(right)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(_rawHashValue(seed: 0))
    }

    /// What `Dictionary` and `Set` hash a key with: ``bytesHash(_:seed:)`` of its UTF-8, mixed
    /// with the table's seed. Through `Hasher` (SipHash-1-3), hashing a 17-byte key cost about
    /// 500 instructions; this costs about 140 (callgrind).
    func _rawHashValue(seed: Int) -> Int {
        var string = string  // `withUTF8` is mutating: it makes a bridged string native first.
        return string.withUTF8 { Self.bytesHash($0, seed: UInt64(bitPattern: Int64(seed))) }
    }

    /// A secret of this process, from `Hasher` (random in each process, as `Hasher`'s own seeds
    /// are, unless `SWIFT_DETERMINISTIC_HASHING` is set), so that which keys collide cannot be
    /// known outside it. Each half is drawn from two hashes of labels no app hashes (a hash value
    /// the app might log or send would give it away), so that it has 64 random bits also where
    /// `Int` has 32.
    private static let secret: (UInt64, UInt64) = {
        func draw(_ label: StaticString) -> UInt64 {
            func hash(_ part: UInt8) -> UInt64 {
                var hasher = Hasher()
                hasher.combine(bytes: UnsafeRawBufferPointer(start: label.utf8Start, count: label.utf8CodeUnitCount))
                hasher.combine(part)
                return UInt64(truncatingIfNeeded: UInt(bitPattern: hasher.finalize()))
            }
            let (first, second) = (hash(1), hash(2))
            return (first << 32 | first >> 32) ^ second | 1
        }
        return (draw("KeyCatalog._ExactKey.secret.0"), draw("KeyCatalog._ExactKey.secret.1"))
    }()

    /// A 64-bit hash of `bytes`, after wyhash (the hash Go's maps and Zig's standard library use,
    /// also with a secret seed): each 16 bytes folded in by one 128-bit multiplication.
    @inline(__always)
    static func bytesHash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> Int {
        let (secret0, secret1) = secret
        let count = bytes.count
        var state = seed ^ secret0
        var (a, b): (UInt64, UInt64) = (0, 0)
        if let base = bytes.baseAddress.map(UnsafeRawPointer.init) {
            func load64(_ offset: Int) -> UInt64 {
                UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
            func load32(_ offset: Int) -> UInt64 {
                UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            }
            if count > 16 {
                var offset = 0
                while count - offset > 16 {
                    state = mix(load64(offset) ^ secret1, load64(offset + 8) ^ state)
                    offset += 16
                }
                a = load64(count - 16)
                b = load64(count - 8)
            } else if count >= 4 {
                // Four (possibly overlapping) 4-byte reads cover every byte.
                let step = (count >> 3) << 2
                a = load32(0) << 32 | load32(step)
                b = load32(count - 4) << 32 | load32(count - 4 - step)
            } else if count > 0 {
                a = UInt64(bytes[0]) << 16 | UInt64(bytes[count >> 1]) << 8 | UInt64(bytes[count - 1])
            }
        }
        return Int(truncatingIfNeeded: mix(mix(a ^ secret1, b ^ state) ^ secret0 ^ UInt64(count), secret1))
    }

    /// The two halves of the 128-bit product, folded.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
