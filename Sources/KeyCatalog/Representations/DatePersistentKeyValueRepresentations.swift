import Foundation

/// Stores a `Date` as seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`), a `Double`.
///
/// This is `Date`'s usual representation. It also reads dates stored natively by other code.
public struct TimeIntervalDatePersistentKeyValueRepresentation: PersistentKeyValueRepresentation {
    /// Creates the representation; it has no settings.
    public init() {}

    public func persistentValue(for value: Date) throws -> PropertyListValue? {
        .double(value.timeIntervalSinceReferenceDate)
    }

    public func value(from persistentValue: PropertyListValue) throws -> Date {
        if case .date(let date) = persistentValue { return date }
        return Date(timeIntervalSinceReferenceDate: try Double(primitivePersistentValue: persistentValue))
    }
}

/// Stores a `Date` as an ISO 8601 string with fractional seconds, in UTC: `2026-11-22T09:30:00.000Z`.
///
/// The string holds milliseconds: a date reads back as the nearest millisecond.
///
/// ```swift
/// extension PersistentKeyProtocol where Self == PersistentKey<Date?> {
///     static var lastSync: Self {
///         Self("LastSync", defaultValue: nil, representation: ISO8601DatePersistentKeyValueRepresentation())
///     }
/// }
/// ```
///
/// A string reads back as the `Double` nearest the instant it names, whatever the platform's
/// Foundation sums on the way (a generated default of the same text is that `Double` too).
/// Reading also accepts strings without fractional seconds. Writing refuses a date outside the
/// years 1 to 9999, which such a string cannot hold (Foundation writes earlier years as text it
/// cannot read back, and later ones as a different date).
public struct ISO8601DatePersistentKeyValueRepresentation: PersistentKeyValueRepresentation {
    /// Creates the representation; it has no settings.
    public init() {}

    /// The milliseconds since 2001 of 0001-01-01T00:00:00.000Z and of 10000-01-01T00:00:00.000Z,
    /// as Foundation's calendar names them (Julian before 1582-10-15: its 0001-01-01 is two days
    /// before the proleptic Gregorian one).
    private static let writableMilliseconds: Range<Double> = -63_114_076_800_000..<252_423_993_600_000

    public func persistentValue(for value: Date) throws -> PropertyListValue? {
        // The string holds milliseconds, and Foundation's formatter truncates to them: the double
        // nearest 0.001 s lies a hair below it and was written as .000 (found by Scripts/fuzz.py,
        // seed 1214). Format the nearest millisecond from half a millisecond above it.
        let milliseconds = (value.timeIntervalSinceReferenceDate * 1000).rounded()
        guard Self.writableMilliseconds.contains(milliseconds) else {
            throw PersistentKeyValueEncodingError(
                "the date \(value.timeIntervalSinceReferenceDate) s after 2001-01-01 is outside the years 1 to 9999, which an ISO 8601 string holds")
        }
        return .string(Date(timeIntervalSinceReferenceDate: (milliseconds + 0.5) / 1000).formatted(Self.withFractionalSeconds))
    }

    public func value(from persistentValue: PropertyListValue) throws -> Date {
        if case .date(let date) = persistentValue { return date }
        let string = try String(primitivePersistentValue: persistentValue)
        if let date = (try? Self.withFractionalSeconds.parse(string)) ?? (try? Date.ISO8601FormatStyle().parse(string)) {
            return Self.nearest(date, fractionDigits: Self.fractionDigits(in: string))
        }
        throw PersistentKeyValueDecodingError(expectedType: "Date", found: "string '\(string)' that is not ISO 8601")
    }

    private static let withFractionalSeconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The date nearest the instant a string with `digits` fractional digits names, from what
    /// Foundation parsed: Foundation's parsers sum its parts in floating point, a few units in the
    /// last place off (`2000-12-31T23:26:46.077Z` read as -1993.9229999999952 s after 2001 on
    /// Linux, not -1993.923). Up to 4 digits, the count of 10^-digits units, divided by 10^digits,
    /// is the nearest `Double` (both are exact: below 2^53 in the years 1 to 9999, and a division
    /// rounds once); with more, the instant is written out as a decimal and read, which rounds once.
    static func nearest(_ date: Date, fractionDigits digits: Substring.UTF8View) -> Date {
        let seconds = date.timeIntervalSinceReferenceDate
        guard digits.count > 4 else {
            let scale = [1.0, 10, 100, 1000, 10_000][digits.count]
            let units = (seconds * scale).rounded()
            guard units.magnitude < 0x1p53 else { return date }
            return Date(timeIntervalSinceReferenceDate: units / scale)
        }
        // The whole seconds below the instant: what was parsed, less the fraction, is within a
        // hair of them.
        guard let fraction = Double("0." + String(decoding: digits, as: UTF8.self)),
            let whole = Int64(exactly: (seconds - fraction).rounded())
        else { return date }
        var text = Array(digits)
        guard whole < 0, let last = text.lastIndex(where: { $0 != UInt8(ascii: "0") }) else {
            return Double("\(whole)." + String(decoding: text, as: UTF8.self)).map(Date.init(timeIntervalSinceReferenceDate:)) ?? date
        }
        // Below zero, whole + 0.f is -((-whole - 1) + (1 - 0.f)): 1 - 0.f digit by digit, the last
        // nonzero digit from 10, those before it from 9.
        text[last] = UInt8(ascii: "0") + 10 - (text[last] - UInt8(ascii: "0"))
        for index in text.indices where index < last { text[index] = UInt8(ascii: "0") + 9 - (text[index] - UInt8(ascii: "0")) }
        return Double("-\(-whole - 1)." + String(decoding: text, as: UTF8.self)).map(Date.init(timeIntervalSinceReferenceDate:)) ?? date
    }

    /// The digits that follow the seconds' decimal point in an ISO 8601 string (none without one).
    static func fractionDigits(in string: String) -> Substring.UTF8View {
        let bytes = Substring(string).utf8
        guard let point = bytes.firstIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") }) else { return bytes[bytes.endIndex...] }
        let digits = bytes[bytes.index(after: point)...]
        return digits[..<(digits.firstIndex { $0 < UInt8(ascii: "0") || $0 > UInt8(ascii: "9") } ?? digits.endIndex)]
    }
}
