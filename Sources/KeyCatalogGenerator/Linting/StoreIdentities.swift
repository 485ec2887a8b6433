/// What each store of a manifest opens, so that rules about keys "in one store" compare what the
/// runtime opens rather than the stores' names: `"defaults": { "kind": "userDefaults" }` opens
/// `UserDefaults.standard`, as the implicit `standard` store does, and their keys meet there.
///
/// - `userDefaults`: its suite, or `UserDefaults.standard` without one.
/// - `file`: its path as written, with `.`, `..` and empty components taken away by name, as the
///   file store does for folders that do not exist yet: absolute, in the home folder (`~/`), or
///   else in Application Support. Only spellings that are one file on every platform are one:
///   `settings.plist` is `~/.local/share/settings.plist` on Linux but
///   `~/Library/Application Support/settings.plist` on Apple platforms, and letters differ in
///   case on Linux. Symbolic links cannot be seen from the manifest.
/// - `keychain`: its service. The access group does not tell two apart: a store without one
///   finds every group's items, and Linux ignores groups.
/// - `ubiquitous`: iCloud's one key-value store. `memory`: each store its own.
///
/// A store of no known kind, or not declared, is its own.
struct StoreIdentities {
    private struct Identity {
        /// Equal for stores that open one store.
        var id: String
        /// What it opens, for messages: `UserDefaults.standard`, `file 'settings.plist'`.
        var summary: String
        /// A keychain store's service, as written.
        var service: String? = nil
    }

    private var identities: [String: Identity] = [:]
    /// Whether two names open one store. Without such names (most manifests), a store's name is
    /// its identity, and ``id(of:)`` looks nothing up: rules ask for each key (a hash of the name
    /// each time, about 2 % of generating 10,000 keys).
    private let hasSharedStores: Bool

    init(stores: [LintContext.NamedEntry]) {
        identities[StoreDeclaration.standardName] = Self.userDefaults(suite: nil)
        for store in stores where identities[store.name] == nil {
            identities[store.name] = Self.identity(of: store)
        }
        hasSharedStores = Set(identities.values.map(\.id)).count < identities.count
    }

    /// Equal for the names of stores that open one store.
    func id(of store: String) -> String {
        guard hasSharedStores else { return store }
        return identities[store]?.id ?? Self.own(store).id
    }

    /// `in store 'standard'`, or, when `other` is another name for it, `in store 'standard',
    /// which store 'defaults' also opens (UserDefaults.standard)`.
    func inStore(_ store: String, alsoOpenedBy other: String) -> String {
        let quoted = "in store '\(store.truncatedForMessage)'"
        guard other != store else { return quoted }
        let first = identities[store]?.summary ?? ""
        let second = identities[other]?.summary ?? ""
        let summary = first == second ? first : "\(first), \(second)"
        return "\(quoted), which store '\(other.truncatedForMessage)' also opens (\(summary))"
    }

    /// The service of a keychain store, as written; `nil` for other stores.
    func keychainService(of store: String) -> String? {
        identities[store]?.service
    }

    private static func identity(of store: LintContext.NamedEntry) -> Identity {
        let value = store.value
        switch value["kind"]?.string {
        case "userDefaults":
            guard value.member("suite") == nil || value["suite"]?.string != nil else { return own(store.name) }
            return userDefaults(suite: value["suite"]?.string)
        case "ubiquitous":
            return Identity(id: "ubiquitous", summary: "iCloud's key-value store")
        case "file":
            guard let path = value["path"]?.string else { return own(store.name) }
            return Identity(id: "file\u{0}" + filePath(path), summary: "file '\(path.truncatedForMessage)'")
        case "keychain":
            guard let service = value["service"]?.string else { return own(store.name) }
            return Identity(id: "keychain\u{0}" + service, summary: "keychain service '\(service.truncatedForMessage)'", service: service)
        default:
            return own(store.name)
        }
    }

    private static func userDefaults(suite: String?) -> Identity {
        guard let suite else { return Identity(id: "userDefaults", summary: "UserDefaults.standard") }
        return Identity(id: "userDefaults\u{0}" + suite, summary: "UserDefaults suite '\(suite.truncatedForMessage)'")
    }

    /// A store that shares with no other (a memory store, or one whose kind is unknown).
    private static func own(_ name: String) -> Identity {
        Identity(id: "own\u{0}" + name, summary: "")
    }

    /// A file store's path as one spelling: its folder (`/`, `~` or Application Support) and its
    /// components by name: `settings.plist`, `./settings.plist` and `a/../settings.plist` are all
    /// Application Support's `settings.plist`.
    static func filePath(_ path: String) -> String {
        let root: String
        let rest: Substring
        if path.hasPrefix("/") {
            (root, rest) = ("/", Substring(path))
        } else if path == "~" || path.hasPrefix("~/") {
            (root, rest) = ("~", path.dropFirst())
        } else {
            (root, rest) = ("support", Substring(path))
        }
        var components: [Substring] = []
        for component in rest.split(separator: "/") {
            switch component {
            case ".": continue
            // Above the root folder of an absolute path is the root; above the home folder or
            // Application Support is some folder the manifest cannot name otherwise.
            case ".." where components.last.map({ $0 != ".." }) ?? (root == "/"): _ = components.popLast()
            default: components.append(component)
            }
        }
        return root + "\u{0}" + components.joined(separator: "/")
    }
}
