/// A key's `type` (or a migration's `fromType`) is malformed, names a dictionary with non-String
/// keys or looks like a misspelled known type; or a key's type has optional elements or values
/// (a property list cannot hold nil, so writing one would fail; only `"representation":
/// "codable"` stores them, as JSON null). A migration reads its source and never writes it, so
/// `fromType` may hold optionals.
///
/// ```json
/// { "name": "retryCount", "type": "Integer", "default": 3 }
/// // error: unknown type 'Integer' for key 'retryCount'; did you mean 'Int'?
/// { "name": "scores", "type": "[Int?]", "default": [] }
/// // error: type '[Int?]' of key 'scores' holds optionals ('Int?'), but a property list cannot hold nil, so writing one would fail; use '[Int]', or "representation": "codable" to store them as JSON
/// ```
struct TypeRule: LintRule {
    let id = "type"
    let summary = "A type is malformed, unknown, a dictionary without String keys, or holds optionals in a collection."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let enums = Set(context.enumCases.keys)
        for key in context.keys {
            if let value = key.value["type"], let type = key.type {
                switch type {
                case .failure(let failure):
                    findings.append(error("\(failure.message) (\(key.label))", at: value.location))
                case .success(let parsed):
                    if let (unknown, suggestion) = key.typeSuggestion {
                        findings.append(error("unknown type '\(unknown.truncatedForMessage)' for \(key.label); did you mean '\(suggestion)'?", at: value.location))
                    } else if key.value["representation"]?.string != Representation.codable.rawValue,
                        let message = Self.optionalInCollection(parsed, of: key.label)
                    {
                        findings.append(error(message, at: value.location))
                    }
                }
            }
            for migration in key.value["migrations"]?.elements ?? [] {
                guard let value = migration["fromType"], let text = value.string else { continue }
                switch TypeParser.parse(text, enums: enums) {
                case .failure(let failure):
                    findings.append(error("\(failure.message) (migration of \(key.label))", at: value.location))
                case .success(let type):
                    if let custom = LintContext.firstCustomName(in: type),
                        let near = ValueType.scalars.map(\.name).first(where: { $0.lowercased() == custom.lowercased() })
                    {
                        findings.append(error("unknown type '\(custom)' in a migration of \(key.label); did you mean '\(near)'?", at: value.location))
                    }
                }
            }
        }
        return findings
    }

    /// The finding for a key type with an optional inside an array or dictionary (`[Int?]`,
    /// `[String: [Date?]]`), or `nil`.
    static func optionalInCollection(_ type: ValueType, of keyLabel: String) -> String? {
        guard let optional = firstOptionalInCollection(type) else { return nil }
        return "type '\(type)' of \(keyLabel) holds optionals ('\(optional)'), but a property list cannot hold nil, so writing one would fail; "
            + "use '\(withoutOptionalsInCollections(type))', or \"representation\": \"codable\" to store them as JSON"
    }

    private static func firstOptionalInCollection(_ type: ValueType, inCollection: Bool = false) -> ValueType? {
        switch type {
        case .optional(let wrapped): inCollection ? type : firstOptionalInCollection(wrapped)
        case .array(let inner), .dictionary(let inner): firstOptionalInCollection(inner, inCollection: true)
        default: nil
        }
    }

    private static func withoutOptionalsInCollections(_ type: ValueType, inCollection: Bool = false) -> ValueType {
        switch type {
        case .optional(let wrapped):
            inCollection ? withoutOptionalsInCollections(wrapped, inCollection: true) : .optional(withoutOptionalsInCollections(wrapped))
        case .array(let element): .array(withoutOptionalsInCollections(element, inCollection: true))
        case .dictionary(let value): .dictionary(withoutOptionalsInCollections(value, inCollection: true))
        default: type
        }
    }
}
