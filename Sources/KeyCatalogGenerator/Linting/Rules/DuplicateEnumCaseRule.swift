/// Two cases of one declared enum with the same name or the same raw value.
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
            var names: [String: SourceLocation] = [:]
            var rawValues: [String: (name: String, location: SourceLocation)] = [:]
            var nextInt = 0
            for element in elements {
                guard let name = element.string ?? element["name"]?.string else { continue }
                let location = element.string != nil ? element.location : (element["name"]?.location ?? element.location)
                if let first = names[name] {
                    findings.append(error("case '\(name.truncatedForMessage)' of type '\(type.name)' is declared twice (first at \(first.line):\(first.column)); remove one", at: location))
                    continue
                }
                names[name] = location
                var raw = name
                var rawLocation = location
                if let value = element["rawValue"] {
                    raw = value.string ?? value.number ?? name
                    rawLocation = value.location
                    if isInt, let number = Int(raw) { nextInt = number &+ 1 }
                } else if isInt {
                    raw = String(nextInt)
                    nextInt &+= 1
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
