/// iCloud's key-value store limits for `ubiquitous` stores: storage keys of at most 64 bytes
/// (UTF-8), at most 1024 keys.
///
/// ```json
/// { "name": "x", "key": "<65 bytes>", "type": "Int", "default": 0, "store": "cloud" }
/// // error: storage key '…' of key 'x' is 65 bytes; iCloud's key-value store allows 64, so shorten it
/// ```
struct UbiquitousLimitsRule: LintRule {
    let id = "ubiquitous-limits"
    let summary = "A ubiquitous store exceeds iCloud's limits (64-byte keys, 1024 keys)."

    static let maximumKeyBytes = 64
    static let maximumKeys = 1024

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        var counts: [String: Int] = [:]
        for key in context.keys where context.storeKinds[key.store] == "ubiquitous" {
            counts[key.store, default: 0] += 1
            if counts[key.store] == Self.maximumKeys + 1 {
                let total = context.keys.filter { $0.store == key.store }.count
                findings.append(error("store '\(key.store)' has \(total) keys; iCloud's key-value store holds at most \(Self.maximumKeys), so move some keys to another store", at: key.value.location))
            }
            guard let template = key.validStorageKey else { continue }
            let literalBytes = template.segments.reduce(0) { total, segment in
                if case .literal(let text) = segment { total + text.utf8.count } else { total }
            }
            if literalBytes > Self.maximumKeyBytes {
                let prefix = template.isLiteral ? "is \(literalBytes) bytes" : "is more than \(literalBytes) bytes once filled in"
                findings.append(error("storage key '\(template.text.truncatedForMessage)' of \(key.label) \(prefix); iCloud's key-value store allows \(Self.maximumKeyBytes), so shorten it", at: key.storageKeyLocation))
            }
        }
        return findings
    }
}
