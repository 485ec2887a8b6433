import Foundation
import KeyCatalog
import Testing

/// A storage key and whether iCloud's key-value store accepts it.
struct UbiquitousKeyCase: Sendable, CustomTestStringConvertible {
    var key: String
    var accepted: Bool
    var testDescription: String { "\(key.utf8.count) bytes, \(key.count) characters" }
}

private let description = "iCloud key-value store (FakeUbiquitousBackend)"

/// An entry's size as the store measures it: key bytes plus the value as a binary property list.
private func entrySize(_ key: String, _ value: PropertyListValue) throws -> Int {
    try key.utf8.count + PropertyListSerialization.data(fromPropertyList: value.foundationObject, format: .binary, options: 0).count
}

@Suite("UbiquitousKeyValueStore: iCloud's limits")
struct UbiquitousLimitTests {
    @Test(
        "storage keys over 64 bytes of UTF-8 are refused, not passed on to crash",
        arguments: [
            UbiquitousKeyCase(key: String(repeating: "k", count: 63), accepted: true),
            UbiquitousKeyCase(key: String(repeating: "k", count: 64), accepted: true),
            UbiquitousKeyCase(key: String(repeating: "k", count: 65), accepted: false),
            UbiquitousKeyCase(key: String(repeating: "é", count: 32), accepted: true),  // 2 bytes each: 64
            UbiquitousKeyCase(key: String(repeating: "é", count: 32) + "k", accepted: false),  // 33 characters, 65 bytes
            UbiquitousKeyCase(key: String(repeating: "😀", count: 16), accepted: true),  // 4 bytes each: 64
            UbiquitousKeyCase(key: "k" + String(repeating: "😀", count: 16), accepted: false),  // 17 characters, 65 bytes
        ]
    )
    func keyLength(_ testCase: UbiquitousKeyCase) throws {
        let backend = FakeUbiquitousBackend()
        let store = UbiquitousKeyValueStore.shared(over: backend)
        let key = PersistentKey<Int>(testCase.key, defaultValue: -1)
        let recorder = FailureRecorder()
        let (read, contains) = recorder.record {
            store.set(key, to: 7)
            return (store.get(key), store.contains(key))
        }
        if testCase.accepted {
            #expect(recorder.failures == [])
            #expect(backend.storedValues == [testCase.key: .int(7)])
            #expect(read == 7 && contains)
            try store.removePersistentValue(forKey: testCase.key)
            #expect(backend.storedValues == [:])
            return
        }
        let message = "the storage key is 65 bytes of UTF-8; iCloud's key-value store allows 64 (a longer key raises an exception that ends the app), so shorten it"
        #expect(backend.storedValues == [:])
        #expect(read == -1 && !contains)
        #expect(
            recorder.failures == [
                PersistentKeyValueFailure(operation: .write, key: testCase.key, store: description, message: message),
                PersistentKeyValueFailure(operation: .read, key: testCase.key, store: description, message: message),
                PersistentKeyValueFailure(operation: .read, key: testCase.key, store: description, message: message),
            ])
        #expect(throws: PersistentKeyValueFailure(operation: .remove, key: testCase.key, store: description, message: message)) {
            try store.removePersistentValue(forKey: testCase.key)
        }
    }

    @Test("a value over 1 MB is refused and the old value stays")
    func valueSize() throws {
        let backend = FakeUbiquitousBackend(["Blob": .data(Data([1]))])
        let store = UbiquitousKeyValueStore.shared(over: backend)
        let big = PropertyListValue.data(Data(count: UbiquitousKeyValueStore.maximumBytes))
        let size = try entrySize("Blob", big)
        #expect(
            throws: PersistentKeyValueFailure(
                operation: .write, key: "Blob", store: description,
                message: "value not written: it takes \(size) bytes (key plus value as a binary property list); iCloud's key-value store allows 1000000 per value, so store less, or keep large data in a file"
            )
        ) {
            try store.setPersistentValue(big, forKey: "Blob")
        }
        #expect(backend.storedValues == ["Blob": .data(Data([1]))])
        // Just under the limit fits, counting the key and the property list around the bytes.
        let fitting = PropertyListValue.data(Data(count: UbiquitousKeyValueStore.maximumBytes - (size - UbiquitousKeyValueStore.maximumBytes)))
        #expect(try entrySize("Blob", fitting) == UbiquitousKeyValueStore.maximumBytes)
        try store.setPersistentValue(fitting, forKey: "Blob")
        #expect(backend.storedValues == ["Blob": fitting])
    }

    @Test("a write that would bring the store over 1 MB in all is refused; replacing a value counts it once")
    func totalSize() throws {
        let first = PropertyListValue.data(Data(count: 600_000))
        let backend = FakeUbiquitousBackend(["First": first])
        let store = UbiquitousKeyValueStore.shared(over: backend)
        let second = PropertyListValue.data(Data(count: 400_000))
        let total = try entrySize("First", first) + entrySize("Second", second)
        let recorder = FailureRecorder()
        recorder.record {
            store.set(PersistentKey<Data?>("Second", defaultValue: nil), to: Data(count: 400_000))
        }
        #expect(
            recorder.failures == [
                PersistentKeyValueFailure(
                    operation: .write, key: "Second", store: description,
                    message: "value not written: the store would hold \(total) bytes; iCloud's key-value store allows 1000000 in all, so remove values or keep large ones in a local store"
                )
            ])
        #expect(backend.storedValues.keys.sorted() == ["First"])
        // Replacing the large value with a larger one fits: its old size no longer counts.
        try store.setPersistentValue(.data(Data(count: 900_000)), forKey: "First")
        try store.removePersistentValue(forKey: "First")
        try store.setPersistentValue(second, forKey: "Second")
        #expect(backend.storedValues == ["Second": second])
        // The total counted as writes go (not summed again for each) is exact after them.
        let third = PropertyListValue.data(Data(count: 600_000))
        let newTotal = try entrySize("Second", second) + entrySize("Third", third)
        #expect(
            throws: PersistentKeyValueFailure(
                operation: .write, key: "Third", store: description,
                message: "value not written: the store would hold \(newTotal) bytes; iCloud's key-value store allows 1000000 in all, so remove values or keep large ones in a local store"
            )
        ) {
            try store.setPersistentValue(third, forKey: "Third")
        }
    }

    @Test("a store of 1,024 keys takes no new key, but replaces values and takes one after a removal")
    func keyCount() throws {
        let full = Dictionary(uniqueKeysWithValues: (0..<1024).map { ("k\($0)", PropertyListValue.int($0)) })
        let backend = FakeUbiquitousBackend(full)
        let store = UbiquitousKeyValueStore.shared(over: backend)
        #expect(
            throws: PersistentKeyValueFailure(
                operation: .write, key: "k1024", store: description,
                message: "value not written: the store holds 1024 keys, iCloud's key-value store's maximum; remove a key first, or keep this one in a local store"
            )
        ) {
            try store.setPersistentValue(.int(1), forKey: "k1024")
        }
        try store.setPersistentValue(.int(-1), forKey: "k0")
        try store.removePersistentValue(forKey: "k1")
        try store.setPersistentValue(.int(1), forKey: "k1024")
        #expect(backend.storedValues.count == 1024)
        #expect(backend.storedValues["k0"] == .int(-1) && backend.storedValues["k1024"] == .int(1))
    }

    @Test("values another device wrote count toward the limits once announced")
    func externalWritesCount() throws {
        let backend = FakeUbiquitousBackend()
        let store = UbiquitousKeyValueStore.shared(over: backend)
        try store.setPersistentValue(.data(Data(count: 400_000)), forKey: "Mine")
        backend.receive(.serverChange, ["Theirs": .data(Data(count: 599_000))])
        #expect(throws: PersistentKeyValueFailure.self) {
            try store.setPersistentValue(.data(Data(count: 2_000)), forKey: "More")
        }
        #expect(backend.storedValues["More"] == nil)
    }
}

@Suite("UbiquitousKeyValueStore: synchronize")
struct UbiquitousSynchronizeTests {
    @Test("one store per backend, synchronized once when created; false at launch is reported")
    func launch() {
        let backend = FakeUbiquitousBackend(synchronizes: false)
        let recorder = FailureRecorder()
        let (first, second) = recorder.record {
            (UbiquitousKeyValueStore.shared(over: backend), UbiquitousKeyValueStore.shared(over: backend))
        }
        #expect(first === second)
        #expect(first.keyValueChanges === second.keyValueChanges)
        #expect(UbiquitousKeyValueStore.shared(over: FakeUbiquitousBackend()) !== first)
        #expect(backend.synchronizeCount == 1)
        #expect(
            recorder.failures == [
                PersistentKeyValueFailure(
                    operation: .load, key: nil, store: description,
                    message: "synchronize() returned false at launch: iCloud is unavailable to this app (no iCloud key-value store entitlement, no iCloud account, or no iCloud on this platform); values stay on this device, and migrations into this store keep their sources"
                )
            ])
    }

    @Test("flush throws when synchronize() returns false")
    func flush() throws {
        let backend = FakeUbiquitousBackend()
        let store = UbiquitousKeyValueStore.shared(over: backend)
        try store.flushPersistentValues()
        backend.synchronizeResult = false
        #expect(
            throws: PersistentKeyValueFailure(
                operation: .write, key: nil, store: description,
                message: "synchronize() returned false: iCloud is unavailable to this app (no iCloud key-value store entitlement, or no iCloud account), so the values written may not be kept"
            )
        ) {
            try store.flushPersistentValues()
        }
        #expect(backend.synchronizeCount == 3)
    }

    @Test("a migration into the store keeps its source while synchronize() returns false")
    func migrationKeepsSource() {
        let backend = FakeUbiquitousBackend()
        let cloud = UbiquitousKeyValueStore.shared(over: backend)
        let local = InMemoryKeyValueStore(["OldTheme": .string("dark")])
        let key = PersistentKey<String>("Theme", defaultValue: "light")
        let migration = KeyMigration(
            name: "theme", key: key, store: "cloud",
            sources: [KeyMigrationSource(fromKey: "OldTheme", store: "local", representationOf: key)]
        )
        let stores: [String: any PersistentKeyValueStore] = ["cloud": cloud, "local": local]
        backend.synchronizeResult = false

        let recorder = FailureRecorder()
        let report = recorder.record { KeyMigrator.run([migration], stores: { stores[$0] }) }
        let reason =
            "the key was written but could not be made durable: KeyCatalog: write of \(description) failed: synchronize() returned false: iCloud is unavailable to this app (no iCloud key-value store entitlement, or no iCloud account), so the values written may not be kept"
            + "; the key's value was taken back, the source kept, and the next run moves it again"
        #expect(report.entries.map(\.outcome) == [.failed(reason)])
        #expect(local.storedValues == ["OldTheme": .string("dark")], "the source stays")
        #expect(!cloud.contains(key), "and only the source: the move is taken back")
        #expect(recorder.failures.map(\.operation) == [.migrate])
        #expect(recorder.failures.map(\.message) == ["from 'OldTheme': \(reason)"])

        // Once iCloud synchronizes, the next run makes the move.
        backend.synchronizeResult = true
        let second = recorder.record { KeyMigrator.run([migration], stores: { stores[$0] }) }
        #expect(second.entries.map(\.outcome) == [.migrated])
        #expect(local.storedValues == [:])
        #expect(cloud.get(key) == "dark")
        #expect(recorder.failures.count == 1)
    }
}

@Suite("UbiquitousKeyValueStore: external changes")
struct UbiquitousExternalChangeTests {
    let theme = PersistentKey<String>("Theme", defaultValue: "light")
    let volume = PersistentKey<Int>("Volume", defaultValue: 5)

    @Test(
        "server changes and the initial download reach observers with the new values",
        arguments: [UbiquitousExternalChange.Reason.serverChange, .initialSync]
    )
    func changesReachObservers(_ reason: UbiquitousExternalChange.Reason) {
        let backend = FakeUbiquitousBackend(["Volume": .int(3)])
        let store = UbiquitousKeyValueStore.shared(over: backend)
        let themes = LockedValues<String>()
        let volumes = LockedValues<Int>()
        let observations = [store.observe(theme) { themes.append($0) }, store.observe(volume) { volumes.append($0) }]
        let recorder = FailureRecorder()
        recorder.record {
            backend.receive(reason, ["Theme": .string("dark"), "Volume": nil])
        }
        #expect(themes.values == ["dark"])
        #expect(volumes.values == [5], "a removed value reads as the default")
        #expect(store.get(theme) == "dark")
        #expect(store.hasReceivedInitialSync == (reason == .initialSync))
        #expect(recorder.failures == [])
        observations.forEach { $0.cancel() }
    }

    @Test("a quota violation is reported for each key involved")
    func quotaViolation() {
        let backend = FakeUbiquitousBackend(["Theme": .string("dark")])
        let store = UbiquitousKeyValueStore.shared(over: backend)
        let themes = LockedValues<String>()
        let observation = store.observe(theme) { themes.append($0) }
        let recorder = FailureRecorder()
        recorder.record {
            backend.receive(.quotaViolation, ["Theme": .string("dark"), "Volume": .int(11)])
            backend.receive(.quotaViolation, [:])
        }
        let limits = "iCloud's key-value store refused a write over its quota (1024 keys, 1 MB per value and in all)"
        #expect(
            recorder.failures == [
                PersistentKeyValueFailure(operation: .write, key: "Theme", store: description, message: limits + "; this key's value did not reach iCloud, so remove values or keep large ones in a local store"),
                PersistentKeyValueFailure(operation: .write, key: "Volume", store: description, message: limits + "; this key's value did not reach iCloud, so remove values or keep large ones in a local store"),
                PersistentKeyValueFailure(operation: .write, key: nil, store: description, message: limits + "; remove values, or keep large ones in a local store"),
            ])
        #expect(themes.values == ["dark"], "observers re-read the keys involved")
        #expect(!store.hasReceivedInitialSync)
        observation.cancel()
    }

    @Test("an account change is reported and every observed key is posted, changed or not")
    func accountChange() {
        let backend = FakeUbiquitousBackend(["Theme": .string("dark"), "Volume": .int(3)])
        let store = UbiquitousKeyValueStore.shared(over: backend)
        let themes = LockedValues<String>()
        let volumes = LockedValues<Int>()
        let observations = [store.observe(theme) { themes.append($0) }, store.observe(volume) { volumes.append($0) }]
        let recorder = FailureRecorder()
        recorder.record {
            // The new account has no theme; the notification names only the keys it knows of.
            backend.receive(.accountChange, ["Theme": nil])
        }
        #expect(themes.values == ["light"])
        #expect(volumes.values == [3])
        #expect(
            recorder.failures == [
                PersistentKeyValueFailure(
                    operation: .load, key: nil, store: description,
                    message: "the iCloud account changed: values now come from the new account, and the previous account's values are gone from this device"
                )
            ])
        observations.forEach { $0.cancel() }
    }
}
