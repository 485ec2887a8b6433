import Foundation
import Testing

@testable import KeyCatalogGenerator

/// The renderer's building blocks: escaping, identifiers, types, literals, and the shape rules
/// that keep big catalogs fast to compile.
@Suite("Swift renderer")
struct SwiftRendererTests {
    @Test(
        "string literals keep the exact text and never interpolate",
        arguments: [
            ("plain", #""plain""#),
            ("say \"hi\"", #""say \"hi\"""#),
            (#"C:\dir \(x)"#, #""C:\\dir \\(x)""#),
            ("a\nb\r\tc\0", #""a\nb\r\tc\0""#),
            ("\u{7}bell \u{7F}", #""\u{7}bell \u{7F}""#),
            ("café 😀", #""café 😀""#),
            ("zero\u{200B}width \u{202E}rtl \u{2028}ls", #""zero\u{200B}width \u{202E}rtl \u{2028}ls""#),
        ]
    )
    func stringLiterals(_ text: String, _ literal: String) {
        #expect(SwiftSyntax.stringLiteral(text) == literal)
    }

    @Test("keywords are escaped as names, and only `inout` as argument labels")
    func identifiers() {
        #expect(SwiftSyntax.identifier("default") == "`default`")
        #expect(SwiftSyntax.identifier("actor") == "`actor`")
        #expect(SwiftSyntax.identifier("launchCount") == "launchCount")
        #expect(SwiftSyntax.argumentLabel("for") == "for")
        #expect(SwiftSyntax.argumentLabel("inout") == "`inout`")
    }

    @Test("types are qualified so user types cannot shadow them")
    func types() {
        #expect(SwiftTypes.name(of: .dictionary(.optional(.date))) == "[Swift.String: Foundation.Date?]")
        #expect(SwiftTypes.name(of: .array(.array(.uint8))) == "[[Swift.UInt8]]")
        #expect(SwiftTypes.name(of: .optional(.declaredEnum("default"))) == "`default`?")
        #expect(SwiftTypes.name(of: .custom("Foundation.Locale")) == "Foundation.Locale")
        #expect(SwiftTypes.representation(.codable, for: .optional(.url)) == "KeyCatalog.CodablePersistentKeyValueRepresentation<Foundation.URL, Foundation.JSONEncoder, Foundation.JSONDecoder>()")
        #expect(SwiftTypes.representation(.native, for: .int) == nil)
    }

    @Test("a case named none or some in an optional context is not read as Optional's own case")
    func optionalCases() {
        #expect(SwiftLiterals.expression(for: .enumCase("none"), type: .optional(.declaredEnum("Mode"))) == ".some(.none)")
        #expect(SwiftLiterals.expression(for: .enumCase("some"), type: .optional(.declaredEnum("Mode"))) == ".some(.`some`)")
        #expect(SwiftLiterals.expression(for: .enumCase("none"), type: .declaredEnum("Mode")) == ".none")
        #expect(SwiftLiterals.expression(for: .enumCase("dark"), type: .optional(.declaredEnum("Mode"))) == ".dark")
        #expect(SwiftLiterals.expression(for: .array([.enumCase("none"), .null]), type: .array(.optional(.declaredEnum("Mode")))) == "[.some(.none), nil]")
    }

    @Test(
        "Float and Double defaults render so the compiler converts them exactly and silently",
        arguments: [
            ("1e-45", true, "Swift.Float(bitPattern: 0x00000001)"),
            ("-1e-45", true, "Swift.Float(bitPattern: 0x80000001)"),
            ("4.9e-324", false, "Swift.Double(bitPattern: 0x0000000000000001)"),
            // Just below the smallest normal value, rounding up to it: a literal would warn.
            ("1.1754943e-38", true, "Swift.Float(bitPattern: 0x00800000)"),
            ("2.2250738585072012e-308", false, "Swift.Double(bitPattern: 0x0010000000000000)"),
            // A negative zero (the integer literal -0 is +0), and literals that round to zero.
            ("-0", false, "-0.0"),
            ("-0", true, "-0.0"),
            ("-0.0", false, "-0.0"),
            ("1e-46", true, "0.0"),
            ("0", false, "0"),
            ("18446744073709551615", false, "1.8446744073709552e+19"),
            ("16777217", true, "16777216.0"),
            ("16777216", true, "16777216"),
            ("0.5", false, "0.5"),
            ("1e300", false, "1e300"),
            // Found by a review: read through the widest float type, then rounded again, these
            // land on a halfway point and become infinity; the shortest decimal does not.
            ("340282356779733661637539395458142568447.0", true, "3.4028235e+38"),
            ("1.7976931348623158079e308", false, "1.7976931348623157e+308"),
        ])
    func floatingLiterals(text: String, isFloat: Bool, expected: String) {
        #expect(SwiftLiterals.floatingLiteral(text, isFloat: isFloat) == expected)
    }

    /// The check of a literal read through x86's 80-bit float is exact arithmetic, the same on
    /// every host (found by a review: using the host's `Float80`, an arm64 host wrote literals
    /// that x86 reads as another value). Known cases everywhere; on x86, against `Float80` itself
    /// for decimals on, beside and between halfway points.
    @Test("a literal's double rounding through an 80-bit float is worked out alike on every host")
    func doubleRoundingIsExact() {
        #expect(!DoubleRounding.changes("1e23", value: 1e23 as Double))
        #expect(DoubleRounding.changes("1.7976931348623158079e308", value: Double.greatestFiniteMagnitude))
        #expect(DoubleRounding.changes("340282356779733661637539395458142568447.0", value: Float.greatestFiniteMagnitude))
        #expect(!DoubleRounding.changes("0.1", value: 0.1 as Double))
        #expect(!DoubleRounding.changes("1.7976931348623157e+308", value: Double.greatestFiniteMagnitude))
        #if arch(x86_64) || arch(i386)
        var generator = SystemRandomNumberGenerator()
        var changed = 0
        func check<F: BinaryFloatingPoint & LosslessStringConvertible>(_ text: String, as _: F.Type) {
            guard let value = F(text), value.isNormal, let extended = Float80(text) else { return }
            let reference = F(extended) != value
            if reference { changed += 1 }
            #expect(DoubleRounding.changes(text, value: value) == reference, "\(text) as \(F.self)")
        }
        for _ in 0..<3_000 {
            let value = Double(bitPattern: UInt64.random(in: 0x0010_0000_0000_0000...0x7FEF_FFFF_FFFF_FFFF, using: &generator))
            // The halfway point above, exactly, and decimals just beside it.
            let halfway = Float80(value) / 2 + Float80(value.nextUp) / 2
            for text in ["\(halfway)", "\(value)", "\(Float80(value) + Float80(value.ulp) / 4096)", "\(Float80(value).nextUp)"] {
                check(text, as: Double.self)
            }
            let small = Float(value.magnitude.truncatingRemainder(dividingBy: 1e30) + 1e-3)
            if small.isNormal {
                check("\(Float80(small) / 2 + Float80(small.nextUp) / 2)", as: Float.self)
                check("\(small)", as: Float.self)
            }
        }
        #expect(changed > 100, "the decimals put on halfway points change: \(changed)")
        #endif
    }

    @Test("comments never hold a control character")
    func commentControls() {
        #expect(SwiftSyntax.lines(of: "a\u{0}b\u{7}\tc\nd") == [#"a\u{0}b\u{7}"# + "\tc", "d"])
    }

    @Test("defaults render as literals; dates keep their ISO text as a comment")
    func literals() {
        #expect(SwiftLiterals.expression(for: .dictionary([]), type: .dictionary(.int)) == "[:]")
        #expect(SwiftLiterals.expression(for: .array([.enumCase("in"), .null]), type: .array(.optional(.declaredEnum("E")))) == "[.`in`, nil]")
        #expect(SwiftLiterals.expression(for: .date(iso8601: "2026-01-01T00:00:00Z", secondsSince1970: 1_767_225_600), type: .date) == "Foundation.Date(timeIntervalSinceReferenceDate: 788918400)")
        #expect(SwiftLiterals.secondsLiteral(-0.25) == "-0.25")
        let argument = SwiftLiterals.argument("defaultValue", .array([.date(iso8601: "2026-01-01T00:00:00Z", secondsSince1970: 0)]), type: .array(.date))
        #expect(argument.comment == "2026-01-01T00:00:00Z")
        #expect(SwiftLiterals.description(of: .string("a")) == "\"a\"")
        #expect(SwiftLiterals.description(of: .array([.string("a\"b")])) == #"["a\"b"]"#)
        #expect(SwiftLiterals.description(of: .floating("1e-3")) == "0.001")
    }

    @Test("a date default is the Double nearest its instant, written from its text: before 1970 and 2001 too")
    func dateDefaultsAreExact() throws {
        // The seconds since 2001 a rendered date is.
        func seconds(_ text: String) throws -> Double {
            let value = try #require(ISO8601Date.secondsSince1970(text))
            let expression = SwiftLiterals.expression(for: .date(iso8601: text, secondsSince1970: value), type: .date)
            let prefix = "Foundation.Date(timeIntervalSinceReferenceDate: "
            try #require(expression.hasPrefix(prefix) && expression.hasSuffix(")"), "\(expression)")
            let literal = String(expression.dropFirst(prefix.count).dropLast())
            if literal.hasPrefix("Swift.Double(bitPattern: 0x") {
                return Double(bitPattern: try #require(UInt64(literal.dropFirst(27).dropLast(), radix: 16)))
            }
            let parsed = try #require(Double(literal))
            #expect(!DoubleRounding.changes(literal, value: parsed), "\(literal) is rounded twice on x86")
            return parsed
        }
        #expect(try seconds("2026-03-04T05:06:07.123Z") == 794_293_567.123)
        #expect(try seconds("2000-12-31T23:26:46.077Z") == -1993.923)
        #expect(try seconds("1969-07-20T20:17:40.5-01:30") == -992_484_739.5)
        #expect(try seconds("2001-01-01T00:00:00Z") == 0)
        #expect(try seconds("2001-01-01T00:00:00.000100Z") == 0.0001)
        #expect(try seconds("2000-12-31T23:59:59.9999Z") == -0.0001)
        // Before 1582-10-15, in the Julian calendar, as Foundation's ISO 8601 formats read it: its
        // 1582-10-04 is the day before, 1500-02-29 exists, and 0001-01-01 is two days before the
        // proleptic Gregorian one.
        #expect(try seconds("0001-01-01T00:00:00.001Z") == -63_114_076_799.999)
        #expect(try seconds("1582-10-15T00:00:00Z") - seconds("1582-10-04T00:00:00Z") == 86_400)
        #expect(ISO8601Date.secondsSince1970("1500-02-29T00:00:00Z") != nil && ISO8601Date.secondsSince1970("1700-02-29T00:00:00Z") == nil)
        #expect(SwiftLiterals.expression(for: .date(iso8601: "2000-12-31T23:26:46.077Z", secondsSince1970: 0), type: .date) == "Foundation.Date(timeIntervalSinceReferenceDate: -1993.923)")
        // Random millisecond dates, as the iso8601 representation writes them (milliseconds since 2001).
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var generator = SystemRandomNumberGenerator()
        let ranges: [ClosedRange<Int64>] = [
            -63_113_904_000_000...252_423_993_599_999, -1_000_000_000_000...(-978_307_200_000 + 1_000_000_000),
            -10_000_000_000...10_000_000_000, 0...4_000_000_000_000,
        ]
        var wrong: [String] = []
        for range in ranges {
            for _ in 0..<2_000 {
                let milliseconds = Int64.random(in: range, using: &generator)
                let text = Date(timeIntervalSinceReferenceDate: (Double(milliseconds) + 0.5) / 1000).formatted(style)
                let nearest = Double(milliseconds) / 1000
                if try seconds(text) != nearest { wrong.append("\(text): \(try seconds(text)), not \(nearest)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count): \(wrong.prefix(3))")
    }

    @Test("the banner names only the manifest's file name")
    func banner() {
        let catalog = Catalog(location: SourceLocation(file: "/abs/path/keys.json", line: 1, column: 1))
        let source = SwiftRenderer(catalog: catalog, manifestPath: "/abs/path/keys.json").render()
        #expect(source.hasPrefix("// Generated by keycatalog from keys.json. Do not edit: edit keys.json and build.\n\nimport Foundation\nimport KeyCatalog\n"))
        #expect(!source.contains("/abs/path"))
        #expect(source.hasSuffix("}\n"))
    }

    @Test("big registration tables are split into functions of 100 entries")
    func entriesChunks() {
        let location = SourceLocation(file: "keys.json", line: 1, column: 1)
        let keys = (0..<201).map { index in
            KeyDeclaration(name: "key\(index)", storageKey: StorageKeyTemplate(literal: "Key\(index)"), type: .int, default: .value(.integer("0")), location: location)
        }
        let source = SwiftRenderer(catalog: Catalog(keys: keys, location: location), manifestPath: "keys.json").render()
        #expect(source.contains("        _appendEntries0(to: &entries)\n        _appendEntries1(to: &entries)\n        _appendEntries2(to: &entries)\n"))
        #expect(source.contains("private static func _appendEntries2(to entries: inout [KeyCatalog.KeyCatalogEntry]) {\n        entries.append(KeyCatalog.KeyCatalogEntry(name: \"key200\""))
        #expect(!source.contains("_appendEntries3"))
    }

    @Test("every keyword is told apart by its fast path: at most 15 ASCII letters")
    func keywordFastPath() {
        #expect(SwiftSyntax.keywords.allSatisfy(SwiftSyntax.isKeyword))
        #expect(SwiftSyntax.identifier("default") == "`default`" && SwiftSyntax.identifier("Protocol") == "`Protocol`")
        #expect(!SwiftSyntax.isKeyword("key12") && !SwiftSyntax.isKeyword("_default") && !SwiftSyntax.isKeyword("defaults"))
    }

    @Test("more than 100 bound keys are bound in functions of 100, parameterized keys not counted")
    func bindingChunks() {
        let location = SourceLocation(file: "keys.json", line: 1, column: 1)
        func keys(_ count: Int) -> [KeyDeclaration] {
            (0..<count).map { index in
                KeyDeclaration(name: "key\(index)", storageKey: StorageKeyTemplate(literal: "Key\(index)"), type: .int, default: .value(.integer("0")), location: location)
            }
        }
        let parameterized = KeyDeclaration(
            name: "perList", storageKey: StorageKeyTemplate(text: "List{id}", segments: [.literal("List"), .placeholder("id")]),
            parameters: [KeyParameter(name: "id", type: .string, location: location)], type: .int, default: .value(.integer("0")), location: location
        )
        // 100 bound keys and a parameterized one: bound in the initializer, by the runtime's wrapper.
        let small = SwiftRenderer(catalog: Catalog(keys: keys(100) + [parameterized], location: location), manifestPath: "keys.json").render()
        #expect(small.contains("        self.stores = stores\n        self._key0 = KeyCatalog.CatalogKey("))
        #expect(small.contains("    @KeyCatalog.CatalogKey internal var key99: Swift.Int\n"))
        #expect(!small.contains("BoundKey") && !small.contains("_bindKeys"))

        let large = SwiftRenderer(catalog: Catalog(keys: keys(201), location: location), manifestPath: "keys.json").render()
        #expect(large.contains("        self.stores = stores\n        self._bindKeys0(to: stores)\n        self._bindKeys1(to: stores)\n        self._bindKeys2(to: stores)\n    }\n"))
        #expect(large.contains("    @_KeysBoundKey internal var key0: Swift.Int\n"))
        #expect(!large.contains("@KeyCatalog.CatalogKey"))
        #expect(large.contains("\n@propertyWrapper\ninternal struct _KeysBoundKey<Value: Swift.Sendable>: Swift.Sendable {\n"))
        #expect(large.contains("nonisolated private mutating func _bindKeys0(to stores: Stores) {\n        self._key0.key = KeyCatalog.CatalogKey(KeyCatalog.PersistentKey<Swift.Int>.key0, name: \"key0\", store: stores.standard, storeName: \"standard\")\n"))
        #expect(large.contains("nonisolated private mutating func _bindKeys2(to stores: Stores) {\n        self._key200.key = KeyCatalog.CatalogKey("))
        #expect(large.components(separatedBy: "self._key99.key = ").count == 2 && !large.contains("_bindKeys3"))
    }

    @Test("a migration source without fromType is read through the key's representation")
    func migrationSourceRepresentation() {
        let location = SourceLocation(file: "keys.json", line: 1, column: 1)
        func source(_ fromKey: String, fromType: ValueType? = nil, fromRepresentation: Representation? = nil) -> MigrationDeclaration {
            MigrationDeclaration(
                fromKey: StorageKeyTemplate(literal: fromKey), fromStore: "standard", fromType: fromType,
                fromRepresentation: fromRepresentation, transform: "lastSyncFromOld", location: location
            )
        }
        let key = KeyDeclaration(
            name: "lastSync", storageKey: StorageKeyTemplate(literal: "LastSync"), type: .optional(.date), default: .value(.null),
            representation: .iso8601,
            migrations: [source("A"), source("B", fromRepresentation: .timeInterval), source("C", fromType: .double)],
            location: location
        )
        let rendered = SwiftRenderer(catalog: Catalog(keys: [key], location: location), manifestPath: "keys.json").render()
        let sources = rendered.split(separator: "\n").filter { $0.contains("KeyMigrationSource(") }.map { $0.trimmingPrefix(while: \.isWhitespace) }
        #expect(
            sources == [
                #"KeyCatalog.KeyMigrationSource(fromKey: "A", store: "standard", representation: KeyCatalog.OptionalPersistentKeyValueRepresentation(wrapping: KeyCatalog.ISO8601DatePersistentKeyValueRepresentation()), transform: _KeysTransform0),"#,
                #"KeyCatalog.KeyMigrationSource(fromKey: "B", store: "standard", representation: KeyCatalog.OptionalPersistentKeyValueRepresentation(wrapping: KeyCatalog.TimeIntervalDatePersistentKeyValueRepresentation()), transform: _KeysTransform0),"#,
                #"KeyCatalog.KeyMigrationSource(fromKey: "C", store: "standard", representation: Swift.Double.persistentKeyValueRepresentation, transform: _KeysTransform1),"#,
            ])
        // Each distinct transform and signature gets one file-scope forwarder to the client's function.
        #expect(rendered.contains("@Sendable nonisolated private func _KeysTransform0(_ oldValue: Foundation.Date?) -> Foundation.Date?? {\n    lastSyncFromOld(oldValue)\n}"))
        #expect(rendered.contains("@Sendable nonisolated private func _KeysTransform1(_ oldValue: Swift.Double) -> Foundation.Date?? {\n    lastSyncFromOld(oldValue)\n}"))
    }

    @Test(
        "an old type whose leading name a parameter hides is named where only types are looked up",
        arguments: [
            ("Box", "Swift.Array<Box>.Element"),
            ("Box<Int>", "Swift.Array<Box<Int>>.Element"),
            ("Box<A.B>", "Swift.Array<Box<A.B>>.Element"),
            ("Box.Inner<Int>", "Swift.Array<Box.Inner<Int>>.Element"),
            ("Boxes<Int>", "Boxes<Int>"),
            ("Other<Box>", "Other<Box>"),
            ("A.Box<Int>", "A.Box<Int>"),
        ]
    )
    func hiddenLeadingName(_ type: String, _ expression: String) {
        #expect(MigrationsRenderer.expressionTypeName(of: .custom(type), hiddenBy: ["Box"]) == expression)
        #expect(MigrationsRenderer.expressionTypeName(of: .optional(.custom(type)), hiddenBy: ["Box"]) == "Swift.Optional<\(type)>", "a generic argument looks up only types")
    }

    /// Found by a review: a key whose type was declared in another module never compiled, as
    /// the generated file imported Foundation and KeyCatalog only.
    @Test(
        "the manifest's imports follow Foundation and KeyCatalog, at the catalog's access level",
        arguments: [
            (AccessLevel.internal, "import Foundation\nimport KeyCatalog\nimport Models\nimport AppCore\n"),
            (.public, "public import Foundation\npublic import KeyCatalog\npublic import Models\npublic import AppCore\n"),
            (
                .package,
                "#if hasFeature(InternalImportsByDefault)\npackage import Foundation\npackage import KeyCatalog\npackage import Models\npackage import AppCore\n"
                    + "#else\nimport Foundation\nimport KeyCatalog\nimport Models\nimport AppCore\n#endif\n"
            ),
        ]
    )
    func imports(access: AccessLevel, expected: String) throws {
        let manifest = #"{ "version": 1, "access": "\#(access.rawValue)", "imports": ["Models", "AppCore"], "keys": [] }"#
        let catalog = try #require(ManifestLoader.load(contents: Array(manifest.utf8), path: "keys.json").catalog)
        #expect(catalog.imports == ["Models", "AppCore"])
        let rendered = SwiftRenderer(catalog: catalog, manifestPath: "keys.json").render()
        #expect(rendered.contains("\n\n" + expected), "\(rendered.prefix(600))")
    }

    @Test("a type's leading name stops at the first character no name holds, without backticks")
    func leadingName() {
        #expect(MigrationsRenderer.leadingName(of: "Box<Int>") == "Box")
        #expect(MigrationsRenderer.leadingName(of: "Box<A.B>") == "Box")
        #expect(MigrationsRenderer.leadingName(of: "Box?") == "Box")
        #expect(MigrationsRenderer.leadingName(of: "Box[Int]") == "Box")
        #expect(MigrationsRenderer.leadingName(of: "Box Int") == "Box")
        #expect(MigrationsRenderer.leadingName(of: "MyApp.Layout") == "MyApp")
        #expect(MigrationsRenderer.leadingName(of: "`default`.Inner") == "default")
        #expect(MigrationsRenderer.leadingName(of: "café<Int>") == "café")
        #expect(MigrationsRenderer.leadingName(of: "[Int]") == nil)
        #expect(MigrationsRenderer.leadingName(of: "") == nil)
    }
}
