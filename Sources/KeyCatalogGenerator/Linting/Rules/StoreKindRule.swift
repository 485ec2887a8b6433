/// A store's `kind` is unknown, a field its kind needs is missing (`service` for `keychain`,
/// `path` for `file`), a field does not apply to its kind, or a keychain store's `accessibility`
/// is unknown, or a file store's path is another file store's journal or lock file.
///
/// ```json
/// "stores": { "secrets": { "kind": "keychain" } }
/// // error: keychain store 'secrets' has no 'service'; add one, as in "service": "com.example.app"
/// "stores": { "secrets": { "kind": "keychain", "service": "s", "accessibility": "afterFirstUnlok" } }
/// // error: unknown accessibility 'afterFirstUnlok' for keychain store 'secrets'; did you mean 'afterFirstUnlock'?
/// ```
struct StoreKindRule: LintRule {
    let id = "store-kind"
    let summary = "A store's kind is unknown or its fields do not fit the kind, or a file store's path is another's journal or lock."

    /// The fields each kind accepts besides `kind`, and those it requires.
    static let fields: [String: (allowed: [String], required: [String])] = [
        "userDefaults": (["suite"], []),
        "ubiquitous": ([], []),
        "keychain": (["service", "accessGroup", "accessibility"], ["service"]),
        "file": (["path"], ["path"]),
        "memory": ([], []),
    ]

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for store in context.stores {
            guard let kindValue = store.value["kind"], let kind = kindValue.string else { continue }
            guard let fields = Self.fields[kind] else {
                let hint =
                    NearMiss.suggestion(for: kind, among: StoreKind.names).map { "did you mean '\($0)'?" }
                    ?? "use one of " + StoreKind.names.map { "'\($0)'" }.joined(separator: ", ")
                findings.append(error("unknown store kind '\(kind.truncatedForMessage)' for store '\(store.name)'; \(hint)", at: kindValue.location))
                continue
            }
            for required in fields.required where store.value.member(required) == nil {
                let example = ManifestSchema.fields(of: .store).first { $0.name == required }?.example ?? "\"…\""
                findings.append(error("\(kind) store '\(store.name)' has no '\(required)'; add one, as in \"\(required)\": \(example)", at: store.value.location))
            }
            // `sync` is the icloud-sync rule's to check, with a message that says why.
            for member in store.value.members ?? [] where member.name != "kind" && member.name != "sync" && !fields.allowed.contains(member.name) {
                guard ManifestSchema.fields(of: .store).contains(where: { $0.name == member.name }) else { continue }
                let owners = Self.fields.filter { $0.value.allowed.contains(member.name) }.keys.sorted()
                findings.append(error("'\(member.name)' does not apply to \(kind) store '\(store.name)' (only to \(owners.map { "'\($0)'" }.joined(separator: ", "))); remove it or change 'kind'", at: member.nameLocation))
            }
            for member in store.value.members ?? [] where fields.allowed.contains(member.name) {
                if let text = member.value.string, text.isEmpty {
                    findings.append(error("'\(member.name)' of store '\(store.name)' is empty; give a value or remove the field", at: member.value.location))
                }
            }
            if kind == "keychain", let value = store.value["accessibility"], let text = value.string, !text.isEmpty,
                StoreKind.KeychainAccessibility(rawValue: text) == nil
            {
                let names = StoreKind.KeychainAccessibility.allCases.map(\.rawValue)
                let hint =
                    NearMiss.suggestion(for: text, among: names).map { "did you mean '\($0)'?" }
                    ?? "use one of " + names.map { "'\($0)'" }.joined(separator: ", ")
                findings.append(error("unknown accessibility '\(text.truncatedForMessage)' for keychain store '\(store.name)'; \(hint)", at: value.location))
            }
        }
        return findings + sideFiles(context)
    }

    /// The files a file store keeps beside its own, `<file>.journal` and `<file>.lock`.
    static let sideFileSuffixes = [".journal", ".lock"]

    /// A file store whose path is another file store's journal or lock (found by a review: its
    /// writes went to the other's journal, which the other then took for damaged and moved aside).
    /// Paths compare as ``StoreIdentities/filePath(_:)`` spells them.
    private func sideFiles(_ context: LintContext) -> [Diagnostic] {
        var paths: [String: String] = [:]
        var files: [(store: LintContext.NamedEntry, path: JSONValue, text: String, spelled: String)] = []
        for store in context.stores where store.value["kind"]?.string == "file" {
            guard let path = store.value["path"], let text = path.string, !text.isEmpty else { continue }
            let spelled = StoreIdentities.filePath(text)
            if paths[spelled] == nil { paths[spelled] = store.name }
            files.append((store, path, text, spelled))
        }
        var findings: [Diagnostic] = []
        for (store, path, text, spelled) in files {
            for suffix in Self.sideFileSuffixes where spelled.hasSuffix(suffix) {
                guard let owner = paths[String(spelled.dropLast(suffix.count))] else { continue }
                findings.append(
                    error(
                        "file store '\(store.name)' opens the \(suffix.dropFirst()) file that file store '\(owner)' keeps beside its own ('\(text.truncatedForMessage)'); choose another path",
                        at: path.location
                    ))
            }
        }
        return findings
    }
}
