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
            // Most objects have a handful of members: comparing with the earlier ones costs less
            // than hashing them all into a dictionary.
            var seen: [String: SourceLocation] = [:]
            let isSmall = members.count <= 16
            for (index, member) in members.enumerated() {
                let earlier = isSmall ? members[..<index].first { $0.name == member.name }?.nameLocation : seen[member.name]
                if let first = earlier {
                    findings.append(
                        error(
                            "member '\(member.name.truncatedForMessage)' is given twice in this object (first at \(first.line):\(first.column)); remove one",
                            at: member.nameLocation
                        )
                    )
                } else if !isSmall {
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
