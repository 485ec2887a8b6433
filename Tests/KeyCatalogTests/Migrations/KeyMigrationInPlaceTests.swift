import Foundation
import KeyCatalog
import Testing

/// Migrations whose source is the key itself (same storage key, same store) with another type or
/// representation: the linter allows them (`SelfMigrationRule` only rejects one with neither).
@Suite("Migrations: type and representation changes in place")
struct KeyMigrationInPlaceTests {
    struct InPlaceCase: Sendable, CustomTestStringConvertible {
        let name: String
        let old: PropertyListValue
        let migration: @Sendable (String) -> KeyMigration
        let expected: PropertyListValue
        var testDescription: String { name }

        static let all: [InPlaceCase] = [
            InPlaceCase(
                name: "Date: time interval -> ISO 8601", old: .double(ConversionCase.date.timeIntervalSinceReferenceDate),
                migration: { store in
                    KeyMigration(
                        name: "lastSync", key: ConversionCase.isoDateKey.renamed("lastSync"), store: store,
                        sources: [
                            KeyMigrationSource(fromKey: "lastSync", store: store, representation: TimeIntervalDatePersistentKeyValueRepresentation())
                        ])
                },
                expected: .string("2023-11-14T22:13:20.250Z")
            ),
            InPlaceCase(
                name: "String -> Int", old: .string("42"),
                migration: { store in
                    KeyMigration(
                        name: "count", key: PersistentKey<Int>("count", defaultValue: 0), store: store,
                        sources: [
                            KeyMigrationSource(fromKey: "count", store: store, representation: String.persistentKeyValueRepresentation) { Int($0) }
                        ])
                },
                expected: .int(42)
            ),
            InPlaceCase(
                name: "Int index -> String enum", old: .int(2),
                migration: { store in
                    KeyMigration(
                        name: "theme", key: ConversionCase.themeKey.renamed("theme"), store: store,
                        sources: [
                            KeyMigrationSource(fromKey: "theme", store: store, representation: Int.persistentKeyValueRepresentation) {
                                MigrationTheme.allCases.indices.contains($0) ? MigrationTheme.allCases[$0] : nil
                            }
                        ])
                },
                expected: .string("sepia")
            ),
        ]
    }

    @Test("the value is converted where it is, once; a second run does nothing", arguments: InPlaceCase.all, MigrationStoreKind.allCases)
    func convertsInPlace(_ inPlace: InPlaceCase, in kind: MigrationStoreKind) throws {
        let stores = MigrationStores()
        try stores.set(inPlace.old, inPlace.migration(kind.rawValue).storageKey, in: kind)
        let failures = FailureRecorder()

        let first = failures.record { stores.run([inPlace.migration(kind.rawValue)]) }
        let second = failures.record { stores.run([inPlace.migration(kind.rawValue)]) }

        #expect(first.entries.map(\.outcome) == [.migrated])
        #expect(second.isEmpty)
        #expect(stores.contents(kind) == [inPlace.migration(kind.rawValue).storageKey: inPlace.expected])
        #expect(failures.failures.isEmpty)
    }

    @Test("a value already in the key's form is left alone, never removed", arguments: MigrationStoreKind.allCases)
    func currentValueIsKept(in kind: MigrationStoreKind) throws {
        let stores = MigrationStores()
        try stores.set(.int(5), "count", in: kind)
        try stores.set(.string("2023-11-14T22:13:20.250Z"), "lastSync", in: kind)
        let migrations = [
            // Same type, an explicit `fromType` equal to the key's: the linter lets it through.
            KeyMigration(
                name: "count", key: PersistentKey<Int>("count", defaultValue: 0), store: kind.rawValue,
                sources: [
                    KeyMigrationSource(fromKey: "count", store: kind.rawValue, representation: Int.persistentKeyValueRepresentation)
                ]),
            InPlaceCase.all[0].migration(kind.rawValue),
        ]

        let report = stores.run(migrations)

        #expect(report.isEmpty)
        #expect(stores.contents(kind) == ["count": .int(5), "lastSync": .string("2023-11-14T22:13:20.250Z")])
    }

    @Test("an old value the transform rejects stays in place and is reported", arguments: MigrationStoreKind.allCases)
    func rejectedInPlace(in kind: MigrationStoreKind) throws {
        let stores = MigrationStores()
        try stores.set(.string("many"), "count", in: kind)
        let failures = FailureRecorder()

        let report = failures.record { stores.run([InPlaceCase.all[1].migration(kind.rawValue)]) }

        #expect(report.entries.map(\.outcome.kind) == ["failed"])
        #expect(failures.failures.count == 1)
        #expect(stores.contents(kind) == ["count": .string("many")])
    }
}

/// Old and new names equal as `String`s but not in their characters (a decomposed and a composed
/// accent): two keys in UserDefaults, one in a file store. In a suite, the migration was taken for
/// a change in place (found by a review): a rename did nothing, and a type change left the value
/// under both names. It now moves, as between any two names.
@Suite("Migrations: names equal as Strings, not in their characters")
struct KeyMigrationEquivalentNameTests {
    static let (old, new) = ("Cafe\u{301}", "Caf\u{E9}")

    @Test func aRenameInASuiteMoves() throws {
        let stores = MigrationStores()
        try stores.set(.int(7), Self.old, in: .userDefaults)
        #expect(!stores.suite.defaults.hasPersistentValue(forKey: Self.new), "the suite holds them apart")
        let key = PersistentKey<Int>(Self.new, defaultValue: 0)
        let migration = KeyMigration(
            name: "cafe", key: key, store: "userDefaults",
            sources: [KeyMigrationSource(fromKey: Self.old, store: "userDefaults", representationOf: key)])
        let report = FailureRecorder().record { KeyMigrator.run([migration], stores: stores.lookup) }
        #expect(report.migrated.count == 1, "\(report)")
        #expect(stores.suite.defaults.get(key) == 7)
        #expect(!stores.suite.defaults.hasPersistentValue(forKey: Self.old))
    }

    @Test func aTypeChangeInASuiteMovesAndRemovesTheOldName() throws {
        let stores = MigrationStores()
        try stores.set(.string("7"), Self.old, in: .userDefaults)
        let key = PersistentKey<Int>(Self.new, defaultValue: 0)
        let migration = KeyMigration(
            name: "cafe", key: key, store: "userDefaults",
            sources: [KeyMigrationSource(fromKey: Self.old, store: "userDefaults", representation: String.persistentKeyValueRepresentation) { Int($0) }])
        let report = FailureRecorder().record { KeyMigrator.run([migration], stores: stores.lookup) }
        #expect(report.migrated.count == 1, "\(report)")
        #expect(stores.suite.defaults.get(key) == 7)
        #expect(!stores.suite.defaults.hasPersistentValue(forKey: Self.old), "the value is in one place")
    }

    /// In a file store both names are one key: the change is made in place.
    @Test func aTypeChangeInAFileStoreIsInPlace() throws {
        let stores = MigrationStores()
        try stores.set(.string("7"), Self.old, in: .file)
        let key = PersistentKey<Int>(Self.new, defaultValue: 0)
        let migration = KeyMigration(
            name: "cafe", key: key, store: "file",
            sources: [KeyMigrationSource(fromKey: Self.old, store: "file", representation: String.persistentKeyValueRepresentation) { Int($0) }])
        let report = FailureRecorder().record { KeyMigrator.run([migration], stores: stores.lookup) }
        #expect(report.migrated.count == 1, "\(report)")
        #expect(stores.file.get(key) == 7)
        #expect(stores.contents(.file).count == 1, "one key: \(stores.contents(.file))")
    }
}
