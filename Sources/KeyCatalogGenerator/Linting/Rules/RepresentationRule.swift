/// A `representation` (or a migration's `fromRepresentation`) that does not exist or does not
/// fit the type.
///
/// Fits: `native` for Bool, integers, Double, Float, String, Data and collections of them;
/// `rawValue` for declared enums and custom types; `codable` for any type; `string` for Bool,
/// numbers, String and custom types; `iso8601` and `timeInterval` for Date. Optionals are
/// checked by their wrapped type.
///
/// ```json
/// { "name": "lastSync", "type": "Date", "default": "2024-01-01T00:00:00Z", "representation": "iso8061" }
/// // error: unknown representation 'iso8061' for key 'lastSync'; did you mean 'iso8601'?
/// ```
struct RepresentationRule: LintRule {
    let id = "representation"
    let summary = "A representation is unknown or does not fit the type."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let enums = Set(context.enumCases.keys)
        for key in context.keys {
            if let value = key.value["representation"], let text = value.string {
                findings += check(text, at: value.location, type: key.validType, owner: "\(key.label)")
            }
            for migration in key.value["migrations"]?.elements ?? [] {
                guard let value = migration["fromRepresentation"], let text = value.string else { continue }
                let fromType = migration["fromType"]?.string.flatMap { try? TypeParser.parse($0, enums: enums).get() } ?? key.validType
                findings += check(text, at: value.location, type: fromType, owner: "a migration of \(key.label)")
            }
        }
        return findings
    }

    private func check(_ text: String, at location: SourceLocation, type: ValueType?, owner: String) -> [Diagnostic] {
        guard let representation = Representation(rawValue: text) else {
            let names = Representation.allCases.map(\.rawValue)
            let hint =
                NearMiss.suggestion(for: text, among: names).map { "did you mean '\($0)'?" }
                ?? "use one of " + names.map { "'\($0)'" }.joined(separator: ", ")
            return [error("unknown representation '\(text.truncatedForMessage)' for \(owner); \(hint)", at: location)]
        }
        guard let type, !Self.fits(representation, type.nonOptional) else { return [] }
        let fix = Self.suggestedRepresentation(for: type.nonOptional).map { "use '\($0.rawValue)' or omit 'representation'" } ?? "omit 'representation'"
        return [error("representation '\(text)' does not fit type '\(type)' of \(owner); \(fix)", at: location)]
    }

    /// `true` when `representation` can store values of `type` (not optional).
    static func fits(_ representation: Representation, _ type: ValueType) -> Bool {
        switch representation {
        case .native:
            switch type {
            case .bool, .double, .float, .string, .data: return true
            case .array(let inner), .dictionary(let inner), .optional(let inner): return fits(.native, inner.nonOptional)
            default: return type.isInteger
            }
        case .rawValue:
            if case .declaredEnum = type { return true }
            if case .custom = type { return true }
            return false
        case .codable:
            return true
        case .string:
            if case .custom = type { return true }
            return type == .bool || type == .string || type.isInteger || type.isFloatingPoint
        case .iso8601, .timeInterval:
            return type == .date
        }
    }

    /// A representation that fits `type`, for the fix-it.
    static func suggestedRepresentation(for type: ValueType) -> Representation? {
        switch type {
        case .date: .iso8601
        case .declaredEnum: .rawValue
        case .url, .uuid: .codable
        default: fits(.native, type) ? .native : nil
        }
    }
}
