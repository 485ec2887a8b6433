import Foundation
import KeyCatalog
import Testing

/// Values as apps store them, before and after a migration.
enum MigrationTheme: String, CaseIterable, Sendable {
    case light, dark, sepia
}

struct MigrationProfileV1: Codable, Sendable, Equatable {
    var name: String
}

struct MigrationProfile: Codable, Sendable, Equatable {
    var name: String
    var age: Int?
}

/// One conversion: what was stored under the old key, the migration that reads it, and what the
/// key must hold (stored form and typed value) afterwards.
struct ConversionCase: Sendable, CustomTestStringConvertible {
    let name: String
    let old: PropertyListValue
    /// The migration of key `new` in `store` from `old` in `fromStore`.
    let migration: @Sendable (_ store: String, _ fromStore: String) -> KeyMigration
    let expected: PropertyListValue
    /// Reads the key through its typed key and says whether it is the expected value.
    let readsBack: @Sendable (any PersistentKeyValueStore) -> Bool

    var testDescription: String { name }

    static let date = Date(timeIntervalSince1970: 1_700_000_000.25)
    /// A whole second: UserDefaults on Linux writes XML property lists, whose `<date>` keeps whole
    /// seconds, so a native date read back after its coalesced synchronize() has lost any fraction
    /// (the README says so). A native-date source uses this one, so no case depends on whether
    /// that synchronize ran before the migration read it.
    static let wholeSecondDate = Date(timeIntervalSince1970: 1_700_000_000)
    static let isoDateKey = PersistentKey<Date>("new", defaultValue: .distantPast, representation: ISO8601DatePersistentKeyValueRepresentation())
    static let themeKey = PersistentKey<MigrationTheme>("new", defaultValue: .light, representation: RawRepresentablePersistentKeyValueRepresentation())
    static let profileKey = PersistentKey<MigrationProfile>("new", defaultValue: MigrationProfile(name: ""), representation: CodablePersistentKeyValueRepresentation())

    static let all: [ConversionCase] = [
        ConversionCase(
            name: "rename Int",
            old: .int(5),
            migration: { store, from in
                KeyMigration(
                    name: "count", key: PersistentKey<Int>("new", defaultValue: 0), store: store,
                    sources: [
                        KeyMigrationSource(fromKey: "old", store: from, representation: Int.persistentKeyValueRepresentation)
                    ])
            },
            expected: .int(5),
            readsBack: { $0.get(PersistentKey<Int>("new", defaultValue: 0)) == 5 }
        ),
        ConversionCase(
            name: "Int index -> enum",
            old: .int(1),
            migration: { store, from in
                KeyMigration(
                    name: "theme", key: themeKey, store: store,
                    sources: [
                        KeyMigrationSource(fromKey: "old", store: from, representation: Int.persistentKeyValueRepresentation) { index in
                            MigrationTheme.allCases.indices.contains(index) ? MigrationTheme.allCases[index] : nil
                        }
                    ])
            },
            expected: .string("dark"),
            readsBack: { $0.get(themeKey) == .dark }
        ),
        ConversionCase(
            name: "String -> Int",
            old: .string("42"),
            migration: { store, from in
                KeyMigration(
                    name: "count", key: PersistentKey<Int>("new", defaultValue: 0), store: store,
                    sources: [
                        KeyMigrationSource(fromKey: "old", store: from, representation: String.persistentKeyValueRepresentation) { Int($0) }
                    ])
            },
            expected: .int(42),
            readsBack: { $0.get(PersistentKey<Int>("new", defaultValue: 0)) == 42 }
        ),
        ConversionCase(
            name: "Double seconds since 1970 -> Date",
            old: .double(1_700_000_000.25),
            migration: { store, from in
                KeyMigration(
                    name: "date", key: PersistentKey<Date>("new", defaultValue: .distantPast), store: store,
                    sources: [
                        KeyMigrationSource(fromKey: "old", store: from, representation: Double.persistentKeyValueRepresentation) {
                            Date(timeIntervalSince1970: $0)
                        }
                    ])
            },
            expected: .double(date.timeIntervalSinceReferenceDate),
            readsBack: { $0.get(PersistentKey<Date>("new", defaultValue: .distantPast)) == date }
        ),
        ConversionCase(
            name: "Date as time interval -> ISO 8601 string",
            old: .double(date.timeIntervalSinceReferenceDate),
            migration: { store, from in
                KeyMigration(
                    name: "date", key: isoDateKey, store: store,
                    sources: [
                        KeyMigrationSource(fromKey: "old", store: from, representation: TimeIntervalDatePersistentKeyValueRepresentation())
                    ])
            },
            expected: .string("2023-11-14T22:13:20.250Z"),
            readsBack: { $0.get(isoDateKey) == date }
        ),
        ConversionCase(
            name: "native Date -> ISO 8601 string",
            old: .date(wholeSecondDate),
            migration: { store, from in
                KeyMigration(
                    name: "date", key: isoDateKey, store: store,
                    sources: [
                        KeyMigrationSource(fromKey: "old", store: from, representation: TimeIntervalDatePersistentKeyValueRepresentation())
                    ])
            },
            expected: .string("2023-11-14T22:13:20.000Z"),
            readsBack: { $0.get(isoDateKey) == wholeSecondDate }
        ),
        ConversionCase(
            name: "Codable v1 JSON -> Codable v2 JSON",
            old: .data(Data(#"{"name":"Ada"}"#.utf8)),
            migration: { store, from in
                KeyMigration(
                    name: "profile", key: profileKey, store: store,
                    sources: [
                        KeyMigrationSource(
                            fromKey: "old", store: from,
                            representation: CodablePersistentKeyValueRepresentation<MigrationProfileV1, JSONEncoder, JSONDecoder>()
                        ) { MigrationProfile(name: $0.name, age: nil) }
                    ])
            },
            expected: .data(Data(#"{"name":"Ada"}"#.utf8)),
            readsBack: { $0.get(profileKey) == MigrationProfile(name: "Ada") }
        ),
        ConversionCase(
            name: "Codable as property list -> JSON",
            old: .data(try! PropertyListEncoder().encode(MigrationProfile(name: "Ada", age: 36))),
            migration: { store, from in
                KeyMigration(
                    name: "profile", key: profileKey, store: store,
                    sources: [
                        KeyMigrationSource(
                            fromKey: "old", store: from,
                            representation: CodablePersistentKeyValueRepresentation<MigrationProfile, PropertyListEncoder, PropertyListDecoder>(
                                encoder: PropertyListEncoder(), decoder: PropertyListDecoder()
                            )
                        )
                    ])
            },
            expected: .data(Data(#"{"age":36,"name":"Ada"}"#.utf8)),
            readsBack: { $0.get(profileKey) == MigrationProfile(name: "Ada", age: 36) }
        ),
    ]
}

@Suite("Migrations: renames, type and representation changes")
struct KeyMigrationConversionTests {
    @Test("a value moves to the new key, converted, and the old key is removed", arguments: ConversionCase.all, MigrationStoreKind.allCases)
    func conversion(_ conversion: ConversionCase, in kind: MigrationStoreKind) throws {
        let stores = MigrationStores()
        try stores.set(conversion.old, "old", in: kind)
        let failures = FailureRecorder()

        let report = failures.record { stores.run([conversion.migration(kind.rawValue, kind.rawValue)]) }

        #expect(failures.failures.isEmpty)
        #expect(report.entries.map(\.outcome) == [.migrated])
        #expect(stores.contents(kind) == ["new": conversion.expected])
        #expect(conversion.readsBack(stores.store(kind)))
    }

    @Test("a key with no migration source holding a value: nothing happens, nothing is reported", arguments: MigrationStoreKind.allCases)
    func nothingToDo(in kind: MigrationStoreKind) throws {
        let stores = MigrationStores()
        try stores.set(.int(3), "unrelated", in: kind)
        let report = stores.run(ConversionCase.all.map { $0.migration(kind.rawValue, kind.rawValue) })
        #expect(report.isEmpty)
        #expect(report.description == "migrations: nothing to do")
        #expect(stores.contents(kind) == ["unrelated": .int(3)])
    }
}
