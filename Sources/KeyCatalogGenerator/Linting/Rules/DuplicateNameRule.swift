/// Two keys with one name, a type named like a built-in type or like the catalog, or a store
/// named `standard` (always `UserDefaults.standard`).
///
/// ```json
/// "keys": [{ "name": "isOn", ... }, { "name": "isOn", ... }]
/// // error: key name 'isOn' is used twice (first at 3:15); rename one
/// ```
struct DuplicateNameRule: LintRule {
    let id = "duplicate-name"
    let summary = "A name is declared twice or shadows a built-in name."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        var seen: [[Unicode.Scalar]: SourceLocation] = [:]
        // ASCII names, most of them, are equal exactly when their scalars are: kept by the
        // string, without making an array of scalars for each.
        var seenASCII: [String: SourceLocation] = [:]
        // Non-ASCII names by `String` equality (canonical equivalence): two spellings Swift keeps
        // apart (`café` composed and decomposed) are one name to settings documents.
        var seenCanonically: [String: SourceLocation] = [:]
        for key in context.keys {
            guard let value = key.value["name"], let name = value.string else { continue }
            let isASCII = name.utf8.allSatisfy { $0 < 0x80 }
            if let first = isASCII ? seenASCII[name] : seen[name.identifierKey] {
                findings.append(error("key name '\(name.truncatedForMessage)' is used twice (first at \(first.line):\(first.column)); rename one", at: value.location))
            } else if !isASCII, let first = seenCanonically[name] {
                findings.append(error("key name '\(name.truncatedForMessage)' is the name at \(first.line):\(first.column) in another Unicode normalization: settings documents would take them for one key; rename one", at: value.location))
            } else if isASCII {
                seenASCII[name] = value.location
            } else {
                seen[name.identifierKey] = value.location
                seenCanonically[name] = value.location
            }
        }
        let catalogName = context.root["catalog"]?.string ?? Catalog.defaultName
        for type in context.types {
            if ValueType.scalar(named: type.name) != nil || ["Optional", "Array", "Dictionary"].contains(type.name) {
                findings.append(error("type name '\(type.name)' shadows the built-in type; rename it", at: type.nameLocation))
            } else if type.name == catalogName {
                findings.append(error("type name '\(type.name)' is also the catalog's name; rename the type or set a different 'catalog'", at: type.nameLocation))
            }
        }
        for store in context.stores where store.name == StoreDeclaration.standardName {
            findings.append(error("store name 'standard' is built in (UserDefaults.standard) and cannot be redeclared; remove it or choose another name", at: store.nameLocation))
        }
        return findings
    }
}
