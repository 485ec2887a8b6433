/// A strict reader of ISO 8601 dates with a time and a zone, without Foundation formatters, in
/// the calendar of Foundation's ISO 8601 formats (which the runtime's `iso8601` representation
/// reads with): Gregorian from 1582-10-15, Julian before.
///
/// ```swift
/// ISO8601Date.secondsSince1970("2024-01-01T00:00:00Z") // 1704067200
/// ISO8601Date.secondsSince1970("2024-01-01")            // nil: no time, no zone
/// ISO8601Date.instant("2026-03-04T05:06:07.123Z")?.secondsSinceReferenceDate // "794293567.123"
/// ```
enum ISO8601Date {
    /// The instant a text names, exactly: whole seconds and the digits of the fraction, never
    /// summed in floating point (`0.123` is no `Double`, and a sum rounds once more).
    struct Instant: Equatable {
        /// The whole seconds since 1970-01-01T00:00:00Z, rounded down.
        var wholeSecondsSince1970: Int
        /// The fraction's digits as written, without trailing zeros: `123` for `.1230`; empty for none.
        var fractionDigits: String

        /// The seconds since 1970 as a decimal, exactly: `1772600767.123`, `-0.5`.
        var secondsSince1970: String { Self.decimal(whole: wholeSecondsSince1970, fraction: fractionDigits) }

        /// The seconds since 2001-01-01T00:00:00Z (`Date`'s reference date) as a decimal,
        /// exactly: `794293567.123`, `-1993.923`.
        var secondsSinceReferenceDate: String {
            Self.decimal(whole: wholeSecondsSince1970 - 978_307_200, fraction: fractionDigits)
        }

        /// `whole + 0.fraction` written out: a negative `whole` takes the fraction's complement
        /// (`-1994` and `077` are `-1993.923`).
        private static func decimal(whole: Int, fraction: String) -> String {
            guard !fraction.isEmpty else { return String(whole) }
            guard whole < 0 else { return "\(whole).\(fraction)" }
            // 10^n - fraction, digit by digit: the last nonzero digit from 10, those before it from 9.
            var digits = Array(fraction.utf8)
            var index = digits.count - 1
            digits[index] = UInt8(ascii: "0") + 10 - (digits[index] - UInt8(ascii: "0"))
            while index > 0 {
                index -= 1
                digits[index] = UInt8(ascii: "0") + 9 - (digits[index] - UInt8(ascii: "0"))
            }
            return "-\(-whole - 1).\(String(decoding: digits, as: UTF8.self))"
        }
    }

    /// The instant `text` names (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`) in seconds since
    /// 1970, the `Double` nearest it; `nil` if it is no such text.
    static func secondsSince1970(_ text: String) -> Double? {
        instant(text).flatMap { Double($0.secondsSince1970) }
    }

    /// The instant `text` names (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`), or `nil`.
    static func instant(_ text: String) -> Instant? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += digits
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("T"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }
        var fraction: ArraySlice<UInt8> = []
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
            guard index > start else { return nil }
            fraction = bytes[start..<index]
            while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        }
        var offset = 0
        if expect("Z") {
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let zoneHour = number(2), expect(":"), let zoneMinute = number(2), zoneHour < 24, zoneMinute < 60 else {
                return nil
            }
            offset = sign * (zoneHour * 3600 + zoneMinute * 60)
        } else {
            return nil
        }
        guard index == bytes.count, (1...12).contains(month), hour < 24, minute < 60, second < 60 else { return nil }
        let isJulian = (year, month, day) < (1582, 10, 15)
        let leap = year % 4 == 0 && (isJulian || year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...monthDays[month - 1]).contains(day) else { return nil }
        let days = isJulian ? daysFromJulian(year: year, month: month, day: day) : daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Instant(wholeSecondsSince1970: seconds, fractionDigits: String(decoding: fraction, as: UTF8.self))
    }

    /// Days since 1970-01-01 of a date in the Julian calendar, which Foundation's Gregorian
    /// calendar keeps before 1582-10-15 (its 1582-10-04 is followed by 1582-10-15; the ten days
    /// between are read as Julian too): Howard Hinnant's algorithm with 4-year eras.
    private static func daysFromJulian(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 3) / 4
        let yearOfEra = y - era * 4
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        return era * 1461 + yearOfEra * 365 + dayOfYear - 719_470
    }

    /// Days since 1970-01-01 in the Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
