/// Two keys with the same storage key in one store (by what the stores open, not by their names:
/// ``StoreIdentities``): they would overwrite each other. Also a
/// warning when a parameterized key's template can produce another key's storage key, when two
/// templates have the same shape, or when two templates of different shapes can produce the same
/// storage key (`list::{listID}` and `{kind}::count` both give `list::count`), by what each
/// parameter's type prints.
///
/// ```json
/// { "name": "a", "key": "count", ... }, { "name": "b", "key": "count", ... }
/// // error: storage key 'count' of key 'b' is already used by key 'a' (3:14) in store 'standard'; give one a different 'key'
/// { "name": "layout", "key": "{listID}::Layout", ... }, { "name": "inboxLayout", "key": "inbox::Layout", ... }
/// // warning: storage key 'inbox::Layout' of key 'inboxLayout' is also what key 'layout' (3:14) stores under when listID is 'inbox'…
/// { "name": "byList", "key": "list::{listID}", ... }, { "name": "byKind", "key": "{kind}::count", ... }
/// // warning: storage key '{kind}::count' of key 'byKind' can be what key 'byList' (3:14) stores under, 'list::count': when kind is 'list' here and listID is 'count' there…
/// ```
struct DuplicateStorageKeyRule: LintRule {
    let id = "duplicate-storage-key"
    let summary = "Two keys share a storage key in one store (stores of two names that open one suite, file or keychain service are one), or parameterized keys can for some parameter values (by what each parameter type prints)."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let stores = context.storeIdentities
        // The index of the first key of each storage key, by store.
        var seen: [String: [String: Int]] = [:]
        for (index, key) in context.keys.enumerated() {
            guard let template = key.validStorageKey, !template.text.isEmpty else { continue }
            let store = stores.id(of: key.store)
            // One lookup: the first key keeps its place (put back when this one is a duplicate).
            if let firstIndex = seen[store, default: [:]].updateValue(index, forKey: template.text) {
                seen[store]?[template.text] = firstIndex
                let first = context.keys[firstIndex]
                let location = first.storageKeyLocation
                findings.append(
                    error(
                        "storage key '\(template.text.truncatedForMessage)' of \(key.label) is already used by \(first.label) (\(location.line):\(location.column)) \(stores.inStore(first.store, alsoOpenedBy: key.store)); give one a different 'key'",
                        at: key.storageKeyLocation
                    )
                )
            }
        }
        findings += overlaps(context)
        return findings
    }

    /// A parameterized key's template, and what can be told from its ends at once.
    private struct Template {
        let key: LintContext.Key
        let template: StorageKeyTemplate
        let pattern: StorageKeyPattern
        /// What its store opens (``StoreIdentities/id(of:)``).
        let store: String
        /// The fixed text it starts with, and ends with, if any.
        let head: String?
        let tail: String?
        let shape: String
    }

    /// Parameterized keys whose template can produce another key's storage key in the same store,
    /// or the same storage key as another template of another shape, for some parameter values
    /// (each placeholder spelling what its parameter's type prints: ``StorageKeyPattern``).
    ///
    /// Templates are indexed by their fixed prefix and suffix, so each key is compared only with
    /// the templates whose ends could agree with its own; a template with no fixed text at either
    /// end (`{id}`, `{a}.{b}`) is left out, as it could spell almost anything.
    private func overlaps(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let stores = context.storeIdentities
        var shapes: [String: (label: String, location: SourceLocation, store: String)] = [:]
        var templates: [Template] = []
        var literals: [(LintContext.Key, StorageKeyTemplate)] = []
        for key in context.keys {
            guard let template = key.validStorageKey, !template.text.isEmpty else { continue }
            if template.isLiteral {
                literals.append((key, template))
                continue
            }
            let store = stores.id(of: key.store)
            let shape = store + "\u{0}" + template.segments.map { if case .literal(let text) = $0 { text } else { "{}" } }.joined()
            if let first = shapes[shape] {
                findings.append(
                    warning(
                        "storage key '\(template.text.truncatedForMessage)' of \(key.label) has the same shape as that of \(first.label) (\(first.location.line):\(first.location.column)) \(stores.inStore(first.store, alsoOpenedBy: key.store)): equal parameters give equal storage keys; change one",
                        at: key.storageKeyLocation
                    ))
            } else {
                shapes[shape] = (key.label, key.storageKeyLocation, key.store)
            }
            let head: String? = if case .literal(let text)? = template.segments.first { text } else { nil }
            let tail: String? = if case .literal(let text)? = template.segments.last { text } else { nil }
            guard head != nil || tail != nil else { continue }
            templates.append(
                Template(
                    key: key, template: template, pattern: StorageKeyPattern(template, parameterTypes: key.parameterTypes), store: store, head: head, tail: tail,
                    shape: shape))
        }
        guard !templates.isEmpty else { return findings }
        // By store, then by fixed prefix (or suffix): a key's own prefixes are looked up without
        // joining the store's name to each. Lengths in UTF-8 bytes (cheap to take, and stores
        // compare keys by scalar): a cut inside a scalar matches no fixed text, and the pattern
        // decides about every candidate.
        var byHead: [String: [String: [Int]]] = [:]
        var byTail: [String: [String: [Int]]] = [:]
        var byTailWithoutHead: [String: [String: [Int]]] = [:]
        var byHeadWithoutTail: [String: [String: [Int]]] = [:]
        var headLengths: Set<Int> = []
        var tailLengths: Set<Int> = []
        // By byte: whether some fixed prefix starts with it (most literal keys start otherwise).
        var headFirstBytes = [Bool](repeating: false, count: 256)
        for (index, entry) in templates.enumerated() {
            if let head = entry.head {
                byHead[entry.store, default: [:]][head, default: []].append(index)
                if entry.tail == nil { byHeadWithoutTail[entry.store, default: [:]][head, default: []].append(index) }
                headLengths.insert(head.utf8.count)
                if let first = head.utf8.first { headFirstBytes[Int(first)] = true }
            }
            if let tail = entry.tail {
                byTail[entry.store, default: [:]][tail, default: []].append(index)
                if entry.head == nil { byTailWithoutHead[entry.store, default: [:]][tail, default: []].append(index) }
                tailLengths.insert(tail.utf8.count)
            }
        }
        /// The templates of `store` whose fixed prefix (or suffix) is a prefix (suffix) of `text`.
        func indexed(_ index: [String: [String: [Int]]], _ lengths: Set<Int>, _ store: String, _ text: String, prefix: Bool) -> [Int] {
            guard let fixed = index[store] else { return [] }
            let bytes = text.utf8
            let count = bytes.count
            var found: [Int] = []
            for length in lengths where length <= count {
                let part = String(decoding: prefix ? bytes.prefix(length) : bytes.suffix(length), as: UTF8.self)
                if let indices = fixed[part] { found += indices }
            }
            return found
        }

        for (key, literal) in literals {
            let text = literal.text
            let store = stores.id(of: key.store)
            let heads = text.utf8.first.map { headFirstBytes[Int($0)] } == true ? indexed(byHead, headLengths, store, text, prefix: true) : []
            // A template with a fixed prefix was found by it: by its suffix, only those without one.
            let tails = indexed(byTailWithoutHead, tailLengths, store, text, prefix: false)
            guard !heads.isEmpty || !tails.isEmpty else { continue }
            let pattern = StorageKeyPattern(literal, parameterTypes: [:])
            for index in heads + tails {
                let other = templates[index]
                guard let spelling = other.pattern.commonSpelling(with: pattern) else { continue }
                findings.append(
                    warning(
                        "storage key '\(text.truncatedForMessage)' of \(key.label) is also what \(other.key.label) (\(other.key.storageKeyLocation.line):\(other.key.storageKeyLocation.column)) stores under when \(Self.phrase(spelling.values)), \(stores.inStore(other.key.store, alsoOpenedBy: key.store)); change one so they cannot meet",
                        at: key.storageKeyLocation
                    ))
            }
        }

        // The templates with both a fixed prefix and a fixed suffix, by store and prefix, then by
        // their suffix, and by each shorter ending of it as long as some template's suffix: two
        // of them meet only if their prefixes agree and their suffixes agree, and looking both
        // up keeps a thousand keys that share a prefix (`doc_{id}_title`, `doc_{id}_color`) from
        // being a million pairs to check.
        var bothEnds: [String: [String: (tails: [String: [Int]], endings: [String: [Int]])]] = [:]
        for (index, entry) in templates.enumerated() {
            guard let head = entry.head, let tail = entry.tail else { continue }
            // In place: a copy of the bucket to change would copy its tables for each template.
            bothEnds[entry.store, default: [:]][head, default: ([:], [:])].tails[tail, default: []].append(index)
            let bytes = tail.utf8
            for length in tailLengths where length < bytes.count {
                let ending = String(decoding: bytes.suffix(length), as: UTF8.self)
                bothEnds[entry.store, default: [:]][head, default: ([:], [:])].endings[ending, default: []].append(index)
            }
        }
        /// The templates with both ends whose prefix is a prefix of `head` and whose suffix is a
        /// suffix of `tail`, or ends with it.
        func meetingBothEnds(_ store: String, _ head: String, _ tail: String) -> [Int] {
            guard let heads = bothEnds[store] else { return [] }
            let (headBytes, tailBytes) = (head.utf8, tail.utf8)
            var found: [Int] = []
            for length in headLengths where length <= headBytes.count {
                guard let bucket = heads[String(decoding: headBytes.prefix(length), as: UTF8.self)] else { continue }
                for length in tailLengths where length <= tailBytes.count {
                    if let indices = bucket.tails[String(decoding: tailBytes.suffix(length), as: UTF8.self)] { found += indices }
                }
                if let indices = bucket.endings[tail] { found += indices }
            }
            return found
        }

        // Pairs of templates whose ends agree: both fixed prefixes, one a prefix of the other;
        // else both fixed suffixes; else one has only a prefix and the other only a suffix; for
        // two templates with both, both. By `first * count + second`, first < second.
        let count = templates.count
        var pairs: Set<Int> = []
        var onlyHeads: [Int] = []
        var onlyTails: [Int] = []
        for (index, entry) in templates.enumerated() {
            if let head = entry.head {
                // With a suffix of its own, only the templates without one (the others just above).
                let byPrefix = entry.tail == nil ? byHead : byHeadWithoutTail
                for other in indexed(byPrefix, headLengths, entry.store, head, prefix: true) where other != index {
                    pairs.insert(min(index, other) * count + max(index, other))
                }
                if let tail = entry.tail {
                    for other in meetingBothEnds(entry.store, head, tail) where other != index {
                        pairs.insert(min(index, other) * count + max(index, other))
                    }
                }
            }
            if let tail = entry.tail {
                let bySuffix = entry.head == nil ? byTail : byTailWithoutHead
                for other in indexed(bySuffix, tailLengths, entry.store, tail, prefix: false) where other != index {
                    pairs.insert(min(index, other) * count + max(index, other))
                }
            }
            if entry.tail == nil { onlyHeads.append(index) }
            if entry.head == nil { onlyTails.append(index) }
        }
        for first in onlyHeads {
            for second in onlyTails where templates[first].store == templates[second].store {
                pairs.insert(min(first, second) * count + max(first, second))
            }
        }
        // One warning a template, for the first earlier one it meets: N templates with only a
        // fixed prefix and M with only a fixed suffix all meet each other, and N x M warnings
        // would bury the rest.
        var warned: Set<Int> = []
        for pair in pairs.sorted() {
            let (firstIndex, secondIndex) = pair.quotientAndRemainder(dividingBy: count)
            guard !warned.contains(secondIndex) else { continue }
            let (first, second) = (templates[firstIndex], templates[secondIndex])
            guard first.shape != second.shape, Self.endsAgree(first, second), let spelling = second.pattern.commonSpelling(with: first.pattern) else { continue }
            warned.insert(secondIndex)
            let location = first.key.storageKeyLocation
            findings.append(
                warning(
                    "storage key '\(second.template.text.truncatedForMessage)' of \(second.key.label) can be what \(first.key.label) (\(location.line):\(location.column)) stores under, '\(spelling.text.truncatedForMessage)': when \(Self.phrase(spelling.values)) here and \(Self.phrase(spelling.otherValues)) there, \(stores.inStore(first.key.store, alsoOpenedBy: second.key.store)); change one so they cannot meet",
                    at: second.key.storageKeyLocation
                ))
        }
        return findings
    }

    /// Whether two templates' fixed prefixes, and fixed suffixes, could belong to one storage key.
    private static func endsAgree(_ first: Template, _ second: Template) -> Bool {
        if let a = first.head?.utf8, let b = second.head?.utf8, !(a.starts(with: b) || b.starts(with: a)) { return false }
        if let a = first.tail?.utf8.reversed(), let b = second.tail?.utf8.reversed(), !(a.starts(with: b) || b.starts(with: a)) { return false }
        return true
    }

    /// `listID is 'inbox' and kind is 'x'`.
    private static func phrase(_ values: [(name: String, value: String)]) -> String {
        values.map { "\($0.name) is '\($0.value.truncatedForMessage)'" }.joined(separator: " and ")
    }
}
