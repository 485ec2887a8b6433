import Testing

@testable import KeyCatalogGenerator

@Suite("Default values")
struct DefaultMismatchTests {
    /// A manifest with one key `k` of `type` and `default`, beside a declared enum `Theme`.
    static func manifest(type: String, default value: String) -> String {
        """
        {
          "version": 1,
          "types": { "Theme": { "kind": "enum", "rawType": "String", "cases": ["light", "dark"] } },
          "keys": [
            { "name": "k", "type": "\(type)", "default": \(value) },
            { "name": "t", "type": "Theme", "default": "light" }
          ]
        }

        """
    }

    @Test(
        "each kind of mismatch is reported at the value at fault",
        arguments: [
            ("Int", "\"3\"", [#"keys.json:5:46: error: default for key 'k' is the string '3', expected an integer for type 'Int'; write it like 0"#]),
            ("Int", "1.5", [#"keys.json:5:46: error: default for key 'k' is 1.5, expected an integer for type 'Int'; write it without a fraction or exponent, or use 'Double'"#]),
            ("UInt8", "-1", [#"keys.json:5:48: error: default for key 'k' is -1, out of range for type 'UInt8' (0...255); use a value in range or a wider type"#]),
            ("Int64", "9223372036854775808", [#"keys.json:5:48: error: default for key 'k' is 9223372036854775808, out of range for type 'Int64' (-9223372036854775808...9223372036854775807); use a value in range or a wider type"#]),
            ("UInt", "1e3", [#"keys.json:5:47: error: default for key 'k' is 1e3, expected an integer for type 'UInt'; write it without a fraction or exponent, or use 'Double'"#]),
            ("Double", "true", [#"keys.json:5:49: error: default for key 'k' is 'true', expected a number for type 'Double'; write it like 0.5"#]),
            ("Float", "1e39", [#"keys.json:5:48: error: default for key 'k' is 1e39, too large for type 'Float'; use a smaller number"#]),
            ("Float", "1e-50", [#"keys.json:5:48: error: default for key 'k' is 1e-50, too small for type 'Float', which would store 0; use 0, a larger number or 'Double'"#]),
            ("[Double]", "[0.5, -1e-400]", [#"keys.json:5:57: error: default[1] for key 'k' is -1e-400, too small for type 'Double', which would store 0; use 0 or a larger number"#]),
            ("Bool", "0", [#"keys.json:5:47: error: default for key 'k' is the number 0, expected true or false for type 'Bool'; write it like false"#]),
            ("String", "null", [#"keys.json:5:49: error: default for key 'k' is null but type 'String' is not optional; make the type 'String?' or give a value"#]),
            ("Data", "\"not base64!\"", [#"keys.json:5:47: error: default 'not base64!' for key 'k' is not valid base64 for type 'Data'; encode the bytes as base64 with padding, as in "AAEC""#]),
            ("Date", "\"2024-01-01\"", [#"keys.json:5:47: error: default '2024-01-01' for key 'k' is not an ISO 8601 date with a time and a zone; write it like "2024-01-01T00:00:00Z""#]),
            ("Date", "\"2024-02-30T00:00:00Z\"", [#"keys.json:5:47: error: default '2024-02-30T00:00:00Z' for key 'k' is not an ISO 8601 date with a time and a zone; write it like "2024-01-01T00:00:00Z""#]),
            ("URL", "\"example.com\"", [#"keys.json:5:46: error: default 'example.com' for key 'k' is not an absolute URL; include the scheme, as in "https://example.com""#]),
            // What Foundation on the apps' minimum OS refuses (the generated `URL(string:)!` would
            // crash there), whatever the host's Foundation accepts.
            ("URL", "\"https://example.com/a b\"", [#"keys.json:5:46: error: default 'https://example.com/a b' for key 'k' holds ' ' (U+0020), which a URL must percent-encode; write it as %20"#]),
            ("URL", "\"https://example.com/%zz\"", [#"keys.json:5:46: error: default 'https://example.com/%zz' for key 'k' has a '%' not followed by two hexadecimal digits; write a '%' itself as %25"#]),
            ("URL", "\"https://example.com/\\u00e9\"", [#"keys.json:5:46: error: default 'https://example.com/é' for key 'k' holds 'é' (U+00E9), which a URL must percent-encode; write it as %C3%A9"#]),
            ("URL", "\"https://example.com/search?filter[name]=x\"", [#"keys.json:5:46: error: default 'https://example.com/search?filter[name]=x' for key 'k' holds '[' outside the host (only an IP address there takes brackets); write it as %5B"#]),
            ("URL", "\"https://example.com/#a#b\"", [#"keys.json:5:46: error: default 'https://example.com/#a#b' for key 'k' has a second '#' (the first starts the fragment); write it as %23"#]),
            ("UUID", "\"1234\"", [#"keys.json:5:47: error: default '1234' for key 'k' is not a UUID; write it like "E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#]),
            ("[Int]", "[1, \"two\", 3]", [#"keys.json:5:52: error: default[1] for key 'k' is the string 'two', expected an integer for type 'Int'; write it like 0"#]),
            ("[String: Bool]", "{ \"a\": true, \"b\": 1 }", [#"keys.json:5:75: error: default["b"] for key 'k' is the number 1, expected true or false for type 'Bool'; write it like false"#]),
            ("Locale", "\"en\"", [#"keys.json:5:49: error: default for key 'k' is "en", but type 'Locale' is not declared in "types" (so it is taken as a Swift type of yours); declare it there as an enum with that case, or write the default as Swift, like { "swift": "Locale.en" }"#]),
            ("Locale", "\"en-US\"", [#"keys.json:5:49: error: default for key 'k' is "en-US", but type 'Locale' is not declared in "types" (so it is taken as a Swift type of yours); declare it there as an enum with that case, or write the default as Swift, like { "swift": "Locale(…)" }"#]),
            ("Set<Int>", "[1]", [#"keys.json:5:51: error: default for key 'k' of custom type 'Set<Int>' must be Swift source; write it like { "swift": "Set<Int>()" }"#]),
            ("Theme", "\"darkk\"", [#"keys.json:5:48: error: default 'darkk' for key 'k' is not a case of Theme; did you mean 'dark'?"#]),
            ("[Int]?", "{}", [#"keys.json:5:49: error: default for key 'k' is an object, expected an array for type '[Int]'; write it like []"#, #"keys.json:5:49: warning: key 'k' has optional type '[Int]?' but a non-null default, so setting nil restores the default and it never reads nil; make the type '[Int]' or the default null"#]),
            ("Date", "{ \"swift\": 1 }", [#"keys.json:5:47: error: 'swift' in the default for key 'k' is the number 1, expected a string of Swift source; write it like { "swift": "Locale(identifier: \"en\")" }"#]),
        ])
    func mismatch(type: String, value: String, expected: [String]) {
        #expect(lint(Self.manifest(type: type, default: value)) == expected)
    }

    @Test(
        "valid defaults of every built-in type",
        arguments: [
            ("Int", "-9223372036854775808"), ("UInt64", "18446744073709551615"), ("Int8", "127"), ("UInt8", "0"),
            ("Double", "-1.5e-3"), ("Float", "3"), ("Float", "1e-40"), ("Float", "0.0e-99"), ("Double", "-0"), ("Bool", "true"), ("String", "\"\""), ("Data", "\"\""),
            ("Date", "\"2024-02-29T23:59:59.5+02:00\""), ("URL", "\"file:///tmp/x\""),
            ("UUID", "\"e621e1f8-c36c-495a-93fc-0c247a3e6e5f\""), ("[[String]]", "[[\"a\"], []]"),
            ("[String: [Int]]", "{ \"a\": [1] }"), ("Theme?", "null"), ("[Theme]", "[\"dark\"]"),
            ("Set<String>", "{ \"swift\": \"[]\" }"), ("Foundation.Locale", "{ \"swift\": \".current\" }"),
            ("Int", "{ \"swift\": \"Int.max\" }"),
        ])
    func valid(type: String, value: String) {
        #expect(lint(Self.manifest(type: type, default: value)) == [])
    }

    @Test(
        "ISO 8601 dates convert to seconds since 1970",
        arguments: [
            ("1970-01-01T00:00:00Z", 0.0), ("2024-01-01T00:00:00Z", 1_704_067_200), ("2024-01-01T01:00:00+01:00", 1_704_067_200),
            ("1969-12-31T23:59:59.25Z", -0.75), ("2000-02-29T12:00:00-05:30", 951_845_400),
        ])
    func dates(text: String, seconds: Double) {
        #expect(ISO8601Date.secondsSince1970(text) == seconds)
    }

    @Test(
        "malformed dates are rejected",
        arguments: [
            "2024-01-01", "2024-01-01T00:00:00", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-01-01T24:00:00Z",
            "2024-01-01T00:00:00.Z", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00+0100", "",
        ])
    func badDates(text: String) {
        #expect(ISO8601Date.secondsSince1970(text) == nil)
    }

    @Test(
        "URLs every Foundation reads pass, brackets in an IP host and one fragment included",
        arguments: ["http://[::1]:8080/a?b=c#d", "https://user@[2001:db8::1]/", "mailto:a@example.com", "urn:isbn:0451450523", "https://example.com/%5Bx%5D#top"])
    func goodURLs(text: String) {
        #expect(DefaultChecker.urlProblem(text) == nil)
    }
}
