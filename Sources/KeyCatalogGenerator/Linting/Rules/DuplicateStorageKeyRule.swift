/// Two keys with the same storage key in one store: they would overwrite each other.
///
/// ```json
/// { "name": "a", "key": "count", ... }, { "name": "b", "key": "count", ... }
/// // error: storage key 'count' of key 'b' is already used by key 'a' (3:14) in store 'standard'; give one a different 'key'
/// ```
struct DuplicateStorageKeyRule: LintRule {
    let id = "duplicate-storage-key"
    let summary = "Two keys share a storage key in one store."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        var seen: [String: [String: (label: String, location: SourceLocation)]] = [:]
        for key in context.keys {
            guard let template = key.validStorageKey, !template.text.isEmpty else { continue }
            if let first = seen[key.store]?[template.text] {
                findings.append(
                    error(
                        "storage key '\(template.text.truncatedForMessage)' of \(key.label) is already used by \(first.label) (\(first.location.line):\(first.location.column)) in store '\(key.store)'; give one a different 'key'",
                        at: key.storageKeyLocation
                    )
                )
            } else {
                seen[key.store, default: [:]][template.text] = (key.label, key.storageKeyLocation)
            }
        }
        return findings
    }
}
