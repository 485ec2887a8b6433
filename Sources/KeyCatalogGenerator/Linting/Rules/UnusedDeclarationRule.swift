/// A warning for a declared store or type that no key uses.
///
/// ```json
/// "stores": { "cloud": { "kind": "ubiquitous" } }   // no key has "store": "cloud"
/// // warning: store 'cloud' is declared but no key uses it; remove it or move keys to it with "store"
/// ```
struct UnusedDeclarationRule: LintRule {
    let id = "unused-declaration"
    let summary = "A declared store or type is not used by any key."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        var usedStores: Set<String> = [context.defaultStore]
        var usedTypes: Set<String> = []
        for key in context.keys {
            usedStores.insert(key.store)
            for migration in key.value["migrations"]?.elements ?? [] {
                if let store = migration["fromStore"]?.string { usedStores.insert(store) }
                if let type = migration["fromType"]?.string { collect(type, into: &usedTypes) }
            }
            if let type = key.validType { collect(type, into: &usedTypes) }
        }
        for store in context.stores where !usedStores.contains(store.name) && store.name != StoreDeclaration.standardName {
            findings.append(warning("store '\(store.name)' is declared but no key uses it; remove it or move keys to it with \"store\"", at: store.nameLocation))
        }
        for type in context.types where !usedTypes.contains(type.name) {
            findings.append(warning("type '\(type.name)' is declared but no key uses it; remove it or use it in a key's \"type\"", at: type.nameLocation))
        }
        return findings
    }

    private func collect(_ type: ValueType, into names: inout Set<String>) {
        switch type {
        case .declaredEnum(let name): names.insert(name)
        case .array(let inner), .dictionary(let inner), .optional(let inner): collect(inner, into: &names)
        // A type of the app's own with generic arguments, which may name declared types
        // (`Box<Theme>`).
        case .custom(let text) where text.utf8.contains(UInt8(ascii: "<")): collect(text, into: &names)
        default: break
        }
    }

    private func collect(_ text: String, into names: inout Set<String>) {
        // Migration types may name enums; a plain scan of identifiers is enough here.
        for part in text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }) {
            names.insert(String(part))
        }
    }
}
