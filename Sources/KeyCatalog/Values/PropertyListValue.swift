import Foundation

/// A value as a key-value store keeps it: a property-list primitive or a homogeneous-free tree of them.
///
/// Every representation converts a Swift value to and from a `PropertyListValue`, and every store
/// keeps `PropertyListValue`s, so a new store works with every representation and every key.
///
/// ```swift
/// let stored: PropertyListValue = .array([.string("a"), .string("b")])
/// ```
public enum PropertyListValue: Sendable, Hashable {
    /// A Boolean.
    case bool(Bool)
    /// A signed integer.
    case int(Int)
    /// An unsigned integer above `Int.max`; smaller ones are stored as ``int(_:)``.
    case uint(UInt64)
    /// A floating-point number (`Float` is stored as one).
    case double(Double)
    /// A string.
    case string(String)
    /// Bytes.
    case data(Data)
    /// A date, as property lists store them natively.
    case date(Date)
    /// An array of values.
    case array([PropertyListValue])
    /// A dictionary with string keys.
    case dictionary([String: PropertyListValue])

    /// Whether two values are the same stored value: as their Swift values compare, except that
    /// a NaN equals a NaN (a `Double`'s, or a `Date`'s seconds). A store keeps a NaN as it is, so
    /// a NaN read back is the NaN written: a migration's check of what it wrote, and an observer's
    /// "changed since last heard", must say so (with `Double`'s own `==`, a NaN never moved, and
    /// every check of a watched NaN announced a change).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.bool(let left), .bool(let right)): left == right
        case (.int(let left), .int(let right)): left == right
        case (.uint(let left), .uint(let right)): left == right
        case (.double(let left), .double(let right)): left == right || (left.isNaN && right.isNaN)
        case (.string(let left), .string(let right)): left == right
        case (.data(let left), .data(let right)): left == right
        case (.date(let left), .date(let right)):
            left == right || (left.timeIntervalSinceReferenceDate.isNaN && right.timeIntervalSinceReferenceDate.isNaN)
        case (.array(let left), .array(let right)): left == right
        case (.dictionary(let left), .dictionary(let right)): left == right
        default: false
        }
    }

    /// Whether two values are stored alike, bit for bit: as `==`, except that a `Double`'s or a
    /// `Date`'s bits must agree (`0.0` and `-0.0`, two NaN payloads, differ) and strings compare
    /// by their UTF-8 bytes (`café` composed and decomposed differ), dictionaries' keys too. What
    /// tells observers' deliveries a change: a store that now holds other bits changed (found by a
    /// review: with `==`, a `-0.0` written over `0.0`, or a string in its other normalization,
    /// left observers on the old value).
    func isIdentical(to other: Self) -> Bool {
        switch (self, other) {
        case (.double(let left), .double(let right)): left.bitPattern == right.bitPattern
        case (.date(let left), .date(let right)): left.timeIntervalSinceReferenceDate.bitPattern == right.timeIntervalSinceReferenceDate.bitPattern
        case (.string(let left), .string(let right)): left.utf8.elementsEqual(right.utf8)
        case (.array(let left), .array(let right)): left.count == right.count && zip(left, right).allSatisfy { $0.isIdentical(to: $1) }
        case (.dictionary(let left), .dictionary(let right)): Self.isIdentical(left, right)
        default: self == other
        }
    }

    /// ``isIdentical(to:)`` for what a store holds for a key: no value is identical only to none.
    static func isIdentical(_ left: Self?, _ right: Self?) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case (let left?, let right?): left.isIdentical(to: right)
        default: false
        }
    }

    private static func isIdentical(_ left: [String: Self], _ right: [String: Self]) -> Bool {
        guard left.count == right.count else { return false }
        for (key, value) in left {
            guard let index = right.index(forKey: key), right[index].key.utf8.elementsEqual(key.utf8), right[index].value.isIdentical(to: value) else {
                return false
            }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .bool(let value): hasher.combine(0 as UInt8); hasher.combine(value)
        case .int(let value): hasher.combine(1 as UInt8); hasher.combine(value)
        case .uint(let value): hasher.combine(2 as UInt8); hasher.combine(value)
        // Every NaN hashes as one, as they compare equal.
        case .double(let value): hasher.combine(3 as UInt8); hasher.combine(value.isNaN ? .nan : value)
        case .string(let value): hasher.combine(4 as UInt8); hasher.combine(value)
        case .data(let value): hasher.combine(5 as UInt8); hasher.combine(value)
        case .date(let value):
            hasher.combine(6 as UInt8)
            let seconds = value.timeIntervalSinceReferenceDate
            hasher.combine(seconds.isNaN ? .nan : seconds)
        case .array(let value): hasher.combine(7 as UInt8); hasher.combine(value)
        case .dictionary(let value): hasher.combine(8 as UInt8); hasher.combine(value)
        }
    }
}

extension PropertyListValue {
    /// The name of the case, for messages: `"an integer"`, `"a string"`…
    public var kindDescription: String {
        switch self {
        case .bool: "a boolean"
        case .int, .uint: "an integer"
        case .double: "a floating-point number"
        case .string: "a string"
        case .data: "data"
        case .date: "a date"
        case .array: "an array"
        case .dictionary: "a dictionary"
        }
    }

    /// Checks that the value can be written to a property list (XML or binary) and read back unchanged.
    ///
    /// XML property lists, which UserDefaults writes on Linux, may not hold most C0 control
    /// characters (XML 1.0 forbids them): Foundation on Linux writes them anyway, but other
    /// readers of the file may reject it whole. So they are refused everywhere, in memory too.
    /// So are arrays and dictionaries nested more than ``maximumNesting`` deep: Foundation writes
    /// them, then cannot read the file back (every value in it lost at the next launch). And dates
    /// whose seconds are not finite: no property list reads one back as written (XML loses the
    /// file), and Foundation on Linux traps describing one.
    ///
    /// - Throws: ``PropertyListValue/IncompatibilityError`` naming the offending path.
    @inlinable
    public func validateForPropertyList() throws(IncompatibilityError) {
        switch self {
        // Inline, so that a write of a number, or of a short string with nothing to refuse,
        // decides this without a call.
        case .bool, .int, .uint, .double, .data: return
        case .date(let date):
            if !date.timeIntervalSinceReferenceDate.isFinite { try validateContents() }
        case .string(let string):
            guard !Self.isSmallAndClear(string) else { return }
            try validateContents()
        case .array, .dictionary: try validateContents()
        }
    }

    /// How deep arrays and dictionaries may nest in a value: 511, an array of numbers being 1.
    /// Foundation reads a property list file back only up to 512 levels, the file's own
    /// dictionary among them (measured on Linux, binary and XML alike).
    public static let maximumNesting = 511

    /// The check of a string, array or dictionary.
    @usableFromInline
    func validateContents() throws(IncompatibilityError) {
        // The common case, valid, without building the path of every element; the path is only
        // worked out once something is wrong.
        guard !isValidForPropertyList(nesting: 1) else { return }
        try validate(path: "", nesting: 1)
    }

    /// `nesting`: how many arrays and dictionaries hold this value, itself included if it is one.
    private func isValidForPropertyList(nesting: Int) -> Bool {
        switch self {
        case .string(let string):
            return !Self.mayHoldControlOrSpecialScalar(string) || Self.forbiddenScalar(in: string) == nil
        case .array(let elements):
            guard nesting <= Self.maximumNesting else { return false }
            for element in elements where !element.isValidElement(nesting: nesting + 1) { return false }
            return true
        case .dictionary(let members):
            guard nesting <= Self.maximumNesting else { return false }
            for (key, member) in members where Self.forbiddenScalar(in: key) != nil || !member.isValidElement(nesting: nesting + 1) {
                return false
            }
            return true
        case .date(let date):
            return date.timeIntervalSinceReferenceDate.isFinite
        case .bool, .int, .uint, .double, .data:
            return true
        }
    }

    /// An element's check, with strings and scalars decided here rather than by a recursive call
    /// (which cost a `[String]` of four about 300 instructions an element).
    @inline(__always)
    private func isValidElement(nesting: Int) -> Bool {
        switch self {
        case .string(let string): !Self.mayHoldControlOrSpecialScalar(string) || Self.forbiddenScalar(in: string) == nil
        case .bool, .int, .uint, .double, .data: true
        case .date(let date): date.timeIntervalSinceReferenceDate.isFinite
        case .array, .dictionary: isValidForPropertyList(nesting: nesting)
        }
    }

    private func validate(path: String, nesting: Int) throws(IncompatibilityError) {
        switch self {
        case .string(let string):
            if let scalar = Self.forbiddenScalar(in: string) {
                throw IncompatibilityError(
                    path: path,
                    reason: "string contains control character U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))"
                )
            }
        case .array(let elements):
            try Self.checkNesting(nesting, at: path)
            for (index, element) in elements.enumerated() {
                try element.validate(path: "\(path)[\(index)]", nesting: nesting + 1)
            }
        case .dictionary(let members):
            try Self.checkNesting(nesting, at: path)
            for (key, member) in members {
                if let scalar = Self.forbiddenScalar(in: key) {
                    throw IncompatibilityError(
                        path: path,
                        reason: "dictionary key contains control character U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))"
                    )
                }
                try member.validate(path: "\(path)[\"\(key)\"]", nesting: nesting + 1)
            }
        case .date(let date):
            if !date.timeIntervalSinceReferenceDate.isFinite { throw IncompatibilityError(path: path, reason: Self.nonFiniteDate) }
        case .bool, .int, .uint, .double, .data:
            break
        }
    }

    /// Why a date whose seconds are NaN or infinite is refused.
    private static let nonFiniteDate = "date is not finite (its seconds are NaN or infinite)"

    private static func checkNesting(_ nesting: Int, at path: String) throws(IncompatibilityError) {
        guard nesting > maximumNesting else { return }
        throw IncompatibilityError(
            path: path,
            reason: "arrays and dictionaries nest more than \(maximumNesting) deep here, and Foundation cannot read a property list file holding that back"
        )
    }

    /// The first character an XML property list cannot hold, if any. Scans UTF-8 bytes: every
    /// forbidden scalar is a C0 control byte or U+FFFE/U+FFFF (EF BF BE / EF BF BF), so nearly all
    /// strings are cleared without decoding a scalar.
    private static func forbiddenScalar(in string: String) -> Unicode.Scalar? {
        guard mayHoldControlOrSpecialScalar(string) else { return nil }
        return string.unicodeScalars.first(where: isForbiddenInXML)
    }

    /// Whether `string` may hold a C0 control character other than tab, line feed and carriage
    /// return, or a scalar from U+F000 to U+FFFF (U+FEFF, U+FFFE, U+FFFF among them); `false`
    /// means it holds none. The quick test before any check that decodes scalars.
    @usableFromInline @inline(__always)
    static func mayHoldControlOrSpecialScalar(_ string: String) -> Bool {
        !isSmallAndClear(string) && mayHoldForbiddenByte(in: string)
    }

    /// The scan of ``mayHoldControlOrSpecialScalar(_:)`` beyond small strings, out of line.
    @usableFromInline @inline(never)
    static func mayHoldForbiddenByte(in string: String) -> Bool {
        // Over the contiguous UTF-8 bytes (native and small strings have them): iterating
        // `String.UTF8View` index by index cost ~35 instructions a byte.
        string.utf8.withContiguousStorageIfAvailable(mayHoldForbiddenByte) ?? mayHoldForbiddenByteOneByOne(string.utf8)
    }

    /// Whether `string` is a small string (``_SmallUTF8``) with no byte the scan flags; `false`
    /// for any other string, which the scan then reads. About 20 instructions, against about 90
    /// for the scan of a small string (which copies it out to give its bytes a pointer): a
    /// `[String]` write checks every element. StringScanTests puts every forbidden scalar at every
    /// position of every length up to 24 bytes.
    ///
    /// (Usable from inlinable code: a write of a short string decides its check inline.)
    @usableFromInline @inline(__always)
    static func isSmallAndClear(_ string: String) -> Bool {
        guard let small = _SmallUTF8(string) else { return false }
        let count = UInt64(truncatingIfNeeded: small.count)
        // Bytes past the end (and the discriminator) read as spaces, which pass. Up to eight
        // bytes (most strings in keys' values) are all in the first word.
        let spaces: UInt64 = 0x2020_2020_2020_2020
        guard count > 8 else {
            let kept: UInt64 = count == 8 ? ~0 : (1 &<< (count &* 8)) &- 1
            return !isFlagged(small.low & kept | spaces & ~kept)
        }
        let highKept: UInt64 = (1 &<< ((count &- 8) &* 8)) &- 1
        return !isFlagged(small.low) && !isFlagged(small.high & highKept | spaces & ~highKept)
    }

    /// Whether a word of eight UTF-8 bytes may hold a byte below 0x20 or equal to 0xEF.
    ///
    /// `(x - 0x0101…01 * n) & ~x & 0x8080…80` is nonzero exactly when some byte of `x` is below
    /// `n` (at most 0x80), though a borrow may flag a neighbouring byte too ("Bit Twiddling Hacks",
    /// `hasless`). Both tests, bytes below 0x20 and bytes equal to 0xEF (below 1 once xored with
    /// 0xEF), are made at once, with no branch between them.
    @usableFromInline @inline(__always)
    static func isFlagged(_ word: UInt64) -> Bool {
        let efs = word ^ 0xEFEF_EFEF_EFEF_EFEF
        return ((word &- 0x2020_2020_2020_2020) & ~word | (efs &- 0x0101_0101_0101_0101) & ~efs) & 0x8080_8080_8080_8080 != 0
    }

    /// Eight bytes at a time while no byte is below 0x20 or equal to 0xEF (the usual case), then
    /// byte by byte: every write runs this over its key and strings, some of them twice.
    private static func mayHoldForbiddenByte(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= 8 else { return mayHoldForbiddenShortBytes(bytes) }
        func flagged(at index: Int) -> Bool {
            isFlagged(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
        }
        var index = 0
        while index + 8 <= bytes.count {
            if flagged(at: index) { return mayHoldForbiddenByteOneByOne(UnsafeBufferPointer(rebasing: bytes[index...])) }
            index += 8
        }
        // The tail: the last eight bytes, overlapping the word before.
        let last = bytes.count - 8
        guard index < bytes.count, flagged(at: last) else { return false }
        return mayHoldForbiddenByteOneByOne(UnsafeBufferPointer(rebasing: bytes[last...]))
    }

    /// Fewer than eight bytes: in one word, the rest spaces (which pass).
    @inline(never)
    private static func mayHoldForbiddenShortBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var word: UInt64 = 0x2020_2020_2020_2020
        withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        word = UInt64(littleEndian: word)
        guard isFlagged(word) else { return false }
        return mayHoldForbiddenByteOneByOne(bytes)
    }

    @inline(__always)
    private static func mayHoldForbiddenByteOneByOne<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        for byte in bytes where byte < 0x20 || byte == 0xEF {
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            return true
        }
        return false
    }

    private static func isForbiddenInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00..<0x20, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    /// A value that a property list cannot hold.
    public struct IncompatibilityError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Where in the value the problem is, like `[2]["name"]`; empty for the value itself.
        public var path: String
        /// Why a property list cannot hold it.
        public var reason: String

        public var description: String {
            path.isEmpty
                ? "value is not property-list compatible: \(reason)"
                : "value is not property-list compatible at \(path): \(reason)"
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
