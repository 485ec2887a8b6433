import Foundation
import KeyCatalog
import Testing

/// The `every-type` golden: every built-in type and every kind of default literal.
@Suite("Generated catalog: every type and default")
struct EveryTypeCatalogTests {
    @Test("the defaults are exactly the manifest's literals")
    func defaults() {
        let keys = TypeKeys(stores: .inMemory())
        #expect(keys.typeInt == -42 && keys.typeInt8 == .min && keys.typeInt16 == .max && keys.typeInt32 == .min)
        #expect(keys.typeInt64 == .max && keys.typeUInt8 == .max && keys.typeUInt16 == .max && keys.typeUInt32 == .max)
        #expect(keys.typeUInt64 == .max && keys.typeUInt == 7 && keys.typeBool)
        #expect(keys.typeDouble == 0.001 && keys.typeWholeDouble == 2 && keys.typeFloat == 0.25)
        #expect(keys.typeString == "Hello, \"world\"!\n\tC:\\path \\(notInterpolated) café 😀 \u{200B}\u{202E} end")
        #expect(keys.typeData == Data([0, 1, 2, 3]) && keys.typeEmptyData.isEmpty)
        #expect(keys.typeDate == ISO8601DateFormatter().date(from: "2026-01-01T00:00:00Z"))
        #expect(keys.typeFractionalDate == Date(timeIntervalSince1970: 1_709_202_615.5))
        #expect(keys.typeURL.absoluteString == "https://example.com/a%20b?q=1#frag")
        #expect(keys.typeUUID.uuidString == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(keys.typeOptionalInt == nil && keys.typeOptionalString == nil && keys.typeOptionalList == nil)
        #expect(keys.typeStrings == ["a", "b\"c", ""] && keys.typeEmptyInts.isEmpty)
        #expect(keys.typeDates.count == 2 && keys.typeNestedInts == [[1, 2], [], [3]])
        #expect(keys.typeScores == ["a": 1, "b": 2, "with \"quote\"": 3] && keys.typeEmptyScores.isEmpty)
        #expect(keys.typeURLsByName == ["home": URL(string: "https://example.com")!])
        #expect(keys.typeListOfDictionaries == [["on": true], [:]])
    }

    @Test("every key round-trips", arguments: StoreSetup.allCases)
    func roundTrip(_ setup: StoreSetup) {
        let suite = TemporarySuite()
        let keys = TypeKeys(stores: setup == .inMemory ? .inMemory() : .init(standard: suite.store))
        func check<Value: Equatable>(_ name: String, _ key: ReferenceWritableKeyPath<Box, Value>, _ sample: Value) {
            let box = Box(keys)
            let initial = box[keyPath: key]
            checkRoundTrip(name, get: { box[keyPath: key] }, set: { box[keyPath: key] = $0 }, default: initial, sample: sample)
        }
        check("typeBool", \.keys.typeBool, false)
        check("typeInt", \.keys.typeInt, 1)
        check("typeInt8", \.keys.typeInt8, 8)
        check("typeInt16", \.keys.typeInt16, -16)
        check("typeInt32", \.keys.typeInt32, 32)
        check("typeInt64", \.keys.typeInt64, .min)
        check("typeUInt", \.keys.typeUInt, .max)
        check("typeUInt8", \.keys.typeUInt8, 0)
        check("typeUInt16", \.keys.typeUInt16, 1)
        check("typeUInt32", \.keys.typeUInt32, 2)
        check("typeUInt64", \.keys.typeUInt64, 3)
        check("typeDouble", \.keys.typeDouble, -1.5)
        check("typeWholeDouble", \.keys.typeWholeDouble, .pi)
        check("typeFloat", \.keys.typeFloat, 0.1)
        check("typeString", \.keys.typeString, "new\nline")
        check("typeData", \.keys.typeData, Data("bytes".utf8))
        check("typeEmptyData", \.keys.typeEmptyData, Data([255]))
        check("typeDate", \.keys.typeDate, Date(timeIntervalSinceReferenceDate: 12.25))
        check("typeFractionalDate", \.keys.typeFractionalDate, Date(timeIntervalSince1970: 0))
        check("typeURL", \.keys.typeURL, URL(string: "https://swift.org/x?y")!)
        check("typeUUID", \.keys.typeUUID, UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
        check("typeOptionalInt", \.keys.typeOptionalInt, 4)
        check("typeOptionalString", \.keys.typeOptionalString, "")
        check("typeStrings", \.keys.typeStrings, [])
        check("typeEmptyInts", \.keys.typeEmptyInts, [1, 2])
        check("typeDates", \.keys.typeDates, [Date(timeIntervalSince1970: 1)])
        check("typeNestedInts", \.keys.typeNestedInts, [[9]])
        check("typeScores", \.keys.typeScores, ["z": 26])
        check("typeEmptyScores", \.keys.typeEmptyScores, ["half": 0.5])
        check("typeOptionalList", \.keys.typeOptionalList, ["x"])
        check("typeURLsByName", \.keys.typeURLsByName, [:])
        check("typeListOfDictionaries", \.keys.typeListOfDictionaries, [[:]])

        keys.typeOptionalInt = nil
        #expect(keys.typeOptionalInt == nil && !keys.$typeOptionalInt.isStored, "nil is stored as no value")
        keys.reset()
        #expect(keys.typeInt == -42 && keys.typeScores["a"] == 1 && keys.typeOptionalString == nil)
        #expect(TypeKeys.entries.allSatisfy { !keys.stores.standard.hasPersistentValue(forKey: $0.storageKey) })
    }

    @Test("the table names every key with its manifest type")
    func entries() {
        let keys = TypeKeys(stores: .inMemory())
        #expect(TypeKeys.entries.count == 32)
        checkEntries(TypeKeys.entries, names: TypeKeys.entries.map(\.name), store: { keys.stores[$0] })
        let types = Dictionary(uniqueKeysWithValues: TypeKeys.entries.map { ($0.name, $0.typeName) })
        #expect(types["typeNestedInts"] == "[[Int]]" && types["typeOptionalList"] == "[String]?" && types["typeURLsByName"] == "[String: URL]")
    }

    /// Lets one generic helper reach every nonmutating catalog property through a key path.
    final class Box {
        var keys: TypeKeys
        init(_ keys: TypeKeys) { self.keys = keys }
    }
}
