/// Two keys with the same storage key in one store: they would overwrite each other. Also a
/// warning when a parameterized key's template can produce another key's storage key, or two
/// templates have the same shape.
///
/// ```json
/// { "name": "a", "key": "count", ... }, { "name": "b", "key": "count", ... }
/// // error: storage key 'count' of key 'b' is already used by key 'a' (3:14) in store 'standard'; give one a different 'key'
/// { "name": "layout", "key": "{listID}::Layout", ... }, { "name": "inboxLayout", "key": "inbox::Layout", ... }
/// // warning: storage key 'inbox::Layout' of key 'inboxLayout' is also what key 'layout' (3:14) stores under when listID is 'inbox'…
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
        findings += overlaps(context)
        return findings
    }

    /// Parameterized keys whose template can produce another key's storage key in the same store.
    ///
    /// Templates are indexed by their fixed prefix (or, lacking one, their fixed suffix), so each
    /// literal key is compared only with the templates that could spell it; a template with no
    /// fixed text at all (`{id}`) is left out, as it could spell anything.
    private func overlaps(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        var shapes: [String: (label: String, location: SourceLocation)] = [:]
        // By store, then by literal prefix or suffix: a literal key's prefixes are looked up
        // without joining the store's name to each.
        var byPrefix: [String: [String: [(LintContext.Key, StorageKeyTemplate)]]] = [:]
        var bySuffix: [String: [String: [(LintContext.Key, StorageKeyTemplate)]]] = [:]
        var prefixLengths: Set<Int> = []
        var suffixLengths: Set<Int> = []
        var literals: [(LintContext.Key, StorageKeyTemplate)] = []
        for key in context.keys {
            guard let template = key.validStorageKey, !template.text.isEmpty else { continue }
            if template.isLiteral {
                literals.append((key, template))
                continue
            }
            let shape = key.store + "\u{0}" + template.segments.map { if case .literal(let text) = $0 { text } else { "{}" } }.joined()
            if let first = shapes[shape] {
                findings.append(
                    warning(
                        "storage key '\(template.text.truncatedForMessage)' of \(key.label) has the same shape as that of \(first.label) (\(first.location.line):\(first.location.column)) in store '\(key.store)': equal parameters give equal storage keys; change one",
                        at: key.storageKeyLocation
                    ))
            } else {
                shapes[shape] = (key.label, key.storageKeyLocation)
            }
            if case .literal(let prefix)? = template.segments.first {
                byPrefix[key.store, default: [:]][prefix, default: []].append((key, template))
                prefixLengths.insert(prefix.count)
            } else if case .literal(let suffix)? = template.segments.last {
                bySuffix[key.store, default: [:]][suffix, default: []].append((key, template))
                suffixLengths.insert(suffix.count)
            }
        }
        guard !byPrefix.isEmpty || !bySuffix.isEmpty else { return findings }
        for (key, literal) in literals {
            let text = literal.text
            let prefixes = byPrefix[key.store]
            let suffixes = bySuffix[key.store]
            guard prefixes != nil || suffixes != nil else { continue }
            let count = text.count
            var candidates: [(LintContext.Key, StorageKeyTemplate)] = []
            if let prefixes {
                for length in prefixLengths where length <= count {
                    candidates += prefixes[String(text.prefix(length))] ?? []
                }
            }
            if let suffixes {
                for length in suffixLengths where length <= count {
                    candidates += suffixes[String(text.suffix(length))] ?? []
                }
            }
            for (other, template) in candidates {
                guard template.placeholders.count <= 8, let values = Self.match(template.segments[...], text[...]) else { continue }
                let assignment = values.map { "\($0.name) is '\($0.value)'" }.joined(separator: " and ")
                findings.append(
                    warning(
                        "storage key '\(text.truncatedForMessage)' of \(key.label) is also what \(other.label) (\(other.storageKeyLocation.line):\(other.storageKeyLocation.column)) stores under when \(assignment), in store '\(key.store)'; change one so they cannot meet",
                        at: key.storageKeyLocation
                    ))
            }
        }
        return findings
    }

    /// The placeholder values under which `segments` spell `text` (each at least one character), or nil.
    static func match(_ segments: ArraySlice<StorageKeyTemplate.Segment>, _ text: Substring) -> [(name: String, value: String)]? {
        guard let first = segments.first else { return text.isEmpty ? [] : nil }
        switch first {
        case .literal(let literal):
            guard text.hasPrefix(literal) else { return nil }
            return match(segments.dropFirst(), text.dropFirst(literal.count))
        case .placeholder(let name):
            guard !text.isEmpty else { return nil }
            var end = text.index(after: text.startIndex)
            while true {
                if let rest = match(segments.dropFirst(), text[end...]) {
                    return [(name, String(text[..<end]))] + rest
                }
                guard end < text.endIndex else { return nil }
                end = text.index(after: end)
            }
        }
    }
}
