import Foundation
import KeyCatalog
import Testing

/// The `representations` golden: every `representation` of the manifest, on plain and optional
/// types; checks what each one stores.
@Suite("Generated catalog: representations")
struct RepresentationCatalogTests {
    @Test("each representation stores its form", arguments: StoreSetup.allCases)
    func storedForms(_ setup: StoreSetup) throws {
        let suite = TemporarySuite()
        let keys = RepresentationKeys(stores: setup == .inMemory ? .inMemory() : .init(standard: suite.store))
        let store = keys.stores.standard

        checkRoundTrip("nativeCount", get: { keys.nativeCount }, set: { keys.nativeCount = $0 }, default: 1, sample: 2)
        checkRoundTrip("nativeNames", get: { keys.nativeNames }, set: { keys.nativeNames = $0 }, default: ["x"], sample: ["y", "z"])
        checkRoundTrip("rawFruit", get: { keys.rawFruit }, set: { keys.rawFruit = $0 }, default: .pear, sample: .apple)
        checkRoundTrip("rawOptionalFruit", get: { keys.rawOptionalFruit }, set: { keys.rawOptionalFruit = $0 }, default: nil, sample: .pear)
        checkRoundTrip("codableFruits", get: { keys.codableFruits }, set: { keys.codableFruits = $0 }, default: [.apple], sample: [.pear, .apple])
        checkRoundTrip(
            "codableURL", get: { keys.codableURL }, set: { keys.codableURL = $0 },
            default: URL(string: "https://example.com/codable")!, sample: URL(string: "https://swift.org")!
        )
        checkRoundTrip("codableOptionalScores", get: { keys.codableOptionalScores }, set: { keys.codableOptionalScores = $0 }, default: nil, sample: ["b": 2])
        checkRoundTrip("stringCount", get: { keys.stringCount }, set: { keys.stringCount = $0 }, default: 3, sample: 42)
        checkRoundTrip("stringFlag", get: { keys.stringFlag }, set: { keys.stringFlag = $0 }, default: nil, sample: false)
        checkRoundTrip("stringRatio", get: { keys.stringRatio }, set: { keys.stringRatio = $0 }, default: 0.5, sample: 0.25)
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        checkRoundTrip("isoDate", get: { keys.isoDate }, set: { keys.isoDate = $0 }, default: Date(timeIntervalSince1970: 1_772_600_767), sample: date)
        checkRoundTrip("isoOptionalDate", get: { keys.isoOptionalDate }, set: { keys.isoOptionalDate = $0 }, default: nil, sample: date)
        checkRoundTrip("intervalDate", get: { keys.intervalDate }, set: { keys.intervalDate = $0 }, default: Date(timeIntervalSince1970: 0), sample: date)
        checkRoundTrip("intervalOptionalDate", get: { keys.intervalOptionalDate }, set: { keys.intervalOptionalDate = $0 }, default: nil, sample: date)

        #expect(store.persistentValue(forKey: "rawFruit") == .string("apple"))
        #expect(store.persistentValue(forKey: "stringCount") == .string("42"))
        #expect(store.persistentValue(forKey: "stringFlag") == .string("false"))
        #expect(store.persistentValue(forKey: "isoDate") == .string("2027-01-15T08:00:00.000Z"))
        #expect(store.persistentValue(forKey: "intervalDate") == .double(date.timeIntervalSinceReferenceDate))
        guard case .data(let json)? = store.persistentValue(forKey: "codableFruits") else {
            Issue.record("codable stores JSON data")
            return
        }
        #expect(String(decoding: json, as: UTF8.self) == #"["pear","apple"]"#)
    }

    @Test("a date default is the instant its text names: what iso8601 reads from that text, and reads back once stored", arguments: StoreSetup.allCases)
    func exactDateDefaults(_ setup: StoreSetup) throws {
        let suite = TemporarySuite()
        let keys = RepresentationKeys(stores: setup == .inMemory ? .inMemory() : .init(standard: suite.store))
        let store = keys.stores.standard
        let iso = ISO8601DatePersistentKeyValueRepresentation()
        let isoKeys: [(name: String, text: String, seconds: Double, key: CatalogKey<Date>)] = [
            ("isoMillisecondDate", "2026-03-04T05:06:07.123Z", 794_293_567.123, keys.$isoMillisecondDate),
            ("isoBefore2001Date", "2000-12-31T23:26:46.077Z", -1993.923, keys.$isoBefore2001Date),
            // Julian, as Foundation's ISO 8601 formats read a date before 1582-10-15.
            ("isoJulianDate", "1102-11-10T13:37:03.981Z", try iso.value(from: .string("1102-11-10T13:37:03.981Z")).timeIntervalSinceReferenceDate, keys.$isoJulianDate),
        ]
        for (name, text, seconds, key) in isoKeys {
            #expect(key.value.timeIntervalSinceReferenceDate == seconds, "\(name)")
            #expect(try key.value == iso.value(from: .string(text)), "\(name): the default is what the representation reads from its text")
            key.value = key.value
            #expect(store.persistentValue(forKey: name) == .string(text), "\(name)")
            #expect(key.isStored && key.value.timeIntervalSinceReferenceDate == seconds, "\(name): read back equal")
        }
        #expect(keys.intervalBefore1970Date.timeIntervalSinceReferenceDate == -992_484_739.5)
        keys.intervalBefore1970Date = keys.intervalBefore1970Date
        #expect(store.persistentValue(forKey: "intervalBefore1970Date") == .double(-992_484_739.5))
        #expect(keys.$intervalBefore1970Date.isStored && keys.intervalBefore1970Date.timeIntervalSinceReferenceDate == -992_484_739.5)
    }

    @Test("a migration without fromType reads its source as the key stores values (ISO 8601 here)", arguments: StoreSetup.allCases)
    func transformOnlyMigration(_ setup: StoreSetup) throws {
        let suite = TemporarySuite()
        let keys = RepresentationKeys(stores: setup == .inMemory ? .inMemory() : .init(standard: suite.store))
        let store = keys.stores.standard
        try store.setPersistentValue(.string("2027-01-15T08:00:00.000Z"), forKey: "LegacyIsoDate")

        let report = keys.migrate()
        #expect(report.migrated.map(\.fromKey) == ["LegacyIsoDate"] && report.failed.isEmpty, "\(report)")
        #expect(keys.isoMigratedDate == Date(timeIntervalSince1970: 1_800_000_000 + 86_400))
        #expect(store.persistentValue(forKey: "isoMigratedDate") == .string("2027-01-16T08:00:00.000Z"))
        #expect(!store.hasPersistentValue(forKey: "LegacyIsoDate"))
    }
}
