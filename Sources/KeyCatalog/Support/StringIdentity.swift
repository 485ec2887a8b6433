/// The two words of an immortal `String` value, compared instead of its contents.
///
/// An immortal string is one the runtime never frees: a small string (up to 15 bytes of UTF-8,
/// its bytes in the words themselves) or a literal (its count and the address of its constant
/// bytes, in the program's image: only unloading a library with `dlclose` would take them away,
/// and Swift libraries are not unloaded). The words are part of the standard library's ABI on
/// 64-bit platforms but Android's arm64; the top bit of the second marks an immortal string.
/// Equal words mean equal strings; unequal words say nothing (the same text may sit in another
/// string). Comparing them costs two instructions; hashing a string for a dictionary, about 300.
///
/// Keys declared in code are literals or small: the catalog's, and those of `static let` keys.
/// A key built at run time (`"\(listID).layout"`) longer than 15 bytes has storage of its own,
/// and no identity here.
struct _StringIdentity: Equatable {
    let low: UInt64
    let high: UInt64

    /// No immortal string has these words (its top bit is set): an empty slot.
    static let none = _StringIdentity(low: 0, high: 0)

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The words of `string` if it is immortal; `nil` for any other string, and on platforms whose
    /// `String` layout is not read here.
    @inline(__always)
    init?(_ string: String) {
        guard let (low, high) = _stringWords(string), high & (1 << 63) != 0 else { return nil }
        self.low = low
        self.high = high
    }

    /// A slot for these words among `1 << bits` (`bits` from 1 to 63).
    @inline(__always)
    func slot(amongPowerOfTwo bits: Int) -> Int {
        Int(truncatingIfNeeded: ((low ^ high) &* 0x9E37_79B9_7F4A_7C15) &>> UInt64(64 - bits))
    }
}
