#if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
import CoreFoundation
import Foundation

/// The values KeyCatalog read from a UserDefaults suite on Linux, each kept with the object
/// Foundation held for its key when it was read: a read of a key whose object did not change
/// returns the value read before.
///
/// On Linux, `object(forKey:)` turns Foundation's stored object into a Swift value on every call,
/// and that is most of a read: 46,000 of the 50,000 instructions of a Codable get of 489 bytes
/// (`Data` copied from `NSData` byte by byte), 10,000 of the 14,500 of an `Int` get. Asking
/// CoreFoundation for the object (`CFPreferencesCopyAppValue`, what `object(forKey:)` itself asks)
/// and comparing it by identity costs a fraction of that.
///
/// Never stale: Foundation's stored objects never change. A write, by KeyCatalog, by
/// `UserDefaults.set`, or another process's value read by `synchronize()`, stores a new object
/// (an equal value written again keeps the old one, and the value read before is still right).
/// The entry holds the object, so that its address cannot be reused by another while it is here.
/// The value kept is what `object(forKey:)` returned, read between two requests for the object
/// that found the same one, so it is that object's value. Keys the argument domain holds
/// (`-key value` on the command line, looked up on every read: about 1,100 instructions), and
/// keys the suite does not hold (a registered default, or nothing), are read through
/// `object(forKey:)` every time; a key found missing is remembered as missing, so that its reads
/// ask CoreFoundation nothing more, until KeyCatalog writes it or another process writes the suite.
/// A key declared in code (a literal or a small string) read missing is also found by its
/// `String` value's words, without a hash: such a read costs `object(forKey:)` and about 160
/// instructions, against raw `integer(forKey:)`'s 100 (callgrind). So is the entry of such a key
/// read with a value (about 350 instructions less a read).
///
/// Memory: each key read keeps its value, a second copy beside Foundation's, until a read finds
/// a new object, or none (the key was removed: it is remembered as missing); at most
/// ``capacity`` keys (all dropped when full: the next reads keep again the keys in use; a key
/// found missing then is not remembered), so that keys made from a parameter
/// (`"\(listID).layout"`) do not grow it without end.
final class _UserDefaultsReadCache: @unchecked Sendable {
    /// How many keys' values are kept at most: 4,096 unless a test says otherwise.
    let capacity: Int

    private struct Entry {
        let name: CFString
        /// `nil`: the suite held nothing for the key when it was last asked.
        var object: AnyObject?
        var value: PropertyListValue?
    }

    /// The suite in CoreFoundation, which reads ask for the object a key holds, and writes use.
    let domain: PreferencesDomain
    private struct Contents {
        /// By the keys' exact bytes, as CoreFoundation tells keys apart (see ``_ExactKey``).
        var entries: [_ExactKey: Entry] = [:]
        /// How many entries are of keys read missing: a write forgets an entry only if there are
        /// any (most writes then look nothing up).
        var missing = 0
        /// Keys read missing, found by their `String` value's words instead of a hash: a read of
        /// a key at its default is `object(forKey:)` and little more. Each is also an entry read
        /// missing: whatever forgets such an entry empties this.
        var missingKeys = IdentitySlots<Void>()
        /// Entries of keys read with a value, found by their words the same way.
        var foundEntries = IdentitySlots<Entry>()
        /// Whether another suite is open whose name equals this one's as a Swift `String` (see
        /// ``_UserDefaultsReadCache/noteNameSharedAsString()``).
        var isNameSharedAsString = false

        mutating func set(_ entry: Entry, forKey key: String) {
            if let old = entries.updateValue(entry, forKey: _ExactKey(key)) {
                missing += (entry.object == nil ? 1 : 0) - (old.object == nil ? 1 : 0)
                if old.object == nil, entry.object != nil { missingKeys.removeAll() }
            } else if entry.object == nil {
                missing += 1
            }
            let identity = _StringIdentity(key)
            if entry.object == nil {
                missingKeys.insert((), for: identity)
                foundEntries.remove(identity)
            } else {
                foundEntries.insert(entry, for: identity)
            }
        }

        /// Forgets that `key` was read missing; a kept value stays.
        mutating func removeMissingEntry(forKey key: String) {
            guard missing > 0, let entry = entries[_ExactKey(key)], entry.object == nil else { return }
            entries[_ExactKey(key)] = nil
            missing -= 1
            missingKeys.removeAll()
        }

        /// Forgets every key read missing; kept values stay.
        mutating func removeMissingEntries() {
            entries = entries.filter { $0.value.object != nil }
            missing = 0
            missingKeys.removeAll()
        }

        mutating func removeAll() {
            entries.removeAll(keepingCapacity: true)
            missing = 0
            missingKeys.removeAll()
            foundEntries.removeAll()
        }
    }

    /// Up to 64 values of keys declared in code (``_StringIdentity``), each in a slot chosen by
    /// its words: the last one there wins. The keys read missing (values `()`), and the entries of
    /// those read with a value: each is also in `entries`. An entry older than the one there would
    /// cost speed only, never a wrong value: a read returns an entry's value only while the suite
    /// holds that entry's object.
    private struct IdentitySlots<Value> {
        static var slotBits: Int { 6 }
        private var identities = [_StringIdentity](repeating: .none, count: 1 << slotBits)
        private var values = [Value?](repeating: nil, count: 1 << slotBits)
        private var isEmpty = true

        func value(for identity: _StringIdentity) -> Value? {
            let slot = identity.slot(amongPowerOfTwo: Self.slotBits)
            return identities[slot] == identity ? values[slot] : nil
        }

        mutating func insert(_ value: Value, for identity: _StringIdentity?) {
            guard let identity else { return }
            let slot = identity.slot(amongPowerOfTwo: Self.slotBits)
            identities[slot] = identity
            values[slot] = value
            isEmpty = false
        }

        mutating func remove(_ identity: _StringIdentity?) {
            guard let identity, !isEmpty else { return }
            let slot = identity.slot(amongPowerOfTwo: Self.slotBits)
            guard identities[slot] == identity else { return }
            identities[slot] = .none
            values[slot] = nil
        }

        mutating func removeAll() {
            guard !isEmpty else { return }
            for slot in identities.indices {
                identities[slot] = .none
                values[slot] = nil
            }
            isEmpty = true
        }
    }

    private let entries = _Locked(Contents())

    /// The instance this cache was made for (kept: no other can take its address while this
    /// cache is compared with it); `nil` for a cache made by a test.
    let owner: UserDefaults?

    /// The cache of a suite opened by `name`, or of `standard` (`nil`), read through `owner`.
    init(suiteName name: String?, owner: UserDefaults? = nil, capacity: Int = 4096) {
        domain = PreferencesDomain(suiteName: name)
        self.owner = owner
        self.capacity = capacity
    }

    /// Notes that another suite is open whose name equals this one's as a Swift `String` though
    /// its bytes differ (`café` with a composed and with a decomposed accent): two suites to
    /// CoreFoundation, in two files. `object(forKey:)` then cannot be trusted for this suite:
    /// Foundation hands CoreFoundation the suite's name as a Swift string, which CoreFoundation
    /// compares through Swift's `==`, so depending on where the names' hashes fall in its table of
    /// suites it may read the other suite (for one of four names tried, every time). Its reads then
    /// ask CoreFoundation by the exact name instead (``exactValue(forKey:name:in:read:)``).
    func noteNameSharedAsString() {
        entries.withLock { $0.isNameSharedAsString = true }
    }

    /// The value stored for `key` in `defaults`: the one read before if Foundation still holds the
    /// same object for it, else `read()`'s (which reads it through `object(forKey:)`).
    @inline(__always)
    func value(forKey key: String, in defaults: UserDefaults, read: () -> PropertyListValue?) -> PropertyListValue? {
        // Found missing from the suite before: `object(forKey:)` answers (a registered default, an
        // argument, or nothing) without a first request to CoreFoundation, which would double
        // the cost of reading a key at its default. A write through KeyCatalog forgets the entry;
        // a value stored by other code is read this way, right but not kept.
        let identity = _StringIdentity(key)
        let (entry, isMissing, isNameShared) = entries.withLock { contents -> (Entry?, Bool, Bool) in
            if contents.isNameSharedAsString { return (contents.entries[_ExactKey(key)], false, true) }
            if let identity {
                if contents.missingKeys.value(for: identity) != nil { return (nil, true, false) }
                if let found = contents.foundEntries.value(for: identity) { return (found, false, false) }
            }
            guard let entry = contents.entries[_ExactKey(key)] else { return (nil, false, false) }
            guard entry.object != nil else {
                contents.missingKeys.insert((), for: identity)
                return (nil, true, false)
            }
            contents.foundEntries.insert(entry, for: identity)
            return (entry, false, false)
        }
        if isNameShared { return exactValue(forKey: key, name: entry?.name ?? PreferencesDomain.name(key), in: defaults, read: read) }
        if isMissing { return read() }
        let name = entry?.name ?? PreferencesDomain.name(key)
        guard let object = domain.object(forName: name) else {
            // Not when the cache is full: emptying it for a missing key would drop values in use.
            entries.withLock { contents in
                if contents.entries.count < capacity || contents.entries[_ExactKey(key)] != nil {
                    contents.set(Entry(name: name, object: nil, value: nil), forKey: key)
                }
            }
            return read()
        }
        // What `object(forKey:)` reads first: the argument domain, which overrides the suite.
        guard !defaults.isOverriddenByLaunchArgument(key) else { return read() }
        if let entry, entry.object === object, let value = entry.value { return value }
        let value = Self.bytes(of: object) ?? read()
        // Kept only as the suite's object's value: that object still there, and no argument given
        // for the key meanwhile (on another thread), whose value the read would have returned.
        // (An argument given and taken away again within the read goes unseen: nothing tells.)
        guard let value, domain.object(forName: name) === object, !defaults.isOverriddenByLaunchArgument(key) else { return value }
        keep(Entry(name: name, object: object, value: value), forKey: key)
        return value
    }

    /// What `object(forKey:)` reads for `key` in this suite, found by the suite's exact name
    /// (see ``noteNameSharedAsString()``): a launch argument, which `object(forKey:)` reads first
    /// from the instance itself; else the object the suite holds, converted here; else what a
    /// suite that stores nothing reads (the global domain's value, or the registered default).
    /// Nothing is kept: these reads are as costly as reading through Foundation.
    private func exactValue(forKey key: String, name: CFString, in defaults: UserDefaults, read: () -> PropertyListValue?) -> PropertyListValue? {
        if defaults.isOverriddenByLaunchArgument(key) { return read() }
        if let object = domain.object(forName: name) { return Self.bytes(of: object) ?? PropertyListValue(foundationObject: object) }
        return UserDefaultsPersistence.suiteStoringNothing.object(forKey: key).flatMap(PropertyListValue.init(foundationObject:))
    }

    /// The value of a suite's `Data` object, copied at once: `object(forKey:)` copies its bytes
    /// one at a time through Swift's bridging (about 1,000 instructions per 10 bytes: 1 million
    /// for iCloud sync's stamps of 20 keys). `nil` for any other object, which `object(forKey:)`
    /// reads.
    static func bytes(of object: AnyObject) -> PropertyListValue? {
        guard let data = object as? NSData else { return nil }
        return .data(Data(bytes: data.bytes, count: data.length))
    }

    private func keep(_ entry: Entry, forKey key: String) {
        entries.withLock { contents in
            if contents.entries.count >= capacity, contents.entries[_ExactKey(key)] == nil {
                contents.removeAll()
            }
            contents.set(entry, forKey: key)
        }
    }

    /// Forgets that `key` was read missing (KeyCatalog wrote it): the next read asks again.
    func forget(_ key: String) {
        entries.withLock { contents in
            // A kept value needs no forgetting: the write stored a new object, which the next read
            // tells from the one kept.
            contents.removeMissingEntry(forKey: key)
        }
    }

    /// Forgets which keys were read missing (another process wrote the suite): the next reads ask
    /// again, and keep the values they find.
    func forgetMissingKeys() {
        entries.withLock { contents in
            contents.removeMissingEntries()
        }
    }

    /// How many keys' values are kept (for tests): keys read missing hold none.
    var count: Int { entries.withLock { $0.entries.count - $0.missing } }

    /// Whether an entry with a value is found for `key` by its words, without a hash (for tests).
    func findsEntryWithoutHashing(_ key: String) -> Bool {
        guard let identity = _StringIdentity(key) else { return false }
        return entries.withLock { $0.foundEntries.value(for: identity)?.object != nil }
    }

    /// Whether `key` is found missing by its words, without a hash (for tests).
    func findsMissingWithoutHashing(_ key: String) -> Bool {
        guard let identity = _StringIdentity(key) else { return false }
        return entries.withLock { $0.missingKeys.value(for: identity) != nil }
    }
}
#endif
