import Foundation
import KeyCatalog
import Testing

/// Every ordered pair of distinct store kinds.
let migrationStorePairs: [(MigrationStoreKind, MigrationStoreKind)] = MigrationStoreKind.allCases.flatMap { from in
    MigrationStoreKind.allCases.filter { $0 != from }.map { (from, $0) }
}

@Suite("Migrations: moves between stores")
struct KeyMigrationStoreMoveTests {
    /// The key `APIToken` in store `store`, migrating from `token` in store `newer`, then from
    /// `legacyToken` in store `older`.
    static func tokenMigration(into store: String, newerIn newer: String) -> (key: PersistentKey<String?>, migration: KeyMigration) {
        let key = PersistentKey<String?>("APIToken", defaultValue: nil)
        let migration = KeyMigration(
            name: "apiToken", key: key, store: store,
            sources: [
                KeyMigrationSource(fromKey: "token", store: newer, representationOf: key),
                KeyMigrationSource(fromKey: "legacyToken", store: "older", representationOf: key),
            ])
        return (key, migration)
    }

    @Test("values move between every pair of store kinds, made durable before the source goes", arguments: migrationStorePairs)
    func move(from: MigrationStoreKind, to: MigrationStoreKind) throws {
        let stores = MigrationStores()
        try stores.set(.string("42"), "old.count", in: from)
        try stores.set(.int(2), "old.theme", in: from)
        try stores.set(.bool(true), "kept", in: from)
        let counter = FailingStore.Counter(failAt: nil)
        let lookup: (String) -> (any PersistentKeyValueStore)? = { name in
            stores.lookup(name).map { FailingStore($0, name: name, counter: counter) }
        }
        let migrations = [
            KeyMigration(
                name: "count", key: PersistentKey<Int>("new", defaultValue: 0), store: to.rawValue,
                sources: [
                    KeyMigrationSource(fromKey: "old.count", store: from.rawValue, representation: String.persistentKeyValueRepresentation) { Int($0) }
                ]),
            KeyMigration(
                name: "theme", key: PersistentKey<MigrationTheme>("theme", defaultValue: .light, representation: RawRepresentablePersistentKeyValueRepresentation()), store: to.rawValue,
                sources: [
                    KeyMigrationSource(fromKey: "old.theme", store: from.rawValue, representation: Int.persistentKeyValueRepresentation) {
                        MigrationTheme.allCases.indices.contains($0) ? MigrationTheme.allCases[$0] : nil
                    }
                ]),
        ]
        let failures = FailureRecorder()

        let report = failures.record { KeyMigrator.run(migrations, stores: lookup) }

        // What is on disk agrees, read without KeyCatalog (and before anything synchronizes).
        switch to {
        case .userDefaults, .secondSuite:
            let suite = to == .userDefaults ? stores.suite : stores.secondSuite
            #expect(try readMigrationPropertyList(suite.fileURL) == ["new": .int(42), "theme": .string("sepia")])
        case .file:
            #expect(try readMigrationPropertyList(stores.file.url) == ["new": .int(42), "theme": .string("sepia")])
        case .memory:
            break
        }
        switch from {
        case .userDefaults, .secondSuite:
            let suite = from == .userDefaults ? stores.suite : stores.secondSuite
            #expect(try readMigrationPropertyList(suite.fileURL) == ["kept": .bool(true)], "the removals are on the disk too")
        case .file:
            #expect(try readMigrationPropertyList(stores.file.url) == ["kept": .bool(true)])
        case .memory:
            break
        }
        #expect(failures.failures.isEmpty)
        #expect(report.entries.map(\.outcome) == [.migrated, .migrated])
        #expect(report.entries.map(\.fromStore) == [from.rawValue, from.rawValue])
        #expect(stores.contents(from) == ["kept": .bool(true)])
        #expect(stores.contents(to) == ["new": .int(42), "theme": .string("sepia")])
        // Each value is written, then flushed to disk, and only then removed from its source; the
        // removals are flushed before the run returns.
        #expect(
            counter.operations == [
                "\(to).set(new)", "\(to).flush", "\(from).remove(old.count)",
                "\(to).set(theme)", "\(to).flush", "\(from).remove(old.theme)",
                "\(from).flush",
            ])
    }

    @Test("sources are tried in order: the first holding a usable value wins; later ones are left and reported")
    func sourcesInOrder() throws {
        let stores = MigrationStores()
        try stores.set(.int(1), "legacyCount", in: .userDefaults)
        try stores.set(.string("2"), "count-v2", in: .secondSuite)
        try stores.set(.string("three"), "count-v3", in: .memory)
        let migration = KeyMigration(
            name: "count", key: PersistentKey<Int>("count", defaultValue: 0), store: "file",
            sources: [
                KeyMigrationSource(fromKey: "absent", store: "file", representation: Int.persistentKeyValueRepresentation),
                KeyMigrationSource(fromKey: "count-v3", store: "memory", representation: String.persistentKeyValueRepresentation) { Int($0) },
                KeyMigrationSource(fromKey: "count-v2", store: "secondSuite", representation: String.persistentKeyValueRepresentation) { Int($0) },
                KeyMigrationSource(fromKey: "legacyCount", store: "userDefaults", representation: Int.persistentKeyValueRepresentation),
            ])
        let failures = FailureRecorder()

        let report = failures.record { stores.run([migration]) }

        // "three" does not convert: it stays and is reported; "2" is the first usable value.
        #expect(report.entries.map(\.fromKey) == ["count-v3", "count-v2", "legacyCount"])
        #expect(report.entries[0].outcome == .failed("the transform rejected the stored value string(\"three\"); the source is kept"))
        #expect(report.entries[1].outcome == .migrated)
        #expect(report.entries[2].outcome == .skippedKeyHasValue)
        #expect(stores.contents(.file) == ["count": .int(2)])
        #expect(stores.contents(.memory) == ["count-v3": .string("three")])
        #expect(stores.contents(.secondSuite) == [:])
        #expect(stores.contents(.userDefaults) == ["legacyCount": .int(1)])
        #expect(failures.failures.map(\.key) == ["count"])
    }

    /// A store whose removals fail, as a keychain's may while the device is locked.
    final class UnremovableStore: PersistentKeyValueStore, @unchecked Sendable {
        let base: InMemoryKeyValueStore
        init(_ base: InMemoryKeyValueStore) { self.base = base }
        var keyValueChanges: KeyValueChangeCenter { base.keyValueChanges }
        var persistentStoreDescription: String { "unremovable store" }
        func persistentValue(forKey key: String) -> PropertyListValue? { base.persistentValue(forKey: key) }
        func hasPersistentValue(forKey key: String) -> Bool { base.hasPersistentValue(forKey: key) }
        func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws { base.setPersistentValue(value, forKey: key) }
        func removePersistentValue(forKey key: String) throws { throw PersistentKeyValueEncodingError("locked") }
        func registerPersistentValues(_ values: [String: PropertyListValue]) {}
        func flushPersistentValues() throws {}
    }

    @Test("a move whose source cannot be removed is taken back: a key emptied later never gets the old value again")
    func aMoveThatCannotRemoveItsSourceIsTakenBack() {
        let legacy = InMemoryKeyValueStore(["token": .string("secret")])
        let secrets = InMemoryKeyValueStore()
        let key = PersistentKey<String?>("APIToken", defaultValue: nil)
        let migration = KeyMigration(
            name: "apiToken", key: key, store: "secrets",
            sources: [KeyMigrationSource(fromKey: "token", store: "standard", representationOf: key)])
        var stores: [String: any PersistentKeyValueStore] = ["secrets": secrets, "standard": UnremovableStore(legacy)]
        let failures = FailureRecorder()

        let report = failures.record { KeyMigrator.run([migration], stores: { stores[$0] }) }
        #expect(
            report.entries.map(\.outcome) == [
                .failed("the key was written but the source could not be removed: locked; the key's value was taken back, the source kept, and the next run moves it again")
            ])
        #expect(secrets.storedValues.isEmpty, "the value is at its source only")
        #expect(legacy.storedValues == ["token": .string("secret")])
        #expect(failures.failures.count == 1)

        // Once the source can be removed, the next run moves it; signing out then empties the key
        // for good.
        stores["standard"] = legacy
        #expect(KeyMigrator.run([migration], stores: { stores[$0] }).entries.map(\.outcome) == [.migrated])
        #expect(secrets.get(key) == "secret" && legacy.storedValues.isEmpty)
        secrets.remove(key)
        #expect(KeyMigrator.run([migration], stores: { stores[$0] }).entries.isEmpty)
        #expect(secrets.get(key) == nil)
    }

    @Test("after a move is taken back, an older source does not move in instead")
    func anOlderSourceWaitsForTheNewerOne() {
        let newer = InMemoryKeyValueStore(["token": .string("new")])
        let older = InMemoryKeyValueStore(["legacyToken": .string("old")])
        let secrets = InMemoryKeyValueStore()
        let (key, migration) = Self.tokenMigration(into: "secrets", newerIn: "newer")
        var stores: [String: any PersistentKeyValueStore] = ["secrets": secrets, "newer": UnremovableStore(newer), "older": older]
        let failures = FailureRecorder()
        let report = failures.record { KeyMigrator.run([migration], stores: { stores[$0] }) }
        #expect(report.entries.map(\.fromKey) == ["token"])
        #expect(secrets.storedValues.isEmpty && older.storedValues == ["legacyToken": .string("old")])
        stores["newer"] = newer
        _ = failures.record { KeyMigrator.run([migration], stores: { stores[$0] }) }
        #expect(secrets.get(key) == "new", "the newer value, once it can move")
    }

    /// A newer source that cannot be read for now (a keychain locked at launch) was passed over,
    /// and an older source moved in: the key then held the older value, and the newer one, once
    /// readable, was skipped at every run as a value the key did not hold. Older sources now wait.
    @Test("while a newer source cannot be read, an older source does not move in instead")
    func anOlderSourceWaitsForAnUnreadableNewerOne() {
        let backend = FakeKeychain()
        let service = "keycatalog.tests.migration.\(UUID().uuidString)"
        backend.put(.string("new"), service: service, account: "token")
        let keychain = KeychainKeyValueStore(service: service, backend: backend)
        let older = InMemoryKeyValueStore(["legacyToken": .string("old")])
        let memory = InMemoryKeyValueStore()
        let (key, migration) = Self.tokenMigration(into: "memory", newerIn: "secrets")
        let stores: [String: any PersistentKeyValueStore] = ["memory": memory, "secrets": keychain, "older": older]
        // The device is locked at launch: the keychain will not say what it holds.
        backend.force(KeychainStatus.interactionNotAllowed, on: .copy)
        let failures = FailureRecorder()

        let report = failures.record { KeyMigrator.run([migration], stores: { stores[$0] }) }

        #expect(report.entries.map(\.fromKey) == ["token"], "\(report)")
        #expect(report.failed.count == 1)
        #expect(memory.storedValues.isEmpty, "\(memory.storedValues)")
        #expect(older.storedValues == ["legacyToken": .string("old")])
        // Unlocked, the newer value moves; the older one stays, skipped.
        let unlocked = failures.record { KeyMigrator.run([migration], stores: { stores[$0] }) }
        #expect(unlocked.entries.map(\.outcome) == [.migrated, .skippedKeyHasValue], "\(unlocked)")
        #expect(memory.get(key) == "new")
    }

    /// Older sources wait for an unreadable newer one only while the key is empty: once it holds
    /// a value, no older source moves in, and one holding that very value is an interrupted move's
    /// leftover, removed as it was before (left, it would move back into a key emptied later).
    @Test("an unreadable newer source does not keep an interrupted move's source from being removed")
    func anInterruptedMoveIsCompletedPastAnUnreadableSource() {
        let backend = FakeKeychain()
        let service = "keycatalog.tests.migration.\(UUID().uuidString)"
        let keychain = KeychainKeyValueStore(service: service, backend: backend)
        // A previous run moved 'old' in and was killed before removing its source.
        let older = InMemoryKeyValueStore(["legacyToken": .string("old")])
        let memory = InMemoryKeyValueStore(["APIToken": .string("old")])
        let (key, migration) = Self.tokenMigration(into: "memory", newerIn: "secrets")
        let stores: [String: any PersistentKeyValueStore] = ["memory": memory, "secrets": keychain, "older": older]
        backend.force(KeychainStatus.interactionNotAllowed, on: .copy)
        let failures = FailureRecorder()

        let report = failures.record { KeyMigrator.run([migration], stores: { stores[$0] }) }

        #expect(report.entries.map(\.fromKey) == ["token", "legacyToken"], "\(report)")
        #expect(report.entries.last?.outcome == .completedInterruptedMove, "\(report)")
        #expect(older.storedValues.isEmpty, "\(older.storedValues)")
        #expect(memory.get(key) == "old")
        // A sign-out empties the key: the old value does not come back.
        memory.remove(key)
        _ = failures.record { KeyMigrator.run([migration], stores: { stores[$0] }) }
        #expect(memory.get(key) == nil)
    }

    /// A key whose write failed once (a full disk, a keychain that locked) went on to the next
    /// source: the older value moved in, and won for good over the newer one.
    @Test("after the key's write fails, an older source does not move in instead")
    func anOlderSourceWaitsForAFailedWrite() {
        let newer = InMemoryKeyValueStore(["token": .string("new")])
        let older = InMemoryKeyValueStore(["legacyToken": .string("old")])
        let secrets = InMemoryKeyValueStore()
        let (key, migration) = Self.tokenMigration(into: "secrets", newerIn: "newer")
        // The key's first write fails, before reaching the store; the next ones succeed.
        let failing = FailingStore(secrets, name: "secrets", counter: FailingStore.Counter(failAt: 1))
        var stores: [String: any PersistentKeyValueStore] = ["secrets": failing, "newer": newer, "older": older]
        let failures = FailureRecorder()

        let report = failures.record { KeyMigrator.run([migration], stores: { stores[$0] }) }

        #expect(report.entries.map(\.fromKey) == ["token"], "\(report)")
        #expect(secrets.storedValues.isEmpty && older.storedValues == ["legacyToken": .string("old")])
        stores["secrets"] = secrets
        _ = failures.record { KeyMigrator.run([migration], stores: { stores[$0] }) }
        #expect(secrets.get(key) == "new", "the newer value, once it can be written")
    }

    @Test("a keychain source that the device locks before its removal is taken back too: locked is not gone")
    func aLockedKeychainSourceIsNotGone() {
        let keychainBackend = FakeKeychain()
        let keychain = KeychainKeyValueStore(service: "keycatalog.tests.migration.\(UUID().uuidString)", backend: keychainBackend)
        let key = PersistentKey<String?>("APIToken", defaultValue: nil)
        keychain.set(PersistentKey<String?>("token", defaultValue: nil), to: "secret")
        // The device locks between the read and the removal: the keychain refuses both.
        keychainBackend.force(KeychainStatus.interactionNotAllowed, on: .delete)
        keychainBackend.force(KeychainStatus.interactionNotAllowed, on: .copy)
        let memory = InMemoryKeyValueStore()
        let migration = KeyMigration(
            name: "apiToken", key: key, store: "memory",
            sources: [KeyMigrationSource(fromKey: "token", store: "secrets", representationOf: key)])
        let stores: [String: any PersistentKeyValueStore] = ["memory": memory, "secrets": keychain]
        let failures = FailureRecorder()
        let report = failures.record { KeyMigrator.run([migration], stores: { stores[$0] }) }
        guard case .failed(let reason)? = report.entries.first?.outcome else {
            Issue.record("not a failure: \(report)")
            return
        }
        #expect(reason.hasSuffix("the key's value was taken back, the source kept, and the next run moves it again"), "\(reason)")
        #expect(memory.storedValues.isEmpty, "the value is at its source only")
        #expect(keychainBackend.items.count == 1)
    }

    /// A keychain that refuses to say whether the key has an item (a locked device) is not taken
    /// for one without: the move is not tried, the source is kept and the failure reported (found
    /// by a review: the key counted as empty).
    @Test("a key in a locked keychain is not taken for an empty one")
    func aLockedKeychainKeyIsNotEmpty() {
        let keychainBackend = FakeKeychain()
        let service = "keycatalog.tests.migration.\(UUID().uuidString)"
        keychainBackend.put(.string("current"), service: service, account: "APIToken")
        let keychain = KeychainKeyValueStore(service: service, backend: keychainBackend)
        let key = PersistentKey<String?>("APIToken", defaultValue: nil)
        keychainBackend.force(KeychainStatus.interactionNotAllowed, on: .copy)
        let legacy = InMemoryKeyValueStore(["token": .string("old")])
        let migration = KeyMigration(
            name: "apiToken", key: key, store: "secrets",
            sources: [KeyMigrationSource(fromKey: "token", store: "legacy", representationOf: key)])
        let stores: [String: any PersistentKeyValueStore] = ["legacy": legacy, "secrets": keychain]
        let failures = FailureRecorder()
        let report = failures.record { KeyMigrator.run([migration], stores: { stores[$0] }) }
        guard case .failed(let reason)? = report.entries.first?.outcome else {
            Issue.record("not a failure: \(report)")
            return
        }
        #expect(reason.contains("a locked keychain"), "\(reason)")
        #expect(failures.failures.map(\.operation).contains(.migrate), "reported, beside the keychain's own report of its refusal")
        #expect(legacy.storedValues == ["token": .string("old")])
        #expect(keychainBackend.items.count == 1)
    }

    /// Two keychain stores of one service (into an access group, to another accessibility, or
    /// the same settings twice) find one account's item through both: the move wrote the key's
    /// item, then removed the source with a query that matched it too, and the secret was gone
    /// (found by a review). The move is refused and reported, and the secret stays.
    @Test(
        "a move between keychain stores of one service, of one account, is refused and keeps the secret",
        arguments: [
            ("TEAMID.com.example.shared" as String?, KeychainAccessibility.default), (nil, .whenUnlockedThisDeviceOnly), (nil, .default),
        ])
    func aMoveWithinOneKeychainServiceIsRefused(accessGroup: String?, accessibility: KeychainAccessibility) {
        let backend = FakeKeychain()
        let service = "com.example.app.\(UUID().uuidString)"
        backend.put(.string("s3cret"), service: service, account: "token")
        let old = KeychainKeyValueStore(service: service, backend: backend)
        let new = KeychainKeyValueStore(service: service, accessGroup: accessGroup, accessibility: accessibility, backend: backend)
        let key = PersistentKey<String?>("token", defaultValue: nil)
        let migration = KeyMigration(
            name: "token", key: key, store: "new",
            sources: [KeyMigrationSource(fromKey: "token", store: "old", representationOf: key)])
        let stores: [String: any PersistentKeyValueStore] = ["old": old, "new": new]
        let failures = FailureRecorder()
        let report = failures.record { KeyMigrator.run([migration], stores: { stores[$0] }) }
        guard case .failed(let reason)? = report.entries.first?.outcome else {
            Issue.record("not a failure: \(report)")
            return
        }
        #expect(reason.contains("two keychain stores of one service"), "\(reason)")
        #expect(failures.failures.count == 1)
        #expect(backend.items.count == 1)
        #expect(old.get(key) == "s3cret")
    }
}

/// A launch argument (`-launches 5`) overrides what a suite stores when it is read, but it was
/// never written: a migration moves what the suite stores beneath it, and compares the key by
/// what it stores (found by a review: the argument's value moved, and the stored one was removed
/// with the source).
///
/// Each test runs in a child process of its own: the argument domain is process-wide on Apple
/// platforms (on Linux each instance has its own, but a test must not count on that).
@Suite("Migrations: launch arguments")
struct KeyMigrationLaunchArgumentTests {
    static let key = PersistentKey<Int>("LaunchCount", defaultValue: 0)

    static func run(_ suite: TemporarySuite) -> KeyMigrationReport {
        let migration = KeyMigration(
            name: "launchCount", key: key, store: "suite",
            sources: [KeyMigrationSource(fromKey: "launches", store: "suite", representationOf: key)])
        return MigrationStores.runCapturingFailures { KeyMigrator.run([migration]) { $0 == "suite" ? suite.defaults : nil } }
    }

    @Test("the value stored beneath a source's argument moves, not the argument's")
    func theStoredValueMoves() async {
        await #expect(processExitsWith: .success) {
            let suite = TemporarySuite()
            try suite.defaults.setPersistentValue(.int(42), forKey: "launches")
            suite.defaults.setVolatileDomain(["launches": 5], forName: UserDefaults.argumentDomain)
            let report = Self.run(suite)
            #expect(report.migrated.map(\.fromKey) == ["launches"], "\(report)")
            suite.defaults.removeVolatileDomain(forName: UserDefaults.argumentDomain)
            #expect(suite.defaults.get(Self.key) == 42, "\(suite.defaults.get(Self.key))")
            #expect(!suite.defaults.contains(PersistentKey<Int>("launches", defaultValue: 0)), "the source is removed")
        }
    }

    @Test("a key whose argument equals the source's value does not count as holding it")
    func theKeysArgumentIsNotItsValue() async {
        await #expect(processExitsWith: .success) {
            let suite = TemporarySuite()
            try suite.defaults.setPersistentValue(.int(7), forKey: Self.key.id)
            try suite.defaults.setPersistentValue(.int(42), forKey: "launches")
            suite.defaults.setVolatileDomain([Self.key.id: 42], forName: UserDefaults.argumentDomain)
            let report = Self.run(suite)
            #expect(report.skipped.map(\.fromKey) == ["launches"], "the key stores another value: \(report)")
            suite.defaults.removeVolatileDomain(forName: UserDefaults.argumentDomain)
            #expect(suite.defaults.get(Self.key) == 7, "\(suite.defaults.get(Self.key))")
            #expect(suite.defaults.persistentValue(forKey: "launches") == .int(42), "\(String(describing: suite.defaults.persistentValue(forKey: "launches")))")
        }
    }

    @Test("a source that is only an argument moves nothing")
    func anArgumentAloneIsNotMoved() async {
        await #expect(processExitsWith: .success) {
            let suite = TemporarySuite()
            suite.defaults.setVolatileDomain(["launches": 5], forName: UserDefaults.argumentDomain)
            let report = Self.run(suite)
            #expect(report.isEmpty, "\(report)")
            suite.defaults.removeVolatileDomain(forName: UserDefaults.argumentDomain)
            #expect(!suite.defaults.contains(Self.key))
        }
    }
}

/// Each failure says what became of the source and the key: "source left in place" was added to
/// every one (found by a review), also where the source was gone, or replaced by its conversion.
@Suite("Migrations: what a report says")
struct KeyMigrationReportWordingTests {
    @Test("a move whose source's removal threw, the source gone, is a move; its failure is still reported")
    func aMoveWhoseRemovalThrewIsAMove() throws {
        let stores = MigrationStores()
        let key = PersistentKey<Int>("LaunchCount", defaultValue: 0)
        try stores.set(.int(42), "launches", in: .file)
        let legacy = FailingStore(
            stores.file, name: "legacy", counter: FailingStore.Counter(failAt: 1, injection: FailingStore.Injection(timing: .after, crash: false)))
        let migration = KeyMigration(
            name: "launchCount", key: key, store: "userDefaults",
            sources: [KeyMigrationSource(fromKey: "launches", store: "legacy", representationOf: key)])
        let failures = FailureRecorder()
        let report = failures.record { KeyMigrator.run([migration]) { $0 == "legacy" ? legacy : stores.lookup($0) } }
        #expect(stores.file.persistentValue(forKey: "launches") == nil && stores.suite.defaults.get(key) == 42)
        #expect(report.migrated.map(\.fromKey) == ["launches"] && report.failed.isEmpty)
        #expect(failures.failures.count == 1 && failures.failures[0].message.contains("the source is gone and the key keeps the value"))
    }

    @Test("a failure does not say the source was left in place where it was converted in place")
    func aConversionNotMadeDurableSaysSo() throws {
        let stores = MigrationStores()
        try stores.set(.int(2), "Level", in: .file)
        let key = PersistentKey<String>("Level", defaultValue: "")
        let flushFails = FailingStore(
            stores.file, name: "file", counter: FailingStore.Counter(failAt: 2, injection: FailingStore.Injection(timing: .after, crash: false)))
        let migration = KeyMigration(
            name: "level", key: key, store: "file",
            sources: [KeyMigrationSource(fromKey: "Level", store: "file", representation: Int.persistentKeyValueRepresentation) { "\($0)" }])
        let report = MigrationStores.runCapturingFailures { KeyMigrator.run([migration]) { $0 == "file" ? flushFails : nil } }
        #expect(stores.file.persistentValue(forKey: "Level") == .string("2"))
        #expect(report.failed.count == 1)
        #expect(!report.description.contains("left in place") && report.description.contains("the key holds it"), "\(report)")
    }
}

/// A NaN moves like any value (found by a review): the migration compares what it wrote with
/// what the key reads back, and with `Double`'s `==` a NaN never equalled itself, so every run
/// took the value back out of the key and kept the source.
@Suite("Migrations: NaN values")
struct KeyMigrationNaNTests {
    @Test("a renamed Double key holding NaN moves, nested NaNs too", arguments: MigrationStoreKind.allCases)
    func nanMoves(kind: MigrationStoreKind) throws {
        let stores = MigrationStores()
        try stores.set(.double(.nan), "oldRatio", in: kind)
        try stores.set(.array([.double(1), .double(.nan)]), "oldRatios", in: kind)
        let ratio = PersistentKey<Double>("ratio", defaultValue: 1)
        let ratios = PersistentKey<[Double]>("ratios", defaultValue: [])
        let migrations = [
            KeyMigration(
                name: "ratio", key: ratio, store: kind.rawValue,
                sources: [KeyMigrationSource(fromKey: "oldRatio", store: kind.rawValue, representationOf: ratio)]),
            KeyMigration(
                name: "ratios", key: ratios, store: kind.rawValue,
                sources: [KeyMigrationSource(fromKey: "oldRatios", store: kind.rawValue, representationOf: ratios)]),
        ]
        let failures = FailureRecorder()
        let report = failures.record { KeyMigrator.run(migrations, stores: stores.lookup) }
        #expect(report.migrated.count == 2, "\(report)")
        #expect(failures.failures.isEmpty, "\(failures.failures)")
        #expect(stores.store(kind).get(ratio).isNaN)
        #expect(stores.store(kind).get(ratios).map(\.isNaN) == [false, true])
        #expect(!stores.store(kind).hasPersistentValue(forKey: "oldRatio") && !stores.store(kind).hasPersistentValue(forKey: "oldRatios"))
        // Run again: nothing left to do.
        #expect(failures.record { KeyMigrator.run(migrations, stores: stores.lookup) }.entries.isEmpty)
    }

    @Test func aNaNIsTheSameStoredValueAsANaN() {
        let quiet = Double.nan, signaling = Double.signalingNaN, negative = -Double.nan
        for (left, right) in [(quiet, quiet), (quiet, signaling), (quiet, negative)] {
            #expect(PropertyListValue.double(left) == .double(right))
            #expect(PropertyListValue.double(left).hashValue == PropertyListValue.double(right).hashValue)
            // Compared outside `#expect`: describing a NaN `Date` traps in Foundation on Linux.
            let leftDate = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: left))
            let rightDate = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: right))
            let (datesEqual, dateHashesEqual) = (leftDate == rightDate, leftDate.hashValue == rightDate.hashValue)
            #expect(datesEqual && dateHashesEqual, "NaN dates")
        }
        #expect(PropertyListValue.array([.double(.nan)]) == .array([.double(.nan)]))
        #expect(PropertyListValue.double(.nan) != .double(0))
        #expect(PropertyListValue.double(0) == .double(-0.0), "as Double compares them")
        #expect(PropertyListValue.int(1) != .double(1) && PropertyListValue.int(1) != .uint(1))
        #expect(Set<PropertyListValue>([.double(.nan), .double(-.nan), .string("x"), .string("x")]).count == 2)
    }
}
