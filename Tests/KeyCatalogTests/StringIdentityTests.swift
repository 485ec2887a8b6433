import Foundation
import Testing

@testable import KeyCatalog

/// A key declared in code is found by its `String` value's words: equal words must mean equal
/// text, and strings the runtime may free must have no identity.
@Suite struct StringIdentityTests {
    #if (arch(x86_64) || arch(arm64)) && !os(Android)
    @Test func smallStringsHaveIdentitiesEqualExactlyWhenTheirTextIs() throws {
        let texts = (0...15).flatMap { length in
            ["a", "b", "é"].map { String(repeating: $0, count: length) }.filter { $0.utf8.count <= 15 }
        }
        for text in texts {
            let identity = try #require(_StringIdentity(text), "\(text.debugDescription) is small")
            for other in texts {
                #expect((identity == _StringIdentity(other)) == (text == other), "\(text.debugDescription) / \(other.debugDescription)")
            }
            #expect((0..<64).contains(identity.slot(amongPowerOfTwo: 6)))
        }
    }

    @Test func aLiteralHasAnIdentityAndTheSameTextBuiltAtRunTimeHasNone() throws {
        let literal = "settings.appearance.accentColor"
        #expect(literal.utf8.count > 15)
        let identity = try #require(_StringIdentity(literal))
        let copy = literal
        #expect(_StringIdentity(copy) == identity)
        #expect(_StringIdentity("settings.appearance.accentColour") != identity)

        let part = ["appearance"].joined()
        let built = "settings.\(part).accentColor"
        #expect(built == literal)
        #expect(_StringIdentity(built) == nil, "a string with storage of its own can be freed")
        #expect(_StringIdentity(String(repeating: "x", count: 40)) == nil)
        #expect(_StringIdentity(["List"].joined() + ".1") != nil, "short enough to be small")
    }
    #endif
}
