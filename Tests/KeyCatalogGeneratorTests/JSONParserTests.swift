import Testing

@testable import KeyCatalogGenerator

@Suite("JSON parser")
struct JSONParserTests {
    @Test(
        "syntax errors are positioned diagnostics",
        arguments: [
            ParserCase("empty", Array("".utf8), [#"keys.json:1:1: error: the file is empty; expected a JSON object such as { "version": 1, "keys": [] }"#]),
            ParserCase("whitespace only", Array("  \n ".utf8), [#"keys.json:2:2: error: the file is empty; expected a JSON object such as { "version": 1, "keys": [] }"#]),
            ParserCase("unterminated string", Array("{\n  \"version\": 1,\n  \"keys\": [ { \"name\": \"a\n".utf8), [#"keys.json:3:23: error: unterminated string; add the closing '"' before the end of the line (write a line break as '\n')"#]),
            ParserCase("trailing comma in object", Array("{\n  \"version\": 1,\n  \"keys\": [],\n}".utf8), [#"keys.json:3:13: error: trailing comma before '}'; remove it"#]),
            ParserCase("trailing comma in array", Array("{\n  \"version\": 1,\n  \"keys\": [\n    { \"name\": \"a\", \"type\": \"Int\", \"default\": 1 },\n  ]\n}".utf8), [#"keys.json:4:49: error: trailing comma before ']'; remove it"#]),
            ParserCase("control character", Array("{\n  \"version\": 1,\n  \"keys\": [ { \"name\": \"a\tb\", \"type\": \"Int\", \"default\": 1 } ]\n}".utf8), [#"keys.json:3:25: error: control character U+0009 in a string; escape it as \u0009"#]),
            ParserCase("truncated", Array("{\n  \"version\": 1,\n  \"keys\": [ { \"name\": \"a\", \"type\": \"Int\", \"default\": 1 }".utf8), [#"keys.json:3:57: error: unexpected end of file; the array opened at 3:11 is not closed with ']'"#]),
            ParserCase("truncated after colon", Array("{\n  \"version\":".utf8), [#"keys.json:2:13: error: unexpected end of file; expected a value"#]),
            ParserCase("curly quotes", Array("{ \u{201C}version\u{201D}: 1 }".utf8), [#"keys.json:1:3: error: unexpected curly quote '\#u{201C}' (U+201C); JSON needs straight double quotes ("); expected a member name in double quotes"#]),
            ParserCase("a no-break space", Array("{\u{00A0}\"version\": 1 }".utf8), [#"keys.json:1:2: error: unexpected invisible space U+00A0; replace it with a plain space; expected a member name in double quotes"#]),
            ParserCase(
                "invalid UTF-8", [0x7B, 0x0A, 0x20, 0x20, 0x22, 0x76, 0x65, 0x72, 0x73, 0x69, 0x6F, 0x6E, 0x22, 0x3A, 0x20, 0x31, 0x2C, 0x0A, 0x20, 0x20, 0x22, 0x6B, 0x65, 0x79, 0x73, 0x22, 0x3A, 0x20, 0x5B, 0x20, 0x7B, 0x20, 0x22, 0x6E, 0x61, 0x6D, 0x65, 0x22, 0x3A, 0x20, 0x22, 0x61, 0xFF, 0x22, 0x2C, 0x20, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3A, 0x20, 0x22, 0x49, 0x6E, 0x74, 0x22, 0x2C, 0x20, 0x22, 0x64, 0x65, 0x66, 0x61, 0x75, 0x6C, 0x74, 0x22, 0x3A, 0x20, 0x31, 0x20, 0x7D, 0x20, 0x5D, 0x0A, 0x7D],
                [
                    // The byte reads as U+FFFD, which no name may hold (the compiler refuses it).
                    #"keys.json:3:23: error: key name 'a\#u{FFFD}' is not a Swift identifier ('\#u{FFFD}' (U+FFFD) cannot appear in a Swift identifier); use letters, digits and '_' and start with a letter, as in 'a'"#,
                    #"keys.json:3:25: error: invalid UTF-8 byte 0xFF; save the file as UTF-8"#,
                ]),
            ParserCase("UTF-16 byte-order mark", [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], [#"keys.json:1:1: error: the file is UTF-16; save it as UTF-8"#]),
            // Found by a review: after bytes that are not UTF-8, later columns moved back, as the
            // column counted continuation bytes that the parser had reported one by one.
            ParserCase(
                "columns after invalid UTF-8, a byte each", [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x2C, 0x20, 0x74, 0x72, 0x75, 0x5D],
                [
                    #"keys.json:1:3: error: invalid UTF-8 byte 0xC0; save the file as UTF-8"#,
                    #"keys.json:1:4: error: invalid UTF-8 byte 0xAF; save the file as UTF-8"#,
                    #"keys.json:1:8: error: unexpected 'tru'; expected a value: a string in double quotes, a number, true, false, null, an array or an object"#,
                ]),
            ParserCase(
                "columns after a sequence cut short, one piece", [0x5B, 0x22, 0xE2, 0x82, 0x78, 0x22, 0x2C, 0x20, 0x74, 0x72, 0x75, 0x5D],
                [
                    #"keys.json:1:3: error: invalid UTF-8 sequence 0xE2 0x82; save the file as UTF-8"#,
                    #"keys.json:1:8: error: unexpected 'tru'; expected a value: a string in double quotes, a number, true, false, null, an array or an object"#,
                ]),
            ParserCase(
                "columns after invalid UTF-8 in a comment", [0x2F, 0x2A, 0xF0, 0x80, 0x80, 0x80, 0x2A, 0x2F, 0x20, 0x74, 0x72, 0x75],
                [
                    #"keys.json:1:3: error: invalid UTF-8 byte 0xF0; save the file as UTF-8"#,
                    #"keys.json:1:4: error: invalid UTF-8 byte 0x80; save the file as UTF-8"#,
                    #"keys.json:1:5: error: invalid UTF-8 byte 0x80; save the file as UTF-8"#,
                    #"keys.json:1:6: error: invalid UTF-8 byte 0x80; save the file as UTF-8"#,
                    #"keys.json:1:10: error: unexpected 'tru'; expected a value: a string in double quotes, a number, true, false, null, an array or an object"#,
                ]),
            // Found by a review: a NUL byte near the start made the file "UTF-16".
            ParserCase("a NUL byte is not UTF-16", [0x7B, 0x00, 0x22, 0x76, 0x22, 0x3A, 0x31, 0x7D], [#"keys.json:1:2: error: unexpected byte 0x0; expected a member name in double quotes"#]),
            ParserCase("UTF-8 byte-order mark is skipped", [0xEF, 0xBB, 0xBF, 0x7B, 0x0A, 0x20, 0x20, 0x22, 0x76, 0x65, 0x72, 0x73, 0x69, 0x6F, 0x6E, 0x22, 0x3A, 0x20, 0x31, 0x2C, 0x0A, 0x20, 0x20, 0x22, 0x6B, 0x65, 0x79, 0x73, 0x22, 0x3A, 0x20, 0x5B, 0x5D, 0x0A, 0x7D], []),
            ParserCase("deep nesting", Array(("{ \"version\": 1, \"keys\": [], \"x\": " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + " }").utf8), [#"keys.json:1:133: error: nesting deeper than 100 levels; a manifest never needs this much"#]),
            ParserCase("leading zero", Array("{\n  \"version\": 01,\n  \"keys\": []\n}".utf8), [#"keys.json:2:14: error: invalid number '01'; JSON numbers have no leading zeros"#]),
            ParserCase("huge number", Array(("{\n  \"version\": 1" + String(repeating: "0", count: 400) + ",\n  \"keys\": []\n}").utf8), [#"keys.json:2:14: error: unsupported manifest version 100000000000000000000000000000000000000000000000000000000…; this keycatalog reads version 1, so write "version": 1 or update keycatalog"#]),
            ParserCase("line comment", Array("{\n  // keys\n  \"version\": 1,\n  \"keys\": []\n}".utf8), []),
            ParserCase("block comments everywhere whitespace is", Array("/* a */{ /* b */ \"version\" /* c */ : /* d */ 1 /* e */, \"keys\": [ /* f */ ] /* g */ } /* h */".utf8), []),
            ParserCase("comment at the end of the file", Array("{ \"version\": 1, \"keys\": [] } // done".utf8), []),
            ParserCase("only comments", Array("// nothing\n/* here */\n".utf8), [#"keys.json:3:1: error: the file is empty; expected a JSON object such as { "version": 1, "keys": [] }"#]),
            ParserCase("unterminated block comment", Array("{\n  \"version\": 1, /* the keys\n  \"keys\": []\n}".utf8), [#"keys.json:2:17: error: unterminated block comment; close it with '*/'"#]),
            ParserCase("lone slash", Array("{\n  \"version\": / 1,\n  \"keys\": []\n}".utf8), [#"keys.json:2:14: error: unexpected '/'; comments start with '//' or '/*'"#]),
            ParserCase("a comment does not end a string", Array("{\n  \"version\": 1,\n  \"keys\": [],\n  \"catalog\": \"A//B\"\n}".utf8), [#"keys.json:4:14: error: catalog name 'A//B' is not a Swift identifier; use letters, digits and '_' and start with a letter, as in 'AB'"#]),
            ParserCase("single quotes", Array("{\n  'version': 1,\n  \"keys\": []\n}".utf8), [#"keys.json:2:3: error: member names use double quotes in JSON; replace the single quotes with '"'"#]),
            ParserCase("bad literal", Array("{\n  \"version\": 1,\n  \"keys\": [],\n  \"catalog\": True\n}".utf8), [#"keys.json:4:14: error: unexpected 'True'; expected a value: a string in double quotes, a number, true, false, null, an array or an object"#]),
            ParserCase("invalid escape", Array("{\n  \"version\": 1,\n  \"keys\": [ { \"name\": \"a\\qb\", \"type\": \"Int\", \"default\": 1 } ]\n}".utf8), [#"keys.json:3:25: error: invalid escape '\q'; JSON escapes are \" \\ \/ \b \f \n \r \t and \uXXXX"#]),
            ParserCase("lone surrogate", Array("{\n  \"version\": 1,\n  \"keys\": [ { \"name\": \"a\", \"type\": \"String\", \"default\": \"\\ud800\" } ]\n}".utf8), [#"keys.json:3:58: error: invalid escape: lone surrogate '\uD800'; pair it with its other half or remove it"#]),
            ParserCase("missing colon", Array("{\n  \"version\" 1,\n  \"keys\": []\n}".utf8), [#"keys.json:2:13: error: unexpected '1' after member name 'version'; expected ':'"#]),
            ParserCase("missing comma", Array("{\n  \"version\": 1\n  \"keys\": []\n}".utf8), [#"keys.json:3:3: error: unexpected '"' in an object; expected ',' or '}'"#]),
            ParserCase("garbage after value", Array("{\n  \"version\": 1,\n  \"keys\": []\n} x".utf8), [#"keys.json:4:3: error: unexpected 'x' after the top-level value; remove it or wrap the values in an array"#]),
            ParserCase("top-level array", Array("[1, 2]".utf8), [#"keys.json:1:1: error: the manifest is an array, expected an object; write it like { "version": 1, "keys": [] }"#]),
            ParserCase("NaN", Array("{\n  \"version\": NaN,\n  \"keys\": []\n}".utf8), [#"keys.json:2:14: error: unexpected 'NaN'; expected a value: a string in double quotes, a number, true, false, null, an array or an object"#]),
            ParserCase("minus without digits", Array("{\n  \"version\": -,\n  \"keys\": []\n}".utf8), [#"keys.json:2:14: error: invalid number '-'; expected a digit after '-'"#]),
        ])
    func syntax(_ testCase: ParserCase) {
        let diagnostics = ManifestLoader.load(contents: testCase.bytes, path: "keys.json").diagnostics
        #expect(diagnostics.map(\.description) == testCase.expected)
    }

    /// Found by a review: a diagnostic per bad byte made 4 MB of `0xFF` take 1.9 GB of memory.
    @Test("the parser reports at most 100 problems, then says that it stopped")
    func problemsAreCapped() {
        let bytes = Array("{ \"version\": 1, \"keys\": [], \"x\": \"".utf8) + [UInt8](repeating: 0xFF, count: 10_000) + Array("\" }".utf8)
        let diagnostics = JSONParser.parse(bytes, file: "keys.json").1.map(\.description)
        #expect(diagnostics.count == JSONParser.maximumDiagnostics + 1)
        #expect(diagnostics.first == "keys.json:1:35: error: invalid UTF-8 byte 0xFF; save the file as UTF-8")
        #expect(diagnostics.last == "keys.json:1:135: error: more problems from here on are not reported, after 100; is this a JSON file saved as UTF-8?")
    }

    @Test("positions of values and member names")
    func positions() throws {
        let text = "{\n  \"a\": [1, {\"b\": null}],\n\t\"é\": \"x\"\n}"
        let (value, diagnostics) = JSONParser.parse(Array(text.utf8), file: "f.json")
        #expect(diagnostics == [])
        let root = try #require(value)
        #expect(root.location == SourceLocation(file: "f.json", line: 1, column: 1))
        let a = try #require(root.member("a"))
        #expect(a.nameLocation == SourceLocation(file: "f.json", line: 2, column: 3))
        #expect(a.value.location == SourceLocation(file: "f.json", line: 2, column: 8))
        let inner = try #require(a.value.elements?[1])
        #expect(inner.member("b")?.nameLocation.column == 13)
        #expect(inner["b"]?.isNull == true)
        // Columns count Unicode scalars, as editors show characters: 'é' is one.
        #expect(root.member("é")?.value.location == SourceLocation(file: "f.json", line: 3, column: 7))
    }

    @Test("positions after comments stay exact")
    func positionsAfterComments() throws {
        let text = "// héader\n{ /* é\n */ \"a\": /* x */ 1, // tail\r\n\t\"b\": 2 }"
        let (value, diagnostics) = JSONParser.parse(Array(text.utf8), file: "f.json")
        #expect(diagnostics == [])
        let root = try #require(value)
        #expect(root.location == SourceLocation(file: "f.json", line: 2, column: 1))
        #expect(root.member("a")?.nameLocation == SourceLocation(file: "f.json", line: 3, column: 5))
        #expect(root.member("a")?.value.location == SourceLocation(file: "f.json", line: 3, column: 18))
        #expect(root.member("b")?.nameLocation == SourceLocation(file: "f.json", line: 4, column: 2))
    }

    @Test("escapes decode, surrogate pairs included")
    func escapes() throws {
        let text = #"["\"\\\/\b\f\n\r\t", "\u00e9\ud83d\ude00"]"#
        let (value, diagnostics) = JSONParser.parse(Array(text.utf8), file: "f.json")
        #expect(diagnostics == [])
        #expect(value?.elements?.map(\.string) == ["\"\\/\u{8}\u{c}\n\r\t", "é😀"])
    }

    @Test("numbers keep their literal text")
    func numbers() {
        let (value, _) = JSONParser.parse(Array("[0, -0, 1.50, 2E+10, 123456789012345678901234567890]".utf8), file: "f.json")
        #expect(value?.elements?.map(\.number) == ["0", "-0", "1.50", "2E+10", "123456789012345678901234567890"])
    }

    @Test("duplicate members are kept for the linter")
    func duplicates() {
        let (value, diagnostics) = JSONParser.parse(Array(#"{"a": 1, "a": 2}"#.utf8), file: "f.json")
        #expect(diagnostics == [])
        #expect(value?.members?.count == 2)
        #expect(value?["a"]?.number == "1")
    }
}

/// Bytes to parse and the exact diagnostics they must produce.
struct ParserCase: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var expected: [String]

    init(_ name: String, _ bytes: [UInt8], _ expected: [String]) {
        self.name = name
        self.bytes = bytes
        self.expected = expected
    }

    var testDescription: String { name }
}
