/// A key whose storage key is the empty string.
///
/// ```json
/// { "name": "launchCount", "key": "", "type": "Int", "default": 0 }
/// // error: storage key of key 'launchCount' is empty; remove "key" to use 'launchCount', or give a name
/// ```
struct EmptyStorageKeyRule: LintRule {
    let id = "empty-storage-key"
    let summary = "A storage key is empty."

    func check(_ context: LintContext) -> [Diagnostic] {
        context.keys.compactMap { key in
            guard let value = key.value["key"], value.string == "" else { return nil }
            let fix = key.name.map { "remove \"key\" to use '\($0)', or give a name" } ?? "give a name"
            return error("storage key of \(key.label) is empty; \(fix)", at: value.location)
        }
    }
}
