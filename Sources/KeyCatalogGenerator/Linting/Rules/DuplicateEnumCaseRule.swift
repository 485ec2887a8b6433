/// Two cases of one declared enum with the same name or the same raw value, or an Int case
/// whose implicit raw value (the previous one plus 1) would overflow `Int`.
///
/// ```json
/// "cases": ["light", "dark", "light"]
/// // error: case 'light' of type 'Theme' is declared twice (first at 4:40); remove one
/// ```
struct DuplicateEnumCaseRule: LintRule {
    let id = "duplicate-enum-case"
    let summary = "An enum declares a case name or raw value twice."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for type in context.types {
            guard let elements = type.value["cases"]?.elements else { continue }
            let isInt = type.value["rawType"]?.string == "Int"
            // By scalars: Swift tells `café` in NFC from `café` in NFD.
            var names: [[Unicode.Scalar]: SourceLocation] = [:]
            var rawValues: [String: (name: String, location: SourceLocation)] = [:]
            // `nil` after Int.max: the next implicit raw value does not exist.
            var nextInt: Int? = 0
            var previousRaw = ""
            for element in elements {
                guard let name = element.string ?? element["name"]?.string else { continue }
                let location = element.string != nil ? element.location : (element["name"]?.location ?? element.location)
                if let first = names[name.identifierKey] {
                    findings.append(error("case '\(name.truncatedForMessage)' of type '\(type.name)' is declared twice (first at \(first.line):\(first.column)); remove one", at: location))
                    continue
                }
                names[name.identifierKey] = location
                var raw = name
                var rawLocation = location
                if let value = element["rawValue"] {
                    raw = value.string ?? value.number ?? name
                    rawLocation = value.location
                    // Compared as numbers: `-0` is `0`.
                    if isInt, let number = Int(raw) { raw = String(number) }
                    if isInt, let number = Int(raw) {
                        let (next, overflow) = number.addingReportingOverflow(1)
                        nextInt = overflow ? nil : next
                        previousRaw = raw
                    }
                } else if isInt {
                    guard let implicit = nextInt else {
                        findings.append(error("case '\(name.truncatedForMessage)' of type '\(type.name)' has no 'rawValue' and follows raw value \(previousRaw), so its implicit raw value would overflow Int; give it an explicit 'rawValue'", at: location))
                        continue
                    }
                    raw = String(implicit)
                    previousRaw = raw
                    let (next, overflow) = implicit.addingReportingOverflow(1)
                    nextInt = overflow ? nil : next
                }
                if let first = rawValues[raw] {
                    findings.append(error("case '\(name.truncatedForMessage)' of type '\(type.name)' has raw value \(isInt ? raw : "'\(raw.truncatedForMessage)'"), already used by case '\(first.name)' (\(first.location.line):\(first.location.column)); give it a different 'rawValue'", at: rawLocation))
                } else {
                    rawValues[raw] = (name, rawLocation)
                }
            }
        }
        return findings
    }
}
