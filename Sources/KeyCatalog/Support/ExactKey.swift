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
        var string = string  // `withUTF8` is mutating: it makes a bridged string native first.
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
