/// A member given twice in one JSON object, anywhere in the manifest.
///
/// ```json
/// { "name": "a", "type": "Int", "name": "b" }   // error at the second "name"
/// ```
struct DuplicateMemberRule: LintRule {
    let id = "duplicate-member"
    let summary = "A member is given twice in one object."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        visit(context.root, into: &findings)
        return findings
    }

    private func visit(_ value: JSONValue, into findings: inout [Diagnostic]) {
        switch value.kind {
        case .object(let members):
            var seen: [String: SourceLocation] = [:]
            for member in members {
                if let first = seen[member.name] {
                    findings.append(
                        error(
                            "member '\(member.name.truncatedForMessage)' is given twice in this object (first at \(first.line):\(first.column)); remove one",
                            at: member.nameLocation
                        )
                    )
                } else {
                    seen[member.name] = member.nameLocation
                }
                visit(member.value, into: &findings)
            }
        case .array(let elements):
            for element in elements { visit(element, into: &findings) }
        default:
            break
        }
    }
}
