import Foundation
import Testing

@testable import KeyCatalog

/// The size iCloud's limits are checked against (a key plus its value as a binary property list)
/// is the same whichever objects it is measured from: on Linux a value is measured from
/// CoreFoundation's own objects, which CoreFoundation's writer takes without bridging, and must
/// give the bytes Foundation's objects (the ones handed to iCloud) give.
@Suite struct UbiquitousSizeTests {
    static let date = Date(timeIntervalSinceReferenceDate: 1_000)

    static let values: [PropertyListValue] = [
        .bool(true), .bool(false), .int(0), .int(1), .int(-1), .int(255), .int(256), .int(65_536), .int(Int(Int32.max) + 1),
        .int(.min), .int(.max), .uint(UInt64.max), .uint(1), .double(0.5), .double(-0.0), .double(.infinity), .double(1e300),
        .string(""), .string("a"), .string("fourteen chars"), .string("fifteen chars!!"), .string(String(repeating: "x", count: 300)),
        .string("café"), .string("cafe\u{301}"), .string("日本語のテキスト"), .string("🙂 emoji"), .date(date),
        .data(Data()), .data(Data(repeating: 7, count: 14)), .data(Data(repeating: 7, count: 15)), .data(Data(count: 70_000)),
        .array([]), .dictionary([:]),
        .array([.string("same"), .string("same"), .int(3), .int(3), .bool(true), .bool(true)]),
        .array((0..<20).map { .int($0) }),
        .dictionary(["v": .string("same"), "t": .string("same"), "d": .array([.string("same"), .date(date), .date(date)])]),
        .dictionary(Dictionary(uniqueKeysWithValues: (0..<300).map { ("key \($0)", PropertyListValue.int($0 * 1_000)) })),
        .array([.dictionary(["k": .array([.dictionary(["deep": .data(Data([1, 2, 3]))])])]), .double(1), .int(1)]),
        .array([.string("caf\u{E9}"), .string("cafe\u{301}")]),
    ]

    @Test func aValueMeasuresAsTheObjectHandedToICloud() throws {
        for value in Self.values {
            let envelope = PropertyListValue.dictionary(["v": value, "t": .int(1_764_000_000_000), "d": .string("device-id")])
            for measured in [value, envelope] {
                let expected = try _UbiquitousSizeLedger.size(key: "kc:key", object: measured.foundationObject)
                #expect(try _UbiquitousSizeLedger.size(key: "kc:key", value: measured, object: measured.foundationObject) == expected, "\(measured)")
            }
        }
    }
}
