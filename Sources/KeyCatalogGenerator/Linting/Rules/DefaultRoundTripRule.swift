/// A default that would not read back as written:
///
/// - a string, dictionary key or String enum raw value with a control character a property list cannot hold (U+0000–
///   U+001F except tab, line feed and carriage return, and U+FFFE, U+FFFF): the runtime refuses to
///   store it (see `PropertyListValue.validateForPropertyList()`), so the default could never be
///   written (a `codable` key stores JSON data, which may hold them);
/// - a date stored with the `iso8601` representation more precise than a millisecond, which is
///   all the representation keeps, or outside the years 1 to 9999 in UTC, which it refuses to write.
///
/// ```json
/// { "name": "lastSync", "type": "Date", "default": "2024-01-01T00:00:00.0001Z", "representation": "iso8601" }
/// // error: default '2024-01-01T00:00:00.0001Z' for key 'lastSync' is more precise than a millisecond, but the 'iso8601' representation keeps milliseconds only, so it would not read back equal; round it to milliseconds or use "representation": "timeInterval"
/// ```
struct DefaultRoundTripRule: LintRule {
    let id = "default-round-trip"
    let summary = "A default would not read back as written (a control character in a string, sub-millisecond iso8601 dates, iso8601 dates outside the years 1 to 9999)."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        // A String enum's raw value is what its cases store: one a property list cannot hold
        // makes its case unstorable.
        for type in context.types where type.value["rawType"]?.string == "String" {
            for element in type.value["cases"]?.elements ?? [] {
                guard let raw = element.string != nil ? element : element["rawValue"], let text = raw.string,
                    let scalar = Self.forbiddenScalar(in: text)
                else { continue }
                findings.append(error("raw value '\(text.truncatedForMessage)' of a case of type '\(type.name)' contains the control character \(scalar.codePoint), which a property list cannot hold, so the case could never be stored; remove it", at: raw.location))
            }
        }
        for key in context.keys {
            guard let type = key.validType else { continue }
            let representation = key.value["representation"]?.string
            guard representation != "codable" else { continue }
            for field in ["default", "debugDefault", "releaseDefault"] {
                // Most defaults hold nothing to report: found without building messages first.
                guard let value = key.value[field], Self.mayFind(value, type: type, iso8601: representation == "iso8601") else { continue }
                let subject = "\(field) for \(key.label)"
                walk(value, type: type, path: "", subject: subject, iso8601: representation == "iso8601", into: &findings)
            }
        }
        return findings
    }

    /// Whether ``walk(_:type:path:subject:iso8601:into:)`` would report anything: the same
    /// descent, without paths and messages.
    private static func mayFind(_ value: JSONValue, type: ValueType, iso8601: Bool) -> Bool {
        if let members = value.members, members.count == 1, members[0].name == "swift" { return false }
        switch type {
        case .optional(let wrapped):
            return mayFind(value, type: wrapped, iso8601: iso8601)
        case .string:
            return value.string.map { forbiddenScalar(in: $0) != nil } ?? false
        case .date where iso8601:
            return value.string.map { subMillisecondDigits($0) != nil || isOutsideWritableYears($0) } ?? false
        case .array(let element):
            return (value.elements ?? []).contains { mayFind($0, type: element, iso8601: iso8601) }
        case .dictionary(let valueType):
            return (value.members ?? []).contains { forbiddenScalar(in: $0.name) != nil || mayFind($0.value, type: valueType, iso8601: iso8601) }
        default:
            return false
        }
    }

    private func walk(_ value: JSONValue, type: ValueType, path: String, subject: String, iso8601: Bool, into findings: inout [Diagnostic]) {
        // Swift source is the compiler's to check.
        if let members = value.members, members.count == 1, members[0].name == "swift" { return }
        switch type {
        case .optional(let wrapped):
            walk(value, type: wrapped, path: path, subject: subject, iso8601: iso8601, into: &findings)
        case .string:
            guard let text = value.string, let scalar = Self.forbiddenScalar(in: text) else { return }
            findings.append(error("\(Self.at(path, subject)) contains the control character \(scalar.codePoint), which a property list cannot hold, so the default could never be stored; remove it (a line break or tab is fine)", at: value.location))
        case .date where iso8601:
            guard let text = value.string else { return }
            if Self.isOutsideWritableYears(text) {
                findings.append(error("\(Self.at(path, subject, quoting: text)) is outside the years 1 to 9999 in UTC, which the 'iso8601' representation writes (it refuses other dates), so the default could never be stored; pick a date within them or use \"representation\": \"timeInterval\"", at: value.location))
            }
            guard let digits = Self.subMillisecondDigits(text) else { return }
            findings.append(error("\(Self.at(path, subject, quoting: text)) is more precise than a millisecond (\(digits) fractional digits), but the 'iso8601' representation keeps milliseconds only, so it would not read back equal; round it to 3 fractional digits or use \"representation\": \"timeInterval\"", at: value.location))
        case .array(let element):
            for (offset, item) in (value.elements ?? []).enumerated() {
                walk(item, type: element, path: path + "[\(offset)]", subject: subject, iso8601: iso8601, into: &findings)
            }
        case .dictionary(let valueType):
            for member in value.members ?? [] {
                if let scalar = Self.forbiddenScalar(in: member.name) {
                    findings.append(error("\(Self.at(path, subject)) has a dictionary key '\(member.name.truncatedForMessage)' with the control character \(scalar.codePoint), which a property list cannot hold, so the default could never be stored; remove it", at: member.nameLocation))
                }
                walk(member.value, type: valueType, path: path + "[\"\(member.name.truncatedForMessage)\"]", subject: subject, iso8601: iso8601, into: &findings)
            }
        default:
            return
        }
    }

    /// `default for key 'k'`, or `default[2] for key 'k'` inside a collection; with `quoting`,
    /// `default[2] '…' for key 'k'`.
    private static func at(_ path: String, _ subject: String, quoting text: String? = nil) -> String {
        guard let space = subject.firstIndex(of: " ") else { return subject }
        let quote = text.map { " '\($0.truncatedForMessage)'" } ?? ""
        return subject[..<space] + path + quote + subject[space...]
    }

    /// The first scalar an XML property list cannot hold (as the runtime checks it).
    static func forbiddenScalar(in text: String) -> Unicode.Scalar? {
        // Printable ASCII, tab and line breaks: nothing to find, byte by byte.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x80 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return nil }
        return text.unicodeScalars.first { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: false
            case 0x00..<0x20, 0xFFFE, 0xFFFF: true
            default: false
            }
        }
    }

    /// Whether an ISO 8601 text names an instant the `iso8601` representation refuses to write:
    /// before Foundation's (Julian) 0001-01-01T00:00:00Z, or from 10000-01-01T00:00:00Z on (a zone
    /// offset can move a date of the years 1 to 9999 out of them).
    static func isOutsideWritableYears(_ text: String) -> Bool {
        guard let instant = ISO8601Date.instant(text) else { return false }
        // Seconds since 1970 of 0001-01-01 (Julian) and of 10000-01-01, as the runtime's range.
        return instant.wholeSecondsSince1970 < -62_135_769_600 || instant.wholeSecondsSince1970 >= 253_402_300_800
    }

    /// The number of fractional-second digits of an ISO 8601 text when they go past
    /// milliseconds with a nonzero digit (`.00001` -> 5); `nil` otherwise.
    static func subMillisecondDigits(_ text: String) -> Int? {
        guard let dot = text.firstIndex(where: { $0 == "." || $0 == "," }) else { return nil }
        let digits = text[text.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
        guard digits.count > 3, digits.dropFirst(3).contains(where: { $0 != "0" }) else { return nil }
        return digits.count
    }
}
