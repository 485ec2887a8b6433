/// The UTF-8 bytes of a small string, read from the `String` value itself.
///
/// A string of up to 15 bytes of UTF-8 is held in the value's two words, with no storage object.
/// On 64-bit platforms (but Android's arm64, whose discriminator sits lower, to leave the top
/// byte to pointer tags) their layout is part of the standard library's ABI: the bytes in order
/// (little-endian, so the first byte is the low byte of `low`), then a discriminator byte whose
/// 0x20 bit marks a small string and whose low four bits are the count. Reading them costs a few
/// instructions; `utf8.withContiguousStorageIfAvailable` copies a small string to the stack
/// first (about 90), and `utf8.first` and `utf8.last` cost about 80 each.
@usableFromInline
struct _SmallUTF8 {
    /// Bytes 0 to 7.
    @usableFromInline let low: UInt64
    /// Bytes 8 to 14, and the discriminator in the top byte.
    @usableFromInline let high: UInt64
    /// How many bytes, 0 to 15.
    @usableFromInline let count: Int

    /// The bytes of `string` if it is small; `nil` for any other string (and on platforms whose
    /// layout is not read here), whose bytes are then read the usual way.
    @usableFromInline @inline(__always)
    init?(_ string: String) {
        guard let (low, high) = _stringWords(string), high &>> 56 & 0x20 != 0 else { return nil }
        self.low = low
        self.high = high
        count = Int(truncatingIfNeeded: high &>> 56 & 0x0F)
    }

    /// Whether every byte is ASCII. (The bytes past ``count`` are zero: the layout keeps them so.)
    @inline(__always)
    var isASCII: Bool {
        (low | high & 0x00FF_FFFF_FFFF_FFFF) & 0x8080_8080_8080_8080 == 0
    }

    /// The byte at `index`, which is below ``count``.
    @inline(__always)
    func byte(at index: Int) -> UInt8 {
        let word = index < 8 ? low : high
        return UInt8(truncatingIfNeeded: word &>> UInt64(truncatingIfNeeded: (index & 7) &* 8))
    }
}

/// The two words of a `String` value, on the platforms whose layout is read here (64-bit, but
/// Android's arm64: see ``_SmallUTF8``); `nil` elsewhere.
@usableFromInline @inline(__always)
func _stringWords(_ string: String) -> (low: UInt64, high: UInt64)? {
    #if (arch(x86_64) || arch(arm64)) && !os(Android)
    unsafeBitCast(string, to: (UInt64, UInt64).self)
    #else
    nil
    #endif
}
