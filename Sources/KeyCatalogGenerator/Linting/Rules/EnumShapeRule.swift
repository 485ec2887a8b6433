/// A type declaration that is not a well-formed enum: `kind` other than `enum`, `rawType` other
/// than `String` or `Int`, no cases, or a raw value of the wrong kind.
///
/// ```json
/// "types": { "Theme": { "kind": "enum", "rawType": "Str", "cases": ["light"] } }
/// // error: unsupported raw type 'Str' for type 'Theme'; did you mean 'String'?
/// ```
struct EnumShapeRule: LintRule {
    let id = "enum-shape"
    let summary = "A type declaration is not a String or Int enum with cases."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for type in context.types where type.value.members != nil {
            if let kind = type.value["kind"], let text = kind.string, text != "enum" {
                findings.append(error("unsupported kind '\(text.truncatedForMessage)' for type '\(type.name)'; only \"kind\": \"enum\" can be declared, other types are written in Swift and named in 'type'", at: kind.location))
            }
            var rawType: EnumDeclaration.RawType?
            if let value = type.value["rawType"], let text = value.string {
                rawType = EnumDeclaration.RawType(rawValue: text)
                if rawType == nil {
                    let hint = NearMiss.suggestion(for: text, among: ["String", "Int"]).map { "did you mean '\($0)'?" } ?? "use 'String' or 'Int'"
                    findings.append(error("unsupported raw type '\(text.truncatedForMessage)' for type '\(type.name)'; \(hint)", at: value.location))
                }
            }
            if let cases = type.value["cases"], let elements = cases.elements, elements.isEmpty {
                findings.append(error("type '\(type.name)' has no cases; add at least one, as in \"cases\": [\"light\", \"dark\"]", at: cases.location))
            }
            for element in type.value["cases"]?.elements ?? [] {
                guard let rawValue = element["rawValue"], let rawType else { continue }
                switch (rawType, rawValue.kind) {
                case (.string, .string): break
                case (.int, .number(let text)) where Int(text) != nil: break
                default:
                    let expected = rawType == .string ? "a string" : "an integer"
                    findings.append(error("raw value \(rawValue.summary) of a case of type '\(type.name)' does not fit raw type '\(rawType.rawValue)'; expected \(expected)", at: rawValue.location))
                }
            }
        }
        return findings
    }
}
