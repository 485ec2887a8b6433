/// A name that must be a Swift identifier is not one: `catalog`, key names, store names, type
/// names, case names and parameter names.
///
/// Key, case, parameter and store names may be keywords (the renderer escapes them), except
/// `self`, `Self`, `Type`, `Protocol`, `init` and `_`; `catalog` and type names may not.
///
/// ```json
/// { "name": "launch-count", "type": "Int", "default": 0 }
/// // error: key name 'launch-count' is not a Swift identifier; use letters, digits and '_', as in 'launchCount'
/// ```
struct IdentifierRule: LintRule {
    let id = "identifier"
    let summary = "A name is not a Swift identifier."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        func check(_ name: String, _ what: String, at location: SourceLocation, keywordsAllowed: Bool) {
            if !SwiftIdentifier.isValid(name) {
                let example = SwiftIdentifier.suggestion(for: name).map { ", as in '\($0)'" } ?? ""
                let reason = SwiftIdentifier.problem(in: name).map { " (\($0))" } ?? ""
                findings.append(error("\(what) '\(name.truncatedForMessage)' is not a Swift identifier\(reason); use letters, digits and '_' and start with a letter\(example)", at: location))
            } else if SwiftIdentifier.reservedMemberNames.contains(name) || !keywordsAllowed && SwiftIdentifier.keywords.contains(name) {
                findings.append(error("\(what) '\(name)' is a reserved word in Swift; choose another name", at: location))
            }
        }
        if let catalog = context.root["catalog"], let name = catalog.string {
            check(name, "catalog name", at: catalog.location, keywordsAllowed: false)
        }
        for store in context.stores {
            check(store.name, "store name", at: store.nameLocation, keywordsAllowed: true)
        }
        for type in context.types {
            check(type.name, "type name", at: type.nameLocation, keywordsAllowed: false)
            for element in type.value["cases"]?.elements ?? [] {
                if let name = element.string {
                    check(name, "case name", at: element.location, keywordsAllowed: true)
                } else if let value = element["name"], let name = value.string {
                    check(name, "case name", at: value.location, keywordsAllowed: true)
                }
            }
        }
        for key in context.keys {
            if let value = key.value["name"], let name = value.string {
                check(name, "key name", at: value.location, keywordsAllowed: true)
            }
            for parameter in key.value["parameters"]?.members ?? [] {
                check(parameter.name, "parameter name", at: parameter.nameLocation, keywordsAllowed: true)
            }
        }
        return findings
    }
}
