import Foundation

/// What a synced local store remembers about its synced keys, kept in the store itself under
/// ``storageKey`` so it lasts exactly as long as the values it describes.
struct UbiquitousSyncMetadata: Equatable {
    /// The storage key the metadata lives under in each synced local store.
    static let storageKey = "_KeyCatalogSync"

    struct Entry: Equatable {
        /// The stamp of the write the local value (or its absence, after a removal) comes from.
        var stamp: UbiquitousSyncStamp
        /// Whether the write has yet to be handed to iCloud.
        var isPending: Bool
    }

    /// This store's device identifier: a UUID made once.
    var device: String
    /// Whether this store's keys were ever reconciled with iCloud's values (its first sync is over).
    var hasSynced = false
    var entries: [String: Entry] = [:]
    /// Values kept from before an iCloud account change, by storage key.
    var previousAccount: [String: PropertyListValue] = [:]

    init(device: String) {
        self.device = device
    }

    init?(_ value: PropertyListValue?) {
        guard case .dictionary(let members)? = value, case .string(let device)? = members["device"] else { return nil }
        self.device = device
        if case .bool(let synced)? = members["synced"] { hasSynced = synced }
        if case .dictionary(let keys)? = members["keys"] {
            for (key, value) in keys {
                guard case .dictionary(let fields) = value,
                    let envelope = UbiquitousSyncEnvelope(.dictionary(fields.filter { $0.key != "v" }))
                else { continue }
                let isPending = if case .bool(true)? = fields["p"] { true } else { false }
                entries[key] = Entry(stamp: envelope.stamp, isPending: isPending)
            }
        }
        if case .dictionary(let previous)? = members["previous"] { previousAccount = previous }
    }

    var propertyListValue: PropertyListValue {
        let keys = entries.mapValues { entry -> PropertyListValue in
            .dictionary(["t": .int(Int(entry.stamp.time)), "d": .string(entry.stamp.device), "p": .bool(entry.isPending)])
        }
        var members: [String: PropertyListValue] = ["device": .string(device), "synced": .bool(hasSynced), "keys": .dictionary(keys)]
        if !previousAccount.isEmpty { members["previous"] = .dictionary(previousAccount) }
        return .dictionary(members)
    }
}
