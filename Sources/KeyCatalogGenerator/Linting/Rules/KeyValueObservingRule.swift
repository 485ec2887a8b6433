/// A warning for storage keys in a `userDefaults` store that contain `.` or start with `@`:
/// key-value observing reads them as key paths or operators, so observation breaks on Apple
/// platforms.
///
/// ```json
/// { "name": "launchCount", "key": "app.launchCount", "type": "Int", "default": 0 }
/// // warning: storage key 'app.launchCount' of key 'launchCount' contains '.', which breaks key-value observation of UserDefaults on Apple platforms; use another separator, such as '_'
/// ```
struct KeyValueObservingRule: LintRule {
    let id = "key-value-observing"
    let summary = "A UserDefaults storage key contains '.' or starts with '@' (breaks KVO)."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for key in context.keys where context.storeKinds[key.store] == "userDefaults" {
            guard let template = key.validStorageKey else { continue }
            // Most storage keys have neither byte: nothing to join or search.
            guard Self.mayBreakObservation(template) else { continue }
            let literal = template.segments.map { if case .literal(let text) = $0 { text } else { "x" } }.joined()
            if literal.hasPrefix("@") {
                findings.append(warning("storage key '\(template.text.truncatedForMessage)' of \(key.label) starts with '@', which breaks key-value observation of UserDefaults on Apple platforms; remove the '@'", at: key.storageKeyLocation))
            } else if literal.contains(".") {
                findings.append(warning("storage key '\(template.text.truncatedForMessage)' of \(key.label) contains '.', which breaks key-value observation of UserDefaults on Apple platforms; use another separator, such as '_'", at: key.storageKeyLocation))
            }
        }
        return findings
    }

    /// `false` when no literal part of `template` holds a '.' and it does not start with '@'
    /// (byte checks: either needs that ASCII byte).
    private static func mayBreakObservation(_ template: StorageKeyTemplate) -> Bool {
        if case .literal(let first)? = template.segments.first, first.utf8.first == UInt8(ascii: "@") { return true }
        return template.segments.contains { segment in
            if case .literal(let text) = segment { text.utf8.contains(UInt8(ascii: ".")) } else { false }
        }
    }
}
