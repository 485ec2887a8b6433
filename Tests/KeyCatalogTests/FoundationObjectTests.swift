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
}
