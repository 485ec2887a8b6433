import Foundation
import KeyCatalog

/// A catalog's worth of migrations across all four stores, with the old values an app upgraded
/// from an older version would hold: moves with type changes, a representation change, a second
/// source, a key that already holds a value, and two sources that cannot be converted.
enum MigrationScenario {
    /// A value that must never be lost: it is at the key (converted) or at its source (as it was).
    struct Expectation {
        let key: String
        let store: MigrationStoreKind
        let value: PropertyListValue
        let sourceKey: String
        let sourceStore: MigrationStoreKind
        let original: PropertyListValue
        /// Whether an uninterrupted run moves it (otherwise both sides stay as they are).
        let moves: Bool
    }

    static let date = Date(timeIntervalSince1970: 1_700_000_000.25)

    static let expectations: [Expectation] = [
        Expectation(key: "count", store: .file, value: .int(7), sourceKey: "launches", sourceStore: .userDefaults, original: .string("7"), moves: true),
        Expectation(key: "theme", store: .userDefaults, value: .string("sepia"), sourceKey: "themeIndex", sourceStore: .userDefaults, original: .int(2), moves: true),
        Expectation(key: "lastSync", store: .secondSuite, value: .string("2023-11-14T22:13:20.250Z"), sourceKey: "lastSyncInterval", sourceStore: .file, original: .double(date.timeIntervalSinceReferenceDate), moves: true),
        Expectation(key: "profile", store: .memory, value: .data(Data(#"{"name":"Ada"}"#.utf8)), sourceKey: "profile.v1", sourceStore: .secondSuite, original: .data(Data(#"{"name":"Ada"}"#.utf8)), moves: true),
        Expectation(key: "name", store: .userDefaults, value: .string("Grace"), sourceKey: "nameV1", sourceStore: .file, original: .string("Grace"), moves: true),
        Expectation(key: "token", store: .file, value: .string("new-token"), sourceKey: "token", sourceStore: .memory, original: .string("old-token"), moves: false),
        Expectation(key: "volume", store: .memory, value: .int(0), sourceKey: "volumeText", sourceStore: .file, original: .string("loud"), moves: false),
        Expectation(key: "flag", store: .secondSuite, value: .bool(false), sourceKey: "oldFlag", sourceStore: .file, original: .string("yes"), moves: false),
    ]

    /// Writes the old values (and the token the key already holds).
    static func seed(_ stores: MigrationStores) throws {
        for expectation in expectations {
            try stores.set(expectation.original, expectation.sourceKey, in: expectation.sourceStore)
        }
        try stores.set(.string("new-token"), "token", in: .file)
        try stores.set(.string("untouched"), "unrelated", in: .userDefaults)
    }

    static let migrations: [KeyMigration] = [
        KeyMigration(
            name: "count", key: PersistentKey<Int>("count", defaultValue: 0), store: "file",
            sources: [
                KeyMigrationSource(fromKey: "launches", store: "userDefaults", representation: String.persistentKeyValueRepresentation) { Int($0) }
            ]),
        KeyMigration(
            name: "theme", key: ConversionCase.themeKey.renamed("theme"), store: "userDefaults",
            sources: [
                KeyMigrationSource(fromKey: "themeIndex", store: "userDefaults", representation: Int.persistentKeyValueRepresentation) {
                    MigrationTheme.allCases.indices.contains($0) ? MigrationTheme.allCases[$0] : nil
                }
            ]),
        KeyMigration(
            name: "lastSync", key: ConversionCase.isoDateKey.renamed("lastSync"), store: "secondSuite",
            sources: [
                KeyMigrationSource(fromKey: "lastSyncInterval", store: "file", representation: TimeIntervalDatePersistentKeyValueRepresentation())
            ]),
        KeyMigration(
            name: "profile", key: ConversionCase.profileKey.renamed("profile"), store: "memory",
            sources: [
                KeyMigrationSource(fromKey: "profile.v1", store: "secondSuite", representation: CodablePersistentKeyValueRepresentation<MigrationProfileV1, JSONEncoder, JSONDecoder>()) {
                    MigrationProfile(name: $0.name)
                }
            ]),
        KeyMigration(
            name: "name", key: PersistentKey<String>("name", defaultValue: ""), store: "userDefaults",
            sources: [
                KeyMigrationSource(fromKey: "nameV2", store: "memory", representation: String.persistentKeyValueRepresentation),
                KeyMigrationSource(fromKey: "nameV1", store: "file", representation: String.persistentKeyValueRepresentation),
            ]),
        KeyMigration(
            name: "token", key: PersistentKey<String>("token", defaultValue: ""), store: "file",
            sources: [
                KeyMigrationSource(fromKey: "token", store: "memory", representation: String.persistentKeyValueRepresentation)
            ]),
        KeyMigration(
            name: "volume", key: PersistentKey<Int>("volume", defaultValue: 0), store: "memory",
            sources: [
                KeyMigrationSource(fromKey: "volumeText", store: "file", representation: String.persistentKeyValueRepresentation) { Int($0) }
            ]),
        KeyMigration(
            name: "flag", key: PersistentKey<Bool>("flag", defaultValue: false), store: "secondSuite",
            sources: [
                KeyMigrationSource(fromKey: "oldFlag", store: "file", representation: Bool.persistentKeyValueRepresentation)
            ]),
    ]

    /// The outcomes of an uninterrupted first run, by key name.
    static let firstRunOutcomes: [String: String] = [
        "count": "migrated", "theme": "migrated", "lastSync": "migrated", "profile": "migrated", "name": "migrated",
        "token": "skipped", "volume": "failed", "flag": "failed",
    ]
}

extension KeyMigrationReport.Outcome {
    /// The outcome's kind, without a failure's reason.
    var kind: String {
        switch self {
        case .migrated, .completedInterruptedMove: "migrated"
        case .skippedKeyHasValue: "skipped"
        case .failed: "failed"
        }
    }
}

extension PersistentKey {
    /// The same key under another storage key.
    func renamed(_ id: String) -> PersistentKey<Value> {
        PersistentKey(id, defaultValue: defaultValue, representation: AnyRepresentation(base: representation))
    }
}

/// Wraps an existential representation so it can be passed where a concrete one is required.
private struct AnyRepresentation<Value>: PersistentKeyValueRepresentation {
    let base: any PersistentKeyValueRepresentation<Value>
    func persistentValue(for value: Value) throws -> PropertyListValue? { try base.persistentValue(for: value) }
    func value(from persistentValue: PropertyListValue) throws -> Value { try base.value(from: persistentValue) }
}
