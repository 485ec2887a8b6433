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
        /// The ``UbiquitousSyncMetadata/digest(_:)`` of the value the stamp is for (`nil`: not
        /// known, in metadata saved before it was kept): a local value that differs was written
        /// after its stamp was saved (the process ended between the two writes).
        var digest: Int64?
    }

    /// The synced keys' entries, each kept with its part of ``storedValue``, encoded when it is
    /// set: a save then copies each entry's bytes instead of encoding every entry again (with 1,000
    /// synced keys, a synced write cost about 3.9 million instructions, 3.2 million of them that
    /// encoding). Memory: each entry's bytes (about 60 for a short key), in an array of their
    /// own, beside the entry.
    struct Entries: Equatable, Sequence, CustomStringConvertible {
        private var entries: [String: Entry] = [:]
        /// Each key's member of the `keys` dictionary of ``UbiquitousSyncMetadata/storedValue``:
        /// the key's name, then its entry.
        private var encoded: [String: [UInt8]] = [:]
        /// How many bytes `encoded` holds.
        private(set) var encodedByteCount = 0

        subscript(key: String) -> Entry? {
            get { entries[key] }
            set {
                entries[key] = newValue
                encodedByteCount -= encoded[key]?.count ?? 0
                // Under the key as `entries` keeps it: the first of two spellings Swift takes for
                // one key (a composed and a decomposed accent), as an encoding of `entries` has it.
                encoded[key] = newValue.map { Self.encoded(entries[entries.index(forKey: key)!].key, $0) }
                encodedByteCount += encoded[key]?.count ?? 0
            }
        }

        var count: Int { entries.count }
        var values: Dictionary<String, Entry>.Values { entries.values }
        func makeIterator() -> Dictionary<String, Entry>.Iterator { entries.makeIterator() }

        static func == (lhs: Self, rhs: Self) -> Bool { lhs.entries == rhs.entries }

        var description: String { entries.description }

        /// Appends every entry's member, in no particular order.
        func append(to bytes: inout [UInt8]) {
            for member in encoded.values { bytes.append(contentsOf: member) }
        }

        private static func encoded(_ key: String, _ entry: Entry) -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(48 + key.utf8.count)
            FileStoreJournal.appendMemberName(key, to: &bytes)
            FileStoreJournal.appendDictionary(count: entry.digest == nil ? 3 : 4, to: &bytes)
            FileStoreJournal.appendMember("t", UbiquitousSyncEnvelope.storedTime(entry.stamp.time), to: &bytes)
            FileStoreJournal.appendMember("d", .string(entry.stamp.device), to: &bytes)
            FileStoreJournal.appendMember("p", .bool(entry.isPending), to: &bytes)
            // Hexadecimal: a 64-bit digest fits no `Int` on arm64_32.
            if let digest = entry.digest { FileStoreJournal.appendMember("h", .string(String(UInt64(bitPattern: digest), radix: 16)), to: &bytes) }
            return bytes
        }
    }

    /// This store's device identifier: a UUID made once.
    var device: String
    /// Whether this store's keys were ever reconciled with iCloud's values (its first sync is over).
    var hasSynced = false
    var entries = Entries()
    /// Values kept from before an iCloud account change, by storage key.
    var previousAccount: [String: PropertyListValue] = [:]
    /// Keys whose values are still the previous account's: the account changed while a launch
    /// argument hid what the store holds, so they are adopted (kept aside, replaced) once that
    /// can be read, and never pushed before.
    var awaitingAccountChange: Set<String> = []

    init(device: String) {
        self.device = device
    }

    /// The metadata `value` holds: ``storedValue``, or the dictionary its bytes encode (how
    /// metadata was stored before).
    init?(_ value: PropertyListValue?) {
        var value = value
        if case .data(let data)? = value, data.starts(with: Self.storedHeader) {
            // A value kept aside from the previous account sits two levels down: it may be nested
            // as deep as any stored value.
            value = FileStoreJournal.decoded(data.dropFirst(Self.storedHeader.count), extraDepth: 2)
        }
        guard case .dictionary(let members)? = value, case .string(let device)? = members["device"] else { return nil }
        self.device = device
        if case .bool(let synced)? = members["synced"] { hasSynced = synced }
        if case .dictionary(let keys)? = members["keys"] {
            for (key, value) in keys {
                guard case .dictionary(let fields) = value,
                    let envelope = UbiquitousSyncEnvelope(.dictionary(fields.filter { $0.key != "v" }))
                else { continue }
                let isPending = if case .bool(true)? = fields["p"] { true } else { false }
                let digest: Int64? = if case .string(let hex)? = fields["h"] { UInt64(hex, radix: 16).map { Int64(bitPattern: $0) } } else { nil }
                entries[key] = Entry(stamp: envelope.stamp, isPending: isPending, digest: digest)
            }
        }
        if case .dictionary(let previous)? = members["previous"] { previousAccount = previous }
        if case .array(let keys)? = members["adopt"] {
            awaitingAccountChange = Set(keys.compactMap { if case .string(let key) = $0 { key } else { nil } })
        }
    }

    /// What a store keeps: a dictionary (`device`, `synced`, `keys` with each entry's `t`, `d`, `p`
    /// and `h`, and `previous` and `adopt` when there are any) as bytes, after ``storedHeader``,
    /// in the file store journal's value encoding. (Kept as a dictionary, each save cost
    /// UserDefaults on Linux about 17 million instructions with 20 synced keys, 1.8 ms:
    /// CoreFoundation validates, converts and deep-copies a dictionary value; bytes it keeps as
    /// they are.)
    ///
    /// Written member by member, without making the dictionary first: made, it cost each synced
    /// write about 110,000 instructions with 20 synced keys, and its encoding 56,000 more. Each
    /// entry's member is the one ``Entries`` encoded when the entry was set.
    var storedValue: PropertyListValue {
        var bytes = Self.storedHeader
        bytes.reserveCapacity(64 + entries.encodedByteCount)
        FileStoreJournal.appendDictionary(count: 3 + (previousAccount.isEmpty ? 0 : 1) + (awaitingAccountChange.isEmpty ? 0 : 1), to: &bytes)
        FileStoreJournal.appendMember("device", .string(device), to: &bytes)
        FileStoreJournal.appendMember("synced", .bool(hasSynced), to: &bytes)
        FileStoreJournal.appendMemberName("keys", to: &bytes)
        FileStoreJournal.appendDictionary(count: entries.count, to: &bytes)
        entries.append(to: &bytes)
        if !previousAccount.isEmpty { FileStoreJournal.appendMember("previous", .dictionary(previousAccount), to: &bytes) }
        if !awaitingAccountChange.isEmpty {
            FileStoreJournal.appendMember("adopt", .array(awaitingAccountChange.sorted().map(PropertyListValue.string)), to: &bytes)
        }
        return .data(Data(bytes))
    }

    /// What ``storedValue`` starts with: `KCSM` and the format, 1.
    static let storedHeader: [UInt8] = [0x4B, 0x43, 0x53, 0x4D, 1]

    /// The format of metadata a newer version saved (`KCSM` and a format other than 1), if
    /// `value` is such metadata.
    static func newerFormat(of value: PropertyListValue?) -> UInt8? {
        guard case .data(let data)? = value, data.count >= storedHeader.count, data.starts(with: storedHeader.prefix(4)) else { return nil }
        let format = data[data.startIndex + 4]
        return format == storedHeader[4] ? nil : format
    }

}

extension UbiquitousSyncMetadata {
    /// A digest of `value` (`nil`: no value) that every process and platform computes alike:
    /// 64-bit FNV-1a over a canonical encoding (dictionaries by sorted keys, numbers and dates by
    /// their bits).
    static func digest(_ value: PropertyListValue?) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        func mix(_ word: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        func mix(_ string: String) {
            mix(UInt64(string.utf8.count))
            for byte in string.utf8 { mix(byte) }
        }
        func mix(_ value: PropertyListValue) {
            switch value {
            case .bool(let bool): mix(UInt8(bool ? 1 : 2))
            case .int(let int): mix(UInt8(3)); mix(UInt64(bitPattern: Int64(int)))
            case .uint(let uint): mix(UInt8(4)); mix(uint)
            case .double(let double): mix(UInt8(5)); mix(double.bitPattern)
            case .date(let date): mix(UInt8(6)); mix(date.timeIntervalSinceReferenceDate.bitPattern)
            case .string(let string): mix(UInt8(7)); mix(string)
            case .data(let data):
                mix(UInt8(8))
                mix(UInt64(data.count))
                for byte in data { mix(byte) }
            case .array(let elements):
                mix(UInt8(9))
                mix(UInt64(elements.count))
                for element in elements { mix(element) }
            case .dictionary(let members):
                mix(UInt8(10))
                mix(UInt64(members.count))
                for key in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                    mix(key)
                    mix(members[key]!)
                }
            }
        }
        if let value { mix(value) } else { mix(UInt8(0)) }
        return Int64(bitPattern: hash)
    }
}
