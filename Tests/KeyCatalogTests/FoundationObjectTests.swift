import Foundation
import KeyCatalog
import Testing

/// `PropertyListValue(foundationObject:)` reads what Foundation hands back. Its fast path for
/// exact Swift types must give what the cast gives, also for a value wrapped in an `Any` or an
/// `Optional` inside the `Any` (a settings document's JSON, a persistent domain's values).
@Suite struct FoundationObjectTests {
    static var cases: [(Any, PropertyListValue)] {
        [
            (42, .int(42)), ("text", .string("text")), (true, .bool(true)), (2.5, .double(2.5)),
            (Data([1, 2]), .data(Data([1, 2]))), (Int.min, .int(.min)), ("", .string("")),
        ]
    }

    @Test func exactTypesAndWrappedOnesReadTheSame() {
        for (object, expected) in Self.cases {
            #expect(PropertyListValue(foundationObject: object) == expected, "\(object)")
            let inAny: Any = object as Any
            #expect(PropertyListValue(foundationObject: inAny as Any) == expected, "Any in Any: \(object)")
            let optional: Any? = object
            #expect(PropertyListValue(foundationObject: optional as Any) == expected, "Optional in Any: \(object)")
            #expect(PropertyListValue(foundationObject: [optional, optional] as [Any?]) == .array([expected, expected]), "[Any?]: \(object)")
        }
    }

    /// What `PropertyListSerialization` reads (a file store's list): dictionaries as
    /// `[AnyHashable: Any]`, arrays as `[Any]`, dates as `Date`, read by their exact types.
    @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
    func propertyListsReadBackWhole(format: PropertyListSerialization.PropertyListFormat) throws {
        let date = Date(timeIntervalSinceReferenceDate: 1_000)
        let value = PropertyListValue.dictionary([
            "int": .int(-3), "string": .string("é"), "bool": .bool(false), "double": .double(0.25), "data": .data(Data([7])),
            "date": .date(date), "array": .array([.int(1), .string("two"), .array([]), .dictionary(["k": .bool(true)])]),
            "dictionary": .dictionary(["nested": .dictionary(["deeper": .date(date)])]), "empty": .dictionary([:]),
        ])
        let data = try PropertyListSerialization.data(fromPropertyList: value.foundationObject, format: format, options: 0)
        let object = try PropertyListSerialization.propertyList(from: data, format: nil)
        #expect(type(of: object) == [AnyHashable: Any].self, "the exact type the fast path reads")
        #expect(PropertyListValue(foundationObject: object) == value)
    }

    /// What `foundationObject` makes of a dictionary (`[String: Any]`), as stores keeping Swift
    /// values hand it back, read by its exact type: whole, nested, with an `Optional` member read
    /// as the cast read it (its value; `nil` makes the dictionary no property-list value).
    @Test func aSwiftDictionaryReadsBackWhole() {
        let value = PropertyListValue.dictionary([
            "t": .int(1_764_000_000_000), "d": .string("device"), "v": .array([.string("a"), .int(2)]),
            "nested": .dictionary(["deeper": .dictionary(["x": .double(0.5)])]), "empty": .dictionary([:]),
        ])
        let object = value.foundationObject
        #expect(type(of: object) == [String: Any].self, "the exact type the fast path reads")
        #expect(PropertyListValue(foundationObject: object) == value)
        let optionalMember: [String: Any] = ["some": Optional(3) as Any]
        #expect(PropertyListValue(foundationObject: optionalMember) == .dictionary(["some": .int(3)]))
        let nilMember: [String: Any] = ["none": Optional<Int>.none as Any]
        #expect(PropertyListValue(foundationObject: nilMember) == nil)
        #expect(PropertyListValue(foundationObject: ["not a value": NSObject()] as [String: Any]) == nil)
    }

    /// An `NSNumber` reads as the value it holds: a Bool only if it is one. On Apple platforms an
    /// 8-bit integer's `objCType` is `c`, as a Bool's is, and 0 and 1 read as Bools before; on
    /// Linux it is `i`, and this test checks the same reads.
    @Test func anEightBitIntegerNumberIsNoBool() {
        for value: Int8 in [0, 1, 5, -1] {
            #expect(PropertyListValue(foundationObject: NSNumber(value: value)) == .int(Int(value)), "\(value)")
        }
        #expect(PropertyListValue(foundationObject: NSNumber(value: UInt8(1))) == .int(1))
        #expect(PropertyListValue(foundationObject: NSNumber(value: true)) == .bool(true))
        #expect(PropertyListValue(foundationObject: NSNumber(value: false)) == .bool(false))
    }

    @Test func aDictionaryWithAKeyThatIsNoStringIsNoPropertyListValue() {
        let dictionary: [AnyHashable: Any] = ["a": 1, 2: "b"]
        #expect(PropertyListValue(foundationObject: dictionary) == nil)
        #expect(PropertyListValue(foundationObject: ["a": 1] as [AnyHashable: Any]) == .dictionary(["a": .int(1)]))
        // An NSString key reads as its string, as the cast read it (found by a review).
        let withNSStringKey: [AnyHashable: Any] = [AnyHashable(NSString(string: "k")): 1, AnyHashable(NSMutableString(string: "m")): 2]
        #expect(PropertyListValue(foundationObject: withNSStringKey) == .dictionary(["k": .int(1), "m": .int(2)]))
        #expect(PropertyListValue(foundationObject: [1, "a"] as [Any]) == .array([.int(1), .string("a")]))
    }
}
