/// Renders the catalog's `Stores`: one `AnyPersistentKeyValueStore` property per declared store
/// (`standard` included), the live stores the manifest describes, in-memory stand-ins for tests,
/// and lookup by manifest name.
///
/// ```swift
/// let keys = Keys(stores: .inMemory())   // tests: nothing touches UserDefaults
/// keys.stores["standard"]                // the store a registration-table entry names
/// ```
struct StoresRenderer {
    let catalog: Catalog
    let access: String

    func render(into writer: inout CodeWriter) {
        let stores = catalog.stores
        let storeType = "KeyCatalog.AnyPersistentKeyValueStore"
        writer.line("/// The stores the manifest declares, one property each.")
        writer.line("///")
        writer.line("/// Tests replace them without global state: `\(SwiftSyntax.identifier(catalog.name))(stores: .inMemory())`.")
        writer.block("nonisolated \(access) struct Stores: Swift.Sendable {") { writer in
            for store in stores {
                writer.line("/// \(Self.summary(of: store))")
                writer.line("\(access) var \(SwiftSyntax.identifier(store.name)): \(storeType)")
            }
            writer.blank()
            writer.line("/// Stores made of the given ones.")
            let parameters = stores.map { (text: "\(SwiftSyntax.identifier($0.name)): \(storeType)", comment: String?.none) }
            writer.call("\(access) init(", parameters, closing: ") {")
            writer.indented { writer in
                for store in stores {
                    let name = SwiftSyntax.identifier(store.name)
                    writer.line("self.\(name) = \(name)")
                }
            }
            writer.line("}")
            writer.blank()
            let synced = syncedKeys
            writer.line("/// The stores as the manifest describes them" + (synced.isEmpty ? "." : ", synced keys mirrored through iCloud."))
            writer.block("\(access) static var live: Stores {") { writer in
                if synced.isEmpty {
                    writer.call("Stores(", arguments { Self.factory(for: $0.kind) }, closing: ")")
                } else {
                    writer.call(".syncing(Stores(", arguments { Self.factory(for: $0.kind) }, closing: "), through: .default)")
                }
            }
            if !synced.isEmpty {
                writer.blank()
                writer.line("/// `stores` with the keys marked `\"sync\": \"iCloud\"` mirrored through `engine`; a test")
                writer.line("/// passes its own stores and engine.")
                writer.block("\(access) static func syncing(_ stores: Stores, through engine: KeyCatalog.UbiquitousSyncEngine) -> Stores {") { writer in
                    writer.line("var stores = stores")
                    for (store, keys) in synced {
                        let name = SwiftSyntax.identifier(store)
                        writer.line("stores.\(name) = engine.attach(stores.\(name), keys: [\(keys.map(SwiftSyntax.stringLiteral).joined(separator: ", "))])")
                    }
                    writer.line("return stores")
                }
            }
            writer.blank()
            writer.line("/// A new, empty in-memory store in place of every store: for tests and previews.")
            writer.block("\(access) static func inMemory() -> Stores {") { writer in
                writer.call("Stores(", arguments { _ in ".memory()" }, closing: ")")
            }
            writer.blank()
            writer.line("/// The store with this manifest name (a registration-table entry's `store`), if declared.")
            writer.block("\(access) subscript(name: Swift.String) -> \(storeType)? {") { writer in
                writer.line("switch name {")
                for store in stores {
                    // `self.`: a store may be named like the parameter (`name`).
                    writer.line("case \(SwiftSyntax.stringLiteral(store.name)): self.\(SwiftSyntax.identifier(store.name))")
                }
                writer.line("default: nil")
                writer.line("}")
            }
        }
    }

    /// The storage keys mirrored through iCloud, by store, in manifest order.
    private var syncedKeys: [(store: String, keys: [String])] {
        catalog.stores.compactMap { store in
            // Without copying the store's keys first: a catalog may have thousands.
            let keys = catalog.keys.compactMap { $0.store == store.name && $0.isSynced ? $0.storageKey.text : nil }
            return keys.isEmpty ? nil : (store.name, keys)
        }
    }

    /// `standard: .userDefaults()`, `shared: .memory()`…: one argument per store.
    private func arguments(_ value: (StoreDeclaration) -> String) -> [(text: String, comment: String?)] {
        catalog.stores.map { ("\(SwiftSyntax.argumentLabel($0.name)): \(value($0))", nil) }
    }

    /// The runtime factory that opens a store of this kind.
    static func factory(for kind: StoreKind) -> String {
        switch kind {
        case .userDefaults(nil):
            ".userDefaults()"
        case .userDefaults(let suite?):
            ".userDefaults(suite: \(SwiftSyntax.stringLiteral(suite)))"
        case .ubiquitous:
            ".ubiquitous()"
        case .keychain(let service, let accessGroup, let accessibility):
            ".keychain(service: \(SwiftSyntax.stringLiteral(service)), accessGroup: \(accessGroup.map(SwiftSyntax.stringLiteral) ?? "nil"), "
                + "accessibility: .\(accessibility.rawValue))"
        case .file(let path):
            ".file(path: \(SwiftSyntax.stringLiteral(path)))"
        case .memory:
            ".memory()"
        }
    }

    /// One line saying what backs a store, for its property's doc comment.
    static func summary(of store: StoreDeclaration) -> String {
        let text: String
        switch store.kind {
        case .userDefaults(nil): text = "`UserDefaults.standard`."
        case .userDefaults(let suite?): text = "The UserDefaults suite `\(suite)`."
        case .ubiquitous: text = "The iCloud key-value store."
        case .keychain(let service, let group, let accessibility):
            text =
                "The keychain, service `\(service)`" + (group.map { ", access group `\($0)`" } ?? "")
                + ", accessible `\(accessibility.rawValue)`."
        case .file(let path): text = "The property-list file `\(path)`."
        case .memory: text = "Memory only: emptied when the process ends."
        }
        return SwiftSyntax.lines(of: text).joined(separator: " ")
    }

    /// The names of the stores backed by UserDefaults, whose registration domain
    /// `register(in:)` fills.
    var userDefaultsStoreNames: [String] {
        catalog.stores.compactMap { store in
            if case .userDefaults = store.kind { store.name } else { nil }
        }
    }
}
