import Foundation

#if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
import CoreFoundation
#endif

/// What iCloud's key-value store holds, entry by entry, as every writer over one backend object
/// sees it: a ``UbiquitousKeyValueStore`` and a ``UbiquitousSyncEngine`` over the same
/// `NSUbiquitousKeyValueStore` check iCloud's limits against their writes together (each with
/// its own account of the sizes, together they could pass 1 MB or 1,024 keys unchecked).
///
/// Sizes are measured from the backend on first use and again after any external change, and
/// each write through it is counted as it is made.
final class _UbiquitousSizeLedger: @unchecked Sendable {
    // @unchecked: the backend is required to be thread-safe, and the sizes are behind a lock.

    /// Why iCloud would refuse a write.
    enum Refusal: Error {
        /// The entry alone takes this many bytes.
        case entryTooLarge(Int)
        /// The store holds this many keys already.
        case tooManyKeys(Int)
        /// The store would hold this many bytes in all.
        case totalTooLarge(Int)
    }

    /// Each entry's size (its key's UTF-8 plus the value as a binary property list), and their
    /// sum: both kept as writes change them, so that a write costs the same with 1,000 keys as
    /// with 10 (summed at each write, and copied before each change, the sizes cost a synced write
    /// with 1,000 keys about 230,000 instructions more).
    private struct Sizes {
        var byKey: [String: Int] = [:]
        var total = 0

        mutating func set(_ size: Int?, forKey key: String) {
            total += (size ?? 0) - (byKey[key] ?? 0)
            byKey[key] = size
        }

        /// Calls `set` and counts the entry's `size`, unless iCloud would refuse it.
        mutating func write(_ key: String, size: Int, _ set: () -> Void) -> Refusal? {
            if size > UbiquitousKeyValueStore.maximumBytes { return .entryTooLarge(size) }
            let old = byKey[key]
            if old == nil, byKey.count >= UbiquitousKeyValueStore.maximumKeyCount { return .tooManyKeys(byKey.count) }
            let newTotal = total - (old ?? 0) + size
            if newTotal > UbiquitousKeyValueStore.maximumBytes { return .totalTooLarge(newTotal) }
            set()
            self.set(size, forKey: key)
            return nil
        }
    }

    private let backend: any UbiquitousKeyValueBackend
    /// `nil` until measured.
    private let sizes = _Locked<Sizes?>(nil)

    private init(backend: any UbiquitousKeyValueBackend) {
        self.backend = backend
    }

    /// The ledger of `backend`: one per backend object, kept (with the backend) for the life of
    /// the process, so that an identifier is never reused.
    static func shared(for backend: any UbiquitousKeyValueBackend) -> _UbiquitousSizeLedger {
        ledgers.withLock { ledgers in
            if let ledger = ledgers[ObjectIdentifier(backend)] { return ledger }
            let ledger = _UbiquitousSizeLedger(backend: backend)
            ledgers[ObjectIdentifier(backend)] = ledger
            return ledger
        }
    }

    private static let ledgers = _Locked<[ObjectIdentifier: _UbiquitousSizeLedger]>([:])

    /// The size of an entry: the key's UTF-8 plus `object` as a binary property list.
    static func size(key: String, object: Any) throws -> Int {
        key.utf8.count + (try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)).count
    }

    /// The size of an entry that will hold `value`, whose Foundation object (handed to iCloud) is
    /// `object` (see ``size(key:object:)``).
    ///
    /// On Linux, CoreFoundation's writer is given CoreFoundation's own objects
    /// (``PropertyListValue/preferencesObject``) and only the length of its bytes is read: the
    /// same bytes as from Foundation's objects, without bridging each Swift value for the writer,
    /// nor copying the bytes into a `Data` one at a time, as `PropertyListSerialization` does
    /// there (a synced write: 723,763 instructions through `PropertyListSerialization`).
    static func size(key: String, value: PropertyListValue, object: Any) throws -> Int {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        return try size(key: key, object: object)
        #else
        guard let data = CFPropertyListCreateData(kCFAllocatorDefault, value.preferencesObject, .binaryFormat_v1_0, 0, nil)?.takeRetainedValue() else {
            throw CocoaError(.propertyListWriteInvalid)
        }
        return key.utf8.count + CFDataGetLength(data)
        #endif
    }

    /// Calls `set` (which writes `key` to the backend) and counts the entry's `size`, unless
    /// iCloud would refuse it.
    func write(_ key: String, size: Int, _ set: () -> Void) throws(Refusal) {
        let refusal = sizes.withLock { sizes -> Refusal? in
            if sizes == nil { sizes = measure() }
            return sizes!.write(key, size: size, set)
        }
        if let refusal { throw refusal }
    }

    /// Calls `remove` (which removes `key` from the backend) and stops counting the entry.
    func remove(_ key: String, _ remove: () -> Void) {
        sizes.withLock { sizes in
            remove()
            sizes?.set(nil, forKey: key)
        }
    }

    /// Forgets the sizes, to measure them again: after a change from outside the app.
    func invalidate() {
        sizes.withLock { $0 = nil }
    }

    private func measure() -> Sizes {
        var sizes = Sizes()
        for (key, object) in backend.dictionaryRepresentation {
            // An entry that cannot be measured still counts as a key, with the smallest size.
            sizes.set((try? Self.size(key: key, object: object)) ?? key.utf8.count, forKey: key)
        }
        return sizes
    }
}
