/// `"sync": "iCloud"` on a key or a store: the key lives in its local store and is mirrored
/// through iCloud's key-value store. Checked here:
///
/// - `sync` is `"iCloud"` (on a key also `"none"`, to keep one key of a synced store local).
/// - Only UserDefaults and file stores sync: a keychain store holds secrets, which never leave
///   the device's keychain through iCloud's unencrypted key-value store; a ubiquitous store is
///   iCloud already; a memory store has nothing to keep. A `secret` key never syncs.
/// - Debug keys do not sync: their values are a developer's per-device switches, and Release
///   builds ignore them, so syncing would only let one test device flip another's.
/// - Parameterized keys do not sync: each parameter value would be another iCloud key, and
///   `String`, `Int` and `UUID` parameters have no bound, so the 1,024-key limit could only be
///   found at run time; keep such values in one dictionary under a literal key.
/// - The name in iCloud, `kc:` plus the storage key, fits 64 bytes of UTF-8; two synced keys do
///   not share a storage key (iCloud has one namespace); synced keys plus ubiquitous-store keys
///   are at most 1,024.
///
/// ```json
/// "stores": { "vault": { "kind": "keychain", "service": "app", "sync": "iCloud" } }
/// // error: keychain store 'vault' cannot sync through iCloud: …
/// ```
struct ICloudSyncRule: LintRule {
    let id = "icloud-sync"
    let summary = "A synced key or store cannot sync (secrets, keychain/ubiquitous/memory stores, debug or parameterized keys), or its iCloud name passes 64 bytes, repeats, or passes 1024 keys."

    /// What every synced key's name in iCloud starts with (the runtime's `UbiquitousSyncEngine.keyPrefix`).
    static let keyPrefix = "kc:"
    static let syncableKinds: Set<String> = ["userDefaults", "file"]

    /// Whether `key` is mirrored: its own `sync`, else its store's.
    static func isSynced(_ key: LintContext.Key, in context: LintContext) -> Bool {
        if let own = key.value["sync"]?.string { return own == "iCloud" }
        return context.stores.first { $0.name == key.store }?.value["sync"]?.string == "iCloud"
    }

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for store in context.stores {
            guard let sync = store.value["sync"], let value = sync.string else { continue }
            if value != "iCloud" {
                findings.append(error("'sync' of store '\(store.name)' is '\(value.truncatedForMessage)'; the one value is \"iCloud\"", at: sync.location))
            } else if let kind = store.value["kind"]?.string, StoreKind.names.contains(kind), !Self.syncableKinds.contains(kind) {
                findings.append(error("\(kind) store '\(store.name)' cannot sync through iCloud: \(Self.reason(kind)); remove \"sync\"", at: sync.location))
            }
        }

        var seen: [String: LintContext.Key] = [:]
        var syncedCount = 0
        let ubiquitous = context.keys.filter { context.storeKinds[$0.store] == "ubiquitous" }.count
        for key in context.keys {
            let own = key.value["sync"]
            if let own, let value = own.string, value != "iCloud", value != "none" {
                findings.append(error("'sync' of \(key.label) is '\(value.truncatedForMessage)'; use \"iCloud\", or \"none\" to keep the key local in a synced store", at: own.location))
                continue
            }
            guard Self.isSynced(key, in: context) else { continue }
            // Where to point: the key's own `sync`, else its `store` (the store syncs), else the key.
            let location = own?.location ?? key.value["store"]?.location ?? key.value.location
            let via = own == nil ? " (its store '\(key.store)' syncs; add \"sync\": \"none\" to keep it local)" : ""
            if let kind = context.storeKinds[key.store], !Self.syncableKinds.contains(kind) {
                if own != nil { findings.append(error("\(key.label) is in \(kind) store '\(key.store)', which cannot sync through iCloud: \(Self.reason(kind)); remove \"sync\"", at: location)) }
                continue
            }
            if key.value["secret"]?.bool == true {
                findings.append(error("secret \(key.label) cannot sync through iCloud\(via): secrets never leave the device's keychain; remove \"sync\"", at: location))
                continue
            }
            if key.value["debugDefault"] != nil || key.value["releaseDefault"] != nil {
                findings.append(error("debug \(key.label) cannot sync through iCloud\(via): a debug key is a per-device developer switch that Release builds ignore, so syncing would only let one test device flip another's\(own == nil ? "" : "; remove \"sync\"")", at: location))
                continue
            }
            guard let template = key.validStorageKey else { continue }
            if !template.isLiteral {
                findings.append(error("parameterized \(key.label) cannot sync through iCloud\(via): every parameter value would be another iCloud key, with no bound under the 1024 keys iCloud holds; keep the values in one dictionary under a literal key", at: location))
                continue
            }
            syncedCount += 1
            let bytes = (Self.keyPrefix + template.text).utf8.count
            if bytes > UbiquitousLimitsRule.maximumKeyBytes {
                findings.append(error("storage key '\(template.text.truncatedForMessage)' of synced \(key.label) is \(bytes - Self.keyPrefix.utf8.count) bytes, \(bytes) in iCloud with the '\(Self.keyPrefix)' prefix sync adds; iCloud's key-value store allows \(UbiquitousLimitsRule.maximumKeyBytes), so shorten it to \(UbiquitousLimitsRule.maximumKeyBytes - Self.keyPrefix.utf8.count) bytes", at: key.storageKeyLocation))
            }
            if let first = seen[template.text] {
                findings.append(error("synced \(key.label) has storage key '\(template.text.truncatedForMessage)', as synced \(first.label) has; in iCloud both would be one key, so rename one", at: key.storageKeyLocation))
            } else {
                seen[template.text] = key
            }
            if syncedCount + ubiquitous == UbiquitousLimitsRule.maximumKeys + 1 {
                findings.append(error("\(key.label) is synced key number \(syncedCount), and ubiquitous stores hold \(ubiquitous) keys; iCloud's key-value store holds at most \(UbiquitousLimitsRule.maximumKeys) in all, so keep some keys local", at: location))
            }
        }
        return findings + reservedNames(context, synced: seen)
    }

    /// The names sync keeps for itself (found by a review: each let a lint-clean key overwrite
    /// sync's data, or sync overwrite the key's):
    /// - in a UserDefaults or file store, the storage key of sync's metadata, which it keeps in
    ///   every store that holds a synced key (the runtime's `UbiquitousSyncMetadata.storageKey`);
    /// - in a ubiquitous store, a key starting with `kc:`, which names synced keys in iCloud,
    ///   whose one key-value store both use.
    private func reservedNames(_ context: LintContext, synced: [String: LintContext.Key]) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for key in context.keys {
            guard let template = key.validStorageKey, template.isLiteral else { continue }
            let text = template.text
            // The names first: the store's kind is looked up for the few keys they fit.
            let isMetadata = text == Self.metadataStorageKey
            guard isMetadata || text.utf8.starts(with: Self.keyPrefix.utf8), let kind = context.storeKinds[key.store] else { continue }
            if Self.syncableKinds.contains(kind), isMetadata {
                findings.append(error("storage key '\(text)' of \(key.label) is where iCloud sync keeps its metadata in each UserDefaults or file store that holds a synced key; choose another storage key", at: key.storageKeyLocation))
            } else if kind == "ubiquitous", text.unicodeScalars.starts(with: Self.keyPrefix.unicodeScalars) {
                let syncedName = String(text.unicodeScalars.dropFirst(Self.keyPrefix.unicodeScalars.count))
                let clash = synced[syncedName].map { ": it is the name in iCloud of synced \($0.label) (3-byte prefix '\(Self.keyPrefix)' and its storage key), so both would be one iCloud key" } ?? ", which names synced keys in iCloud"
                findings.append(error("storage key '\(text.truncatedForMessage)' of \(key.label) in ubiquitous store '\(key.store)' starts with '\(Self.keyPrefix)'\(clash); choose another storage key", at: key.storageKeyLocation))
            }
        }
        return findings
    }

    /// Where sync keeps its metadata in a synced local store (the runtime's `UbiquitousSyncMetadata.storageKey`).
    static let metadataStorageKey = "_KeyCatalogSync"

    private static func reason(_ kind: String) -> String {
        switch kind {
        case "keychain": "it holds secrets, which never leave the device's keychain"
        case "ubiquitous": "it is iCloud's key-value store already"
        default: "its values live only as long as the process, so there is nothing to mirror"
        }
    }
}
