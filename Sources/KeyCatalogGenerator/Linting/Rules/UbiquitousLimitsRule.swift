/// iCloud's key-value store limits for `ubiquitous` stores: storage keys of at most 64 bytes
/// (UTF-8), at most 1024 keys. A parameterized key counts at its longest once filled in (an `Int`
/// takes up to 20 bytes, a `UUID` 36, a `Bool` 5, an enum its longest raw value; a `String` has no
/// limit), and as one key per combination of its parameters' values: any number for `Int`, `UUID`
/// or `String`. Every ubiquitous store is the app's one iCloud key-value store, so they count together.
///
/// ```json
/// { "name": "x", "key": "<65 bytes>", "type": "Int", "default": 0, "store": "cloud" }
/// // error: storage key '…' of key 'x' is 65 bytes; iCloud's key-value store allows 64, so shorten it
/// { "name": "layout", "key": "layout.{listID}", "parameters": { "listID": "Int" }, "type": "Int", "default": 0, "store": "cloud" }
/// // error: key 'layout' in ubiquitous store 'cloud' has a storage key for every value of parameter 'listID' (Int), …
/// ```
struct UbiquitousLimitsRule: LintRule {
    let id = "ubiquitous-limits"
    let summary = "A ubiquitous store exceeds iCloud's limits (64-byte keys, 1024 keys), counting parameterized keys at their longest and once per parameter value."

    static let maximumKeyBytes = 64
    static let maximumKeys = 1024

    /// What a parameter of some type can put in a storage key.
    struct Domain {
        /// The longest value, in bytes of UTF-8; `nil` when unbounded.
        var maximumBytes: Int?
        /// How many values there are; `nil` when unbounded.
        var count: Int?
    }

    /// The domain of a parameter type; `nil` for a type the parameter-type rule reports.
    static func domain(of type: String, in context: LintContext) -> Domain? {
        switch type {
        case "Int": return Domain(maximumBytes: String(Int.min).utf8.count, count: nil)
        case "UUID": return Domain(maximumBytes: 36, count: nil)
        case "String": return Domain(maximumBytes: nil, count: nil)
        case "Bool": return Domain(maximumBytes: "false".utf8.count, count: 2)
        default:
            guard let entry = context.types.first(where: { $0.name == type }), entry.value["kind"]?.string == "enum",
                let rawValues = enumRawValues(entry.value), !rawValues.isEmpty
            else { return nil }
            return Domain(maximumBytes: rawValues.map(\.utf8.count).max(), count: rawValues.count)
        }
    }

    /// An enum's raw values as a storage key spells them: explicit, else the case name (`String`)
    /// or the previous value plus one (`Int`, from 0).
    private static func enumRawValues(_ value: JSONValue) -> [String]? {
        let isInt = value["rawType"]?.string == "Int"
        var next = 0
        var rawValues: [String] = []
        for element in value["cases"]?.elements ?? [] {
            guard let name = element.string ?? element["name"]?.string else { return nil }
            if isInt {
                if let explicit = element["rawValue"] {
                    guard let number = explicit.number.flatMap({ Int($0) }) else { return nil }
                    next = number
                }
                rawValues.append(String(next))
                next &+= 1
            } else {
                rawValues.append(element["rawValue"]?.string ?? name)
            }
        }
        return rawValues
    }

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        // How many storage keys each key can make; nil when unbounded (reported on its own).
        var counts: [(key: LintContext.Key, count: Int?)] = []
        for key in context.keys where context.storeKinds[key.store] == "ubiquitous" {
            guard let template = key.validStorageKey else {
                counts.append((key, 1))
                continue
            }
            let parameters = key.value["parameters"]?.members ?? []
            var domains: [String: (parameter: JSONMember, type: String, domain: Domain)] = [:]
            for name in template.placeholders where domains[name] == nil {
                guard let parameter = parameters.first(where: { $0.name == name }), let type = parameter.value.string,
                    let domain = Self.domain(of: type, in: context)
                else { continue }
                domains[name] = (parameter, type, domain)
            }
            let isComplete = domains.count == Set(template.placeholders).count
            findings += lengthFindings(key, template, domains, isComplete: isComplete)

            guard !template.isLiteral else {
                counts.append((key, 1))
                continue
            }
            guard isComplete else { continue }
            let unbounded = Set(template.placeholders).sorted().compactMap { name in
                domains[name].flatMap { $0.domain.count == nil ? "'\(name)' (\($0.type))" : nil }
            }
            if unbounded.isEmpty {
                counts.append((key, domains.values.reduce(1) { $0.multipliedReportingOverflow(by: $1.domain.count ?? 1).partialValue }))
            } else {
                counts.append((key, nil))
                let which = unbounded.count == 1 ? "parameter \(unbounded[0])" : "parameters \(unbounded.joined(separator: " and "))"
                findings.append(error("\(key.label) in ubiquitous store '\(key.store)' has a storage key for every value of \(which), so it can make more keys than the \(Self.maximumKeys) iCloud's key-value store holds; keep the values in one dictionary under a literal key, or move the key to a local store", at: key.value["parameters"]?.location ?? key.storageKeyLocation))
            }
        }

        let total = counts.reduce(0) { $0 + ($1.count ?? 0) }
        if total > Self.maximumKeys {
            var running = 0
            let crossing = counts.first { entry in
                running += entry.count ?? 0
                return running > Self.maximumKeys
            }
            if let crossing {
                let stores = counts.map(\.key.store).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
                let subject =
                    stores.count == 1
                    ? "store '\(stores[0])' has"
                    : "ubiquitous stores \(stores.map { "'\($0)'" }.joined(separator: ", ")) (all iCloud's one key-value store) have"
                let parameterized = counts.contains { !($0.key.validStorageKey?.isLiteral ?? true) } ? " (a parameterized key counts once per value)" : ""
                findings.append(error("\(subject) \(total) keys\(parameterized); iCloud's key-value store holds at most \(Self.maximumKeys), so move some keys to another store", at: crossing.key.value.location))
            }
        }
        return findings
    }

    /// The storage key's length at its longest, or the parameters that make it unbounded.
    private func lengthFindings(
        _ key: LintContext.Key,
        _ template: StorageKeyTemplate,
        _ domains: [String: (parameter: JSONMember, type: String, domain: Domain)],
        isComplete: Bool
    ) -> [Diagnostic] {
        let unbounded = domains.values.filter { $0.domain.maximumBytes == nil }.sorted { $0.parameter.name < $1.parameter.name }
        if !unbounded.isEmpty {
            return unbounded.map { entry in
                error("parameter '\(entry.parameter.name.truncatedForMessage)' of \(key.label) is a \(entry.type), so storage key '\(template.text.truncatedForMessage)' can be longer than the \(Self.maximumKeyBytes) bytes iCloud's key-value store allows (a longer key ends the app); keep the values in one dictionary under a literal key, or move the key to a local store", at: entry.parameter.value.location)
            }
        }
        guard isComplete else { return [] }
        var bytes = 0
        for segment in template.segments {
            switch segment {
            case .literal(let text): bytes += text.utf8.count
            case .placeholder(let name): bytes += domains[name]?.domain.maximumBytes ?? 0
            }
        }
        guard bytes > Self.maximumKeyBytes else { return [] }
        if template.isLiteral {
            return [error("storage key '\(template.text.truncatedForMessage)' of \(key.label) is \(bytes) bytes; iCloud's key-value store allows \(Self.maximumKeyBytes), so shorten it", at: key.storageKeyLocation)]
        }
        let widths = Set(template.placeholders).sorted().map { "'{\($0)}' up to \(domains[$0]?.domain.maximumBytes ?? 0)" }
        return [error("storage key '\(template.text.truncatedForMessage)' of \(key.label) is up to \(bytes) bytes once filled in (\(widths.joined(separator: ", "))); iCloud's key-value store allows \(Self.maximumKeyBytes), so shorten its literal text", at: key.storageKeyLocation)]
    }
}
