import Foundation
import KeyCatalog
import Testing

/// Dates read back at the precision of their representation: the nearest millisecond for ISO
/// 8601 strings (Foundation's formatter truncates, and the double nearest N ms is often just
/// below it: found by Scripts/fuzz.py, seed 1214, 0001-01-01T00:00:00.001Z read back as .000),
/// every bit for time intervals.
@Suite struct DateRepresentationPrecisionTests {
    static let bases: [TimeInterval] = [-62_135_596_800, -12_219_292_800, -86_400, 0, 1_700_000_000, 253_402_300_000]

    @Test func iso8601ReadsBackTheNearestMillisecond() throws {
        let representation = ISO8601DatePersistentKeyValueRepresentation()
        var wrong: [String] = []
        for base in Self.bases {
            for milliseconds in [0, 1, 2, 3, 499, 500, 998, 999] {
                for offset in [0.0, 0.000_4, -0.000_4] {  // sub-millisecond parts round to the nearest
                    let date = Date(timeIntervalSince1970: base + Double(milliseconds) / 1000 + offset)
                    let stored = try #require(try representation.persistentValue(for: date))
                    let back = try representation.value(from: stored)
                    let expected = ((base + Double(milliseconds) / 1000) * 1000).rounded() / 1000
                    if abs(back.timeIntervalSince1970 - expected) > 0.000_01 {
                        wrong.append("\(date.timeIntervalSince1970) -> \(stored) -> \(back.timeIntervalSince1970)")
                    }
                }
            }
        }
        #expect(wrong.count == 0, "\(wrong.prefix(3))")
    }

    /// A string reads back as the Double nearest the instant it names, exactly: what a generated
    /// default of the same text is. Foundation's parsers sum the parts in floating point, a few
    /// units in the last place off (on Linux, most dates within a few days of 2001:
    /// `2000-12-31T23:26:46.077Z` read as -1993.9229999999952, not -1993.923).
    @Test func iso8601ReadsBackTheDoubleNearestTheInstant() throws {
        let representation = ISO8601DatePersistentKeyValueRepresentation()
        var generator = SystemRandomNumberGenerator()
        // Milliseconds since 2001: the years 1 to 9999, around 1970, and around 2001.
        let ranges: [ClosedRange<Int64>] = [
            -63_114_076_800_000...252_423_993_599_999, -1_000_000_000_000...(-978_307_200_000 + 1_000_000_000),
            -10_000_000_000...10_000_000_000, -20_000...20_000,
        ]
        var wrong: [String] = []
        for range in ranges {
            for _ in 0..<2_000 {
                let milliseconds = Int64.random(in: range, using: &generator)
                let nearest = Double(milliseconds) / 1000
                let stored = try #require(try representation.persistentValue(for: Date(timeIntervalSinceReferenceDate: nearest)))
                let back = try representation.value(from: stored).timeIntervalSinceReferenceDate
                if back != nearest { wrong.append("\(stored) read as \(back), not \(nearest)") }
            }
        }
        for (text, seconds) in [("2026-03-04T05:06:07.123Z", 794_293_567.123), ("2000-12-31T23:26:46.077Z", -1993.923), ("1969-07-20T20:17:40.5+00:00", -992_490_139.5)] {
            let back = try representation.value(from: .string(text)).timeIntervalSinceReferenceDate
            if back != seconds { wrong.append("\(text) read as \(back), not \(seconds)") }
        }
        #expect(wrong.count == 0, "\(wrong.prefix(3))")
    }

    /// Strings of 5 to 9 fractional digits (another program's) read as the `Double` nearest their
    /// instant too, around 2001, where Foundation's sums are furthest off in the last place. The
    /// expected value is the instant's count of units, written out as a decimal.
    @Test func iso8601ReadsLongFractionsAsTheDoubleNearestTheInstant() throws {
        let representation = ISO8601DatePersistentKeyValueRepresentation()
        var generator = SystemRandomNumberGenerator()
        var wrong: [String] = []
        for _ in 0..<3_000 {
            let whole = Int64.random(in: -2_000_000...2_000_000, using: &generator)
            let count = Int.random(in: 5...9, using: &generator)
            let scale = (0..<count).reduce(Int64(1)) { product, _ in product * 10 }
            let fraction = Int64.random(in: 0..<scale, using: &generator)
            let digits = String(repeating: "0", count: count - String(fraction).count) + String(fraction)
            let second: String = Date(timeIntervalSinceReferenceDate: Double(whole)).formatted(Date.ISO8601FormatStyle())
            let text = second.dropLast() + "." + digits + "Z"
            let units = whole * scale + fraction
            let written = String(units.magnitude)
            let magnitude = String(repeating: "0", count: max(0, count + 1 - written.count)) + written
            let decimal: String = (units < 0 ? "-" : "") + magnitude.dropLast(count) + "." + magnitude.suffix(count)
            let expected = try #require(Double(decimal))
            let back = try representation.value(from: .string(text)).timeIntervalSinceReferenceDate
            if back != expected { wrong.append("\(text) read as \(back), not \(expected)") }
        }
        #expect(wrong.count == 0, "\(wrong.prefix(3))")
    }

    /// A date outside the years 1 to 9999 is refused: Foundation's formatter writes earlier years
    /// as strings it cannot parse (`-0002-04-12T...`), later ones as text that parses to another date.
    /// The first year's first day is Foundation's, in the Julian calendar: two days before the
    /// proleptic Gregorian 0001-01-01 (those two days were refused, though a generated default
    /// can name them).
    @Test func iso8601RefusesDatesOutsideTheYearsItHolds() throws {
        let representation = ISO8601DatePersistentKeyValueRepresentation()
        let firstMillisecond = -63_114_076_800.0, afterLast = 252_423_993_600.0  // since 2001
        #expect(try representation.value(from: .string("0001-01-01T00:00:00.000Z")).timeIntervalSinceReferenceDate == firstMillisecond)
        #expect(try representation.persistentValue(for: Date(timeIntervalSinceReferenceDate: firstMillisecond)) == .string("0001-01-01T00:00:00.000Z"))
        for seconds in [firstMillisecond - 0.001, afterLast, -63_200_000_000, 1e15, .infinity, -.infinity, .nan] {
            #expect(throws: PersistentKeyValueEncodingError.self, "\(seconds)") {
                try representation.persistentValue(for: Date(timeIntervalSinceReferenceDate: seconds))
            }
        }
        for seconds in [firstMillisecond, afterLast - 0.001] {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            let back = try representation.value(from: try #require(try representation.persistentValue(for: date)))
            #expect(abs(back.timeIntervalSinceReferenceDate - seconds) < 0.000_01, "\(seconds) read back as \(back.timeIntervalSinceReferenceDate)")
        }
    }

    /// A date stored natively (`.date`) whose seconds are NaN or infinite is refused by every
    /// store, alone or nested, and reported: no property list reads one back as written, and
    /// Foundation on Linux traps describing one.
    @Test func nativeDatesThatAreNotFiniteAreRefused() throws {
        struct NativeDate: PersistentKeyValueRepresentation {
            func persistentValue(for value: Date) throws -> PropertyListValue? { .date(value) }
            func value(from persistentValue: PropertyListValue) throws -> Date {
                guard case .date(let date) = persistentValue else { throw PersistentKeyValueDecodingError(expectedType: "Date", found: "another value") }
                return date
            }
        }
        for seconds in [Double.nan, .infinity, -.infinity] {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            #expect(throws: PropertyListValue.IncompatibilityError.self) { try PropertyListValue.date(date).validateForPropertyList() }
            let nested = #expect(throws: PropertyListValue.IncompatibilityError.self) {
                try PropertyListValue.dictionary(["at": .array([.date(date)])]).validateForPropertyList()
            }
            #expect(nested?.path == "[\"at\"][0]")
            let store = InMemoryKeyValueStore()
            let key = PersistentKey<Date>("When", defaultValue: Date(timeIntervalSinceReferenceDate: 0), representation: NativeDate())
            let recorder = FailureRecorder()
            recorder.record { store.set(key, to: date) }
            #expect(recorder.failures.count == 1)
            #expect(recorder.failures.first?.message.contains("not finite") == true)
            #expect(store.storedValues.isEmpty)
        }
        #expect(throws: Never.self) { try PropertyListValue.date(.distantFuture).validateForPropertyList() }
    }

    @Test func timeIntervalsReadBackExactly() throws {
        let representation = TimeIntervalDatePersistentKeyValueRepresentation()
        for base in Self.bases {
            let date = Date(timeIntervalSince1970: base + 0.000_123_4)
            #expect(try representation.value(from: try #require(try representation.persistentValue(for: date))) == date)
        }
    }
}
