import Testing

@testable import KeyCatalogGenerator

/// What a storage key template can spell, by its parameters' types.
@Suite struct StorageKeyPatternTests {
    private func pattern(_ text: String, _ types: [String: String] = [:]) throws -> StorageKeyPattern {
        StorageKeyPattern(try StorageKeyParser.parse(text).get(), parameterTypes: types)
    }

    private func spells(_ template: String, _ types: [String: String], _ literal: String) throws -> Bool {
        try pattern(template, types).commonSpelling(with: pattern(literal)) != nil
    }

    @Test func anIntPrintsDigitsAfterAnOptionalMinus() throws {
        for (text, expected) in [
            ("n5", true), ("n-5", true), ("n123", true), ("n0", true), ("n10", true), ("n", false), ("n-", false), ("n5-", false),
            ("n--5", false), ("nx", false), ("n007", false), ("n-0", false), ("n00", false),
        ] {
            #expect(try spells("n{value}", ["value": "Int"], text) == expected, "\(text)")
        }
    }

    @Test func aUUIDPrintsItsUppercaseString() throws {
        let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        #expect(try spells("d.{id}", ["id": "UUID"], "d.\(uuid)"))
        #expect(try !spells("d.{id}", ["id": "UUID"], "d.\(uuid.lowercased())"))
        #expect(try !spells("d.{id}", ["id": "UUID"], "d.\(uuid.dropLast())"))
        #expect(try !spells("d.{id}", ["id": "UUID"], "d.inbox"))
    }

    @Test func aStringPrintsAnyCharactersButNone() throws {
        #expect(try spells("{a}.x", ["a": "String"], "é.x"))
        #expect(try !spells("{a}.x", ["a": "String"], ".x"))
    }

    @Test func twoTemplatesMeetWhereTheirParametersAgree() throws {
        let spelling = try #require(try pattern("a.{x}", ["x": "String"]).commonSpelling(with: pattern("{y}.b", ["y": "String"])))
        #expect(spelling.text == "a.b")
        #expect(spelling.values.map(\.name) == ["x"] && spelling.values.map(\.value) == ["b"])
        #expect(spelling.otherValues.map(\.name) == ["y"] && spelling.otherValues.map(\.value) == ["a"])
        // An Int and a UUID share only digits; the UUID's hyphens are not the Int's minus.
        #expect(try pattern("k{n}", ["n": "Int"]).commonSpelling(with: pattern("k{id}", ["id": "UUID"])) == nil)
        #expect(try pattern("k{n}-1", ["n": "Int"]).commonSpelling(with: pattern("k{m}", ["m": "Int"])) == nil)
        // No Int prints a leading zero: 'v0…' is no 'v{n}'.
        #expect(try pattern("v{n}", ["n": "Int"]).commonSpelling(with: pattern("v0{m}", ["m": "Int"])) == nil)
        #expect(try pattern("v{n}", ["n": "Int"]).commonSpelling(with: pattern("v{m}0", ["m": "Int"]))?.text == "v10")
    }

    @Test func aPlaceholderWrittenTwiceTakesOneValue() throws {
        let twice = try pattern("k{a}.{a}", ["a": "String"])
        #expect(try twice.commonSpelling(with: pattern("kx.y")) == nil)
        let spelling = try #require(try twice.commonSpelling(with: pattern("kx.x")))
        #expect(spelling.values.map(\.name) == ["a"] && spelling.values.map(\.value) == ["x"])
        // Literal text between the two places is no part of either value.
        let literal = try #require(try pattern("{a}-{b}", ["a": "String", "b": "String"]).commonSpelling(with: pattern("x-x")))
        #expect(literal.values.map(\.value) == ["x", "x"])
    }
}
