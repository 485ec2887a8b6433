/// A known field whose value has the wrong JSON kind, and collections whose elements must be
/// objects (`keys`, `stores`, `types`, `migrations`) or strings and objects (`cases`).
///
/// ```json
/// { "name": "isOn", "type": "Bool", "default": false, "secret": "yes" }
/// // error: 'secret' of key 'isOn' is the string 'yes', expected a boolean; write it like "secret": true
/// ```
struct FieldTypeRule: LintRule {
    let id = "field-type"
    let summary = "A field's value has the wrong JSON kind."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        if context.root.members == nil {
            findings.append(error("the manifest is \(context.root.summary), expected an object; write it like { \"version\": 1, \"keys\": [] }", at: context.root.location))
            return findings
        }
        for (kind, object, label) in context.schemaObjects {
            // By member, not by field: an object has a few members of the many fields its kind
            // allows, and each is checked without looking it up.
            guard let members = object.members else { continue }
            let fields = ManifestSchema.fields(of: kind)
            for (position, member) in members.enumerated() {
                let value = member.value
                let length = member.name.utf8.count
                guard let field = fields.first(where: { $0.name.utf8.count == length && $0.name == member.name }), !field.kinds.isEmpty,
                    !field.kinds.contains(JSONKind(value.kind)),
                    // A repeated member is duplicate-member's: only the first of a name is checked.
                    !members[..<position].contains(where: { $0.name == member.name })
                else { continue }
                let expected = field.kinds.map(\.phrase).joined(separator: " or ")
                findings.append(
                    error(
                        "'\(field.name)' of \(label) is \(value.summary), expected \(expected); write it like \"\(field.name)\": \(field.example)",
                        at: value.location
                    )
                )
            }
        }
        for (offset, element) in (context.root["keys"]?.elements ?? []).enumerated() where element.members == nil {
            findings.append(error("key #\(offset + 1) is \(element.summary), expected an object; write it like { \"name\": \"launchCount\", \"type\": \"Int\", \"default\": 0 }", at: element.location))
        }
        for store in context.stores where store.value.members == nil {
            findings.append(error("store '\(store.name)' is \(store.value.summary), expected an object; write it like { \"kind\": \"userDefaults\" }", at: store.value.location))
        }
        for type in context.types {
            guard type.value.members != nil else {
                findings.append(error("type '\(type.name)' is \(type.value.summary), expected an object; write it like { \"kind\": \"enum\", \"rawType\": \"String\", \"cases\": [\"a\"] }", at: type.value.location))
                continue
            }
            for element in type.value["cases"]?.elements ?? [] where element.string == nil && element.members == nil {
                findings.append(error("a case of type '\(type.name)' is \(element.summary), expected a case name or an object; write it like \"light\" or { \"name\": \"light\", \"rawValue\": \"Light\" }", at: element.location))
            }
        }
        for key in context.keys {
            for element in key.value["migrations"]?.elements ?? [] where element.members == nil {
                findings.append(error("a migration of \(key.label) is \(element.summary), expected an object; write it like { \"fromKey\": \"oldKey\" }", at: element.location))
            }
        }
        return findings
    }
}
