/// Whether the compiler, reading a decimal literal through x86's 80-bit float and then rounding
/// that to a `Float` or `Double`, gets a value other than the literal's correctly rounded one:
/// rounded twice, a decimal just beside a halfway point between two values lands on it, and then
/// goes to the even one (`1.7976931348623158079e308` as a `Double`,
/// `340282356779733661637539395458142568447.0` as a `Float`: both become infinity).
///
/// Worked out exactly, with integers, so that every host answers alike: the generator runs on
/// arm64 too, which has no 80-bit float, and what it writes may be compiled for x86_64.
///
/// ```swift
/// DoubleRounding.changes("1.7976931348623158079e308", value: Double.greatestFiniteMagnitude)  // true
/// ```
enum DoubleRounding {
    /// Whether reading `literal` (a JSON number: digits, an optional fraction and exponent)
    /// through an 80-bit float gives another value than `value`, its correctly rounded value, a
    /// finite normal nonzero `F`.
    static func changes<F: BinaryFloatingPoint>(_ literal: String, value: F) -> Bool {
        guard value.isNormal, let decimal = DecimalNumber(literal) else { return false }
        // Landing on a halfway point, the second rounding goes to the neighbour with an even
        // significand: the value itself, unless its significand is odd.
        let precision = F.significandBitCount + 1
        let significand = UInt64(value.magnitude.significandBitPattern) | (1 << UInt64(precision - 1))
        guard significand & 1 == 1 else { return false }
        // The halfway points below and above, as M x 2^exponent: (2s - 1) and (2s + 1) times half a
        // unit in the last place (the one below the smallest significand is never needed: that
        // significand is even).
        let exponent = Int(value.magnitude.exponent) - precision
        return [2 * significand - 1, 2 * significand + 1].contains { halfway in
            decimal.isWithinHalfAnExtendedUnit(of: halfway, times: exponent)
        }
    }

    /// A decimal number, digits x 10^exponent (its magnitude: the sign changes nothing here).
    private struct DecimalNumber {
        var digits: BigUInt
        var exponent: Int

        init?(_ text: String) {
            var digits = BigUInt(0)
            var exponent = 0
            var sawDigit = false
            var inFraction = false
            var scalars = Substring(text).unicodeScalars[...]
            if scalars.first == "-" || scalars.first == "+" { scalars = scalars.dropFirst() }
            while let scalar = scalars.first, scalar != "e", scalar != "E" {
                scalars = scalars.dropFirst()
                if scalar == "." {
                    inFraction = true
                    continue
                }
                guard ("0"..."9").contains(scalar) else { return nil }
                digits.multiply(by: 10, adding: scalar.value - 0x30)
                sawDigit = true
                if inFraction { exponent -= 1 }
            }
            if !scalars.isEmpty {
                guard let power = Int(String(scalars.dropFirst())) else { return nil }
                exponent += power
            }
            guard sawDigit, abs(exponent) < 100_000 else { return nil }
            self.digits = digits
            self.exponent = exponent
        }

        /// Whether |self - m x 2^e| is at most half a unit in the last place of an 80-bit float
        /// (64-bit significand) at m x 2^e: then the 80-bit float read is that point itself.
        func isWithinHalfAnExtendedUnit(of m: UInt64, times e: Int) -> Bool {
            // The point's binary exponent, and half its 80-bit unit: 2^(top - 64).
            let top = e + (64 - m.leadingZeroBitCount) - 1
            let half = top - 64
            // All three over one common denominator, 2^twos x 10^tens.
            let twos = max(0, -e, -half)
            let tens = max(0, -exponent)
            var decimal = digits
            decimal.multiply(byPowerOf10: exponent + tens)
            decimal.shiftLeft(by: twos)
            var point = BigUInt(m)
            point.multiply(byPowerOf10: tens)
            point.shiftLeft(by: e + twos)
            var bound = BigUInt(1)
            bound.multiply(byPowerOf10: tens)
            bound.shiftLeft(by: half + twos)
            let distance = decimal < point ? point.subtracting(decimal) : decimal.subtracting(point)
            return !(bound < distance)
        }
    }

    /// An unsigned integer of any size: 32-bit words, least significant first, no zero words on
    /// top. Only what ``DecimalNumber`` needs.
    struct BigUInt: Comparable {
        private(set) var words: [UInt32]

        init(_ value: UInt64) {
            words = [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)]
            normalize()
        }

        private mutating func normalize() {
            while words.last == 0 { words.removeLast() }
        }

        mutating func multiply(by factor: UInt32, adding addend: UInt32 = 0) {
            var carry = UInt64(addend)
            for index in words.indices {
                let product = UInt64(words[index]) * UInt64(factor) + carry
                words[index] = UInt32(truncatingIfNeeded: product)
                carry = product >> 32
            }
            if carry > 0 { words.append(UInt32(carry)) }
            normalize()
        }

        mutating func multiply(byPowerOf10 power: Int) {
            var rest = power
            while rest >= 9 {
                multiply(by: 1_000_000_000)
                rest -= 9
            }
            for _ in 0..<rest { multiply(by: 10) }
        }

        mutating func shiftLeft(by bits: Int) {
            guard bits > 0, !words.isEmpty else { return }
            let (wordShift, bitShift) = bits.quotientAndRemainder(dividingBy: 32)
            var shifted = [UInt32](repeating: 0, count: wordShift)
            var carry: UInt32 = 0
            for word in words {
                shifted.append(bitShift == 0 ? word : (word << UInt32(bitShift)) | carry)
                carry = bitShift == 0 ? 0 : word >> UInt32(32 - bitShift)
            }
            if carry > 0 { shifted.append(carry) }
            words = shifted
            normalize()
        }

        /// `self - other`, for `other` at most `self`.
        func subtracting(_ other: BigUInt) -> BigUInt {
            var result = self
            var borrow: Int64 = 0
            for index in result.words.indices {
                var difference = Int64(result.words[index]) - borrow - Int64(index < other.words.count ? other.words[index] : 0)
                borrow = difference < 0 ? 1 : 0
                if difference < 0 { difference += 1 << 32 }
                result.words[index] = UInt32(difference)
            }
            result.normalize()
            return result
        }

        static func < (left: BigUInt, right: BigUInt) -> Bool {
            guard left.words.count == right.words.count else { return left.words.count < right.words.count }
            for index in left.words.indices.reversed() where left.words[index] != right.words[index] {
                return left.words[index] < right.words[index]
            }
            return false
        }
    }
}
