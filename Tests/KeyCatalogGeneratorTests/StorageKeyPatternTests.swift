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
        // The first spelling found gives 'a' two values; one of them, in both places, meets.
        let retried = try #require(try twice.commonSpelling(with: pattern("kx.{b}", ["b": "String"])))
        #expect(retried.text == "kx.x" && retried.values.map(\.value) == ["x"])
        #expect(try pattern("p{a}.{a}", ["a": "String"]).commonSpelling(with: pattern("pa.{b}", ["b": "String"]))?.text == "pa.a")
        // Literal text between the two places is no part of either value.
        let literal = try #require(try pattern("{a}-{b}", ["a": "String", "b": "String"]).commonSpelling(with: pattern("x-x")))
        #expect(literal.values.map(\.value) == ["x", "x"])
    }

    /// Against brute force, over random small templates: every spelling found is one (its values,
    /// put in both templates, give it, and each is something its type prints), and every meeting
    /// that short values can produce is found.
    @Test func agreesWithBruteForceOnSmallTemplates() throws {
        var random = FuzzTests.SeededGenerator(state: 0x5EED_0F_5A_77E2)
        let alphabet: [Character] = ["a", "-", "0", "1", "A"]
        let strings = alphabet.map { String($0) } + alphabet.flatMap { x in alphabet.map { String(x) + String($0) } }
        let integers = (-12...12).map(String.init)

        func randomTemplate(_ prefix: String) -> (text: String, types: [String: String]) {
            var text = ""
            var types: [String: String] = [:]
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                if !types.isEmpty, Int.random(in: 0..<6, using: &random) == 0 {
                    // A name written again.
                    text += "{\(types.keys.sorted().randomElement(using: &random)!)}"
                } else if types.count < 2, Bool.random(using: &random) {
                    let name = "\(prefix)\(types.count)"
                    types[name] = Bool.random(using: &random) ? "String" : "Int"
                    text += "{\(name)}"
                } else {
                    for _ in 0..<Int.random(in: 1...2, using: &random) { text.append(alphabet.randomElement(using: &random)!) }
                }
            }
            return (text, types)
        }
        func spell(_ template: StorageKeyTemplate, _ values: [String: String]) -> String {
            template.segments.map { if case .literal(let text) = $0 { text } else if case .placeholder(let name) = $0 { values[name]! } else { "" } }.joined()
        }
        /// Every spelling with values drawn from the short ones.
        func spellings(_ template: StorageKeyTemplate, _ types: [String: String]) -> Set<String> {
            var assignments: [[String: String]] = [[:]]
            for name in Set(template.placeholders).sorted() {
                let candidates = types[name] == "Int" ? integers : strings
                assignments = assignments.flatMap { assignment in candidates.map { assignment.merging([name: $0]) { $1 } } }
            }
            return Set(assignments.map { spell(template, $0) })
        }

        var meetings = 0
        var missedWithRepeatedNames = 0
        for round in 0..<400 {
            let (textA, typesA) = randomTemplate("a")
            let (textB, typesB) = randomTemplate("b")
            let templateA = try StorageKeyParser.parse(textA).get()
            let templateB = try StorageKeyParser.parse(textB).get()
            let found = StorageKeyPattern(templateA, parameterTypes: typesA).commonSpelling(with: StorageKeyPattern(templateB, parameterTypes: typesB))
            let brute = spellings(templateA, typesA).intersection(spellings(templateB, typesB))
            if let found {
                meetings += 1
                let valuesA = Dictionary(uniqueKeysWithValues: found.values.map { ($0.name, $0.value) })
                let valuesB = Dictionary(uniqueKeysWithValues: found.otherValues.map { ($0.name, $0.value) })
                #expect(spell(templateA, valuesA) == found.text && spell(templateB, valuesB) == found.text, "round \(round): '\(textA)' and '\(textB)' do not spell '\(found.text)'")
                for (name, value) in valuesA.merging(valuesB, uniquingKeysWith: { $1 }) {
                    let type = typesA[name] ?? typesB[name]
                    #expect(!value.isEmpty && (type != "Int" || Int(value).map(String.init) == value), "round \(round): \(name) = '\(value)' is no \(type ?? "?")")
                }
            } else if templateA.placeholders.count == Set(templateA.placeholders).count, templateB.placeholders.count == Set(templateB.placeholders).count {
                // Complete where no name is written twice (see `StorageKeyPattern`).
                #expect(brute.isEmpty, "round \(round): '\(textA)' \(typesA) and '\(textB)' \(typesB) both spell \(brute.sorted().prefix(3))")
            } else if !brute.isEmpty {
                missedWithRepeatedNames += 1
            }
        }
        #expect(meetings > 40, "the random templates should meet often enough to test both sides: \(meetings)")
        // None in these rounds; in general a name written twice can hide a meeting (see `StorageKeyPattern`).
        #expect(missedWithRepeatedNames == 0, "meetings missed where a name is written twice: \(missedWithRepeatedNames)")
    }
}
