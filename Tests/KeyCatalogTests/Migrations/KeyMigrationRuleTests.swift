import Foundation
import KeyCatalog
import Testing

@Suite("Migrations: the rules of issue 5")
struct KeyMigrationRuleTests {
    @Test("key and source both hold values: the key's is kept, the source left, reported as skipped", arguments: migrationStorePairs)
    func bothHoldValues(source: MigrationStoreKind, key: MigrationStoreKind) throws {
        let stores = MigrationStores()
        try stores.set(.string("old-token"), "legacyToken", in: source)
        try stores.set(.string("new-token"), "token", in: key)
        let failures = FailureRecorder()

        let report = failures.record {
            stores.run([
                KeyMigration(
                    name: "token", key: PersistentKey<String>("token", defaultValue: ""), store: key.rawValue,
                    sources: [
                        KeyMigrationSource(fromKey: "legacyToken", store: source.rawValue, representation: String.persistentKeyValueRepresentation)
                    ])
            ])
        }

        let entry = try #require(report.entries.first)
        #expect(report.entries.count == 1)
        #expect(entry.key == "token" && entry.storageKey == "token" && entry.fromKey == "legacyToken" && entry.fromStore == source.rawValue)
        #expect(entry.outcome == .skippedKeyHasValue)
        #expect(report.skipped.count == 1 && report.migrated.isEmpty && report.failed.isEmpty)
        #expect(stores.contents(source) == ["legacyToken": .string("old-token")])
        #expect(stores.contents(key) == ["token": .string("new-token")])
        #expect(failures.failures.isEmpty, "a skip is reported in the report, not as a failure")
    }

    /// A source that cannot become the key's value, and why.
    struct Rejection: Sendable, CustomTestStringConvertible {
        let name: String
        let stored: PropertyListValue
        let source: @Sendable (String) -> KeyMigrationSource<Int>
        let reason: String
        var testDescription: String { name }

        static let all: [Rejection] = [
            Rejection(
                name: "transform returns nil", stored: .string("loud"),
                source: { KeyMigrationSource(fromKey: "old", store: $0, representation: String.persistentKeyValueRepresentation) { Int($0) } },
                reason: "the transform rejected the stored value string(\"loud\")"
            ),
            Rejection(
                name: "does not decode as the old type", stored: .string("seven"),
                source: { KeyMigrationSource(fromKey: "old", store: $0, representation: Int.persistentKeyValueRepresentation) },
                reason: "the stored value string(\"seven\") could not be read: expected a value of type 'Int', found a string"
            ),
            Rejection(
                name: "Codable that does not decode", stored: .data(Data("{not json".utf8)),
                source: {
                    KeyMigrationSource(fromKey: "old", store: $0, representation: CodablePersistentKeyValueRepresentation<MigrationProfileV1, JSONEncoder, JSONDecoder>()) { $0.name.count }
                },
                reason: "the stored value data(9 bytes) could not be read"
            ),
        ]
    }

    @Test("a source that does not convert stays, is reported (report and failure handler), and other keys still migrate", arguments: Rejection.all, MigrationStoreKind.allCases)
    func rejectedSourceStays(_ rejection: Rejection, in kind: MigrationStoreKind) throws {
        let stores = MigrationStores()
        try stores.set(rejection.stored, "old", in: kind)
        try stores.set(.int(1), "before.old", in: kind)
        try stores.set(.int(2), "after.old", in: kind)
        func rename(_ name: String) -> KeyMigration {
            KeyMigration(
                name: name, key: PersistentKey<Int>(name, defaultValue: 0), store: kind.rawValue,
                sources: [
                    KeyMigrationSource(fromKey: "\(name).old", store: kind.rawValue, representation: Int.persistentKeyValueRepresentation)
                ])
        }
        let failures = FailureRecorder()

        let report = failures.record {
            stores.run([
                rename("before"),
                KeyMigration(name: "volume", key: PersistentKey<Int>("volume", defaultValue: 0), store: kind.rawValue, sources: [rejection.source(kind.rawValue)]),
                rename("after"),
            ])
        }

        #expect(report.entries.map(\.outcome.kind) == ["migrated", "failed", "migrated"])
        let failed = try #require(report.failed.first)
        #expect(failed.key == "volume" && failed.fromKey == "old" && failed.fromStore == kind.rawValue)
        guard case .failed(let reason) = failed.outcome else { return }
        #expect(reason.hasPrefix(rejection.reason))
        #expect(stores.contents(kind) == ["old": rejection.stored, "before": .int(1), "after": .int(2)])

        let failure = try #require(failures.failures.first)
        #expect(failures.failures.count == 1)
        #expect(failure.operation == .migrate)
        #expect(failure.key == "volume")
        #expect(failure.store == "\(kind.rawValue) -> \(kind.rawValue)")
        #expect(failure.message == "from 'old': \(reason)")
        #expect(report.description.contains("1 failed"))
    }

    @Test("a store missing from the catalog, or a transformed value the key cannot store: reported, nothing touched")
    func missingStoreAndUnstorableValue() throws {
        let stores = MigrationStores()
        try stores.set(.string("x"), "old", in: .file)
        let failures = FailureRecorder()

        let report = failures.record {
            stores.run([
                KeyMigration(
                    name: "a", key: PersistentKey<Int>("a", defaultValue: 0), store: "file",
                    sources: [
                        KeyMigrationSource(fromKey: "old", store: "keychain", representation: Int.persistentKeyValueRepresentation)
                    ]),
                KeyMigration(
                    name: "b", key: PersistentKey<Int>("b", defaultValue: 0), store: "cloud",
                    sources: [
                        KeyMigrationSource(fromKey: "old", store: "file", representation: Int.persistentKeyValueRepresentation)
                    ]),
                // The transform returns `.some(nil)`, which an optional key stores as nothing.
                KeyMigration(
                    name: "c", key: PersistentKey<Int?>("c", defaultValue: nil), store: "file",
                    sources: [
                        KeyMigrationSource(fromKey: "old", store: "file", representation: String.persistentKeyValueRepresentation) { _ in .some(nil) }
                    ]),
            ])
        }

        #expect(
            report.entries.map(\.outcome) == [
                .failed("store 'keychain' is not in the catalog; nothing was read or moved"),
                .failed("the key's store 'cloud' is not in the catalog; the source is kept"),
                .failed("the stored value string(\"x\") converted to a value the key cannot store: the key stores the transformed value as nothing (nil); the source is kept"),
            ])
        #expect(failures.failures.map(\.key) == ["a", "b", "c"])
        #expect(stores.contents(.file) == ["old": .string("x")])
    }

    @Test("running twice is the same as running once: same stores, and the second report only repeats skips and failures")
    func idempotent() throws {
        let once = MigrationStores()
        try MigrationScenario.seed(once)
        let first = once.run(MigrationScenario.migrations)
        let afterFirst = once.snapshot

        let second = once.run(MigrationScenario.migrations)

        #expect(once.snapshot == afterFirst)
        #expect(Dictionary(uniqueKeysWithValues: first.entries.map { ($0.key, $0.outcome.kind) }) == MigrationScenario.firstRunOutcomes)
        #expect(second.entries == first.entries.filter { $0.outcome.kind != "migrated" })
        #expect(second.migrated.isEmpty)
        #expect(once.run(MigrationScenario.migrations).entries == second.entries)
        // Every value is where the scenario says.
        for expectation in MigrationScenario.expectations {
            if expectation.moves {
                #expect(once.contents(expectation.store)[expectation.key] == expectation.value, "\(expectation.key)")
                #expect(once.contents(expectation.sourceStore)[expectation.sourceKey] == nil, "\(expectation.sourceKey)")
            } else {
                #expect(once.contents(expectation.sourceStore)[expectation.sourceKey] == expectation.original, "\(expectation.sourceKey)")
            }
        }
        #expect(once.contents(.userDefaults)["unrelated"] == .string("untouched"))
    }

    @Test("a registered default on the key does not stop its migration", arguments: MigrationStoreKind.allCases, [PropertyListValue.int(0), .int(42)])
    func registeredDefaultDoesNotBlock(in kind: MigrationStoreKind, registered: PropertyListValue) throws {
        let stores = MigrationStores()
        // A storage key of its own: a UserDefaults suite registers it in the process-wide
        // registration domain, where the cases running beside this one register other values.
        let name = "count.\(UUID().uuidString)"
        let key = PersistentKey<Int>(name, defaultValue: 0)
        stores.store(kind).registerPersistentValues([name: registered])
        try stores.set(.string("42"), "launches", in: kind)
        #expect(!stores.store(kind).contains(key))

        let report = stores.run([
            KeyMigration(
                name: "count", key: key, store: kind.rawValue,
                sources: [
                    KeyMigrationSource(fromKey: "launches", store: kind.rawValue, representation: String.persistentKeyValueRepresentation) { Int($0) }
                ])
        ])

        #expect(report.entries.map(\.outcome) == [.migrated])
        #expect(stores.contents(kind) == [name: .int(42)])
        #expect(stores.store(kind).get(key) == 42)
        #expect(stores.run([]).isEmpty)
    }

    @Test("a key explicitly set to its registered default keeps it, and the source stays", arguments: [MigrationStoreKind.userDefaults, .file, .memory])
    func explicitValueEqualToRegisteredDefault(in kind: MigrationStoreKind) throws {
        let stores = MigrationStores()
        // A storage key of its own: a UserDefaults suite registers it in the process-wide
        // registration domain, where every suite of every test would read it.
        let name = "count.\(UUID().uuidString)"
        stores.store(kind).registerPersistentValues([name: .int(0)])
        try stores.set(.int(0), name, in: kind)
        try stores.set(.string("42"), "launches", in: kind)

        let report = stores.run([
            KeyMigration(
                name: "count", key: PersistentKey<Int>(name, defaultValue: 0), store: kind.rawValue,
                sources: [
                    KeyMigrationSource(fromKey: "launches", store: kind.rawValue, representation: String.persistentKeyValueRepresentation) { Int($0) }
                ])
        ])

        // UserDefaults suites opened through KeyCatalog read their persistent domain, so a stored
        // value equal to the registered default still counts as stored.
        #expect(report.entries.map(\.outcome) == [.skippedKeyHasValue])
        #expect(stores.contents(kind) == [name: .int(0), "launches": .string("42")])
    }

    @Test("a UserDefaults instance KeyCatalog did not open falls back to comparing with the registered default")
    func registeredDefaultOnAnInstanceOfUnknownSuite() throws {
        let suite = TemporarySuite()
        let foreign = try #require(UserDefaults(suiteName: suite.name))
        // Registration is process-wide: a storage key of its own.
        let key = PersistentKey<Int>("count.\(UUID().uuidString)", defaultValue: 0)
        foreign.register(key)
        #expect(!foreign.contains(key))
        foreign.set(key, to: 5)
        #expect(foreign.contains(key))
        // The documented limit: UserDefaults does not tell its suite name, so a stored value equal
        // to the registered default is indistinguishable from it. The instance KeyCatalog opened
        // for the same suite tells them apart.
        foreign.set(key, to: 0)
        #expect(!foreign.contains(key))
        #expect(suite.defaults.contains(key))
    }

    @Test("a source holding exactly the key's value (left by an interrupted move) is removed", arguments: migrationStorePairs)
    func completesInterruptedMove(source: MigrationStoreKind, key: MigrationStoreKind) throws {
        let stores = MigrationStores()
        try stores.set(.string("7"), "launches", in: source)
        try stores.set(.int(7), "count", in: key)

        let report = stores.run([MigrationScenario.migrations[0].moved(to: key, from: source)])

        #expect(report.entries.map(\.outcome) == [.completedInterruptedMove])
        #expect(stores.contents(source) == [:])
        #expect(stores.contents(key) == ["count": .int(7)])
    }
}

extension KeyMigration {
    /// The "count" migration of the scenario between other stores.
    func moved(to key: MigrationStoreKind, from source: MigrationStoreKind) -> KeyMigration {
        KeyMigration(
            name: "count", key: PersistentKey<Int>("count", defaultValue: 0), store: key.rawValue,
            sources: [
                KeyMigrationSource(fromKey: "launches", store: source.rawValue, representation: String.persistentKeyValueRepresentation) { Int($0) }
            ])
    }
}
