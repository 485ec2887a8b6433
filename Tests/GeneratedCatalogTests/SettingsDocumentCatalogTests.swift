import Foundation
import KeyCatalog
import Testing

/// A generated catalog's `exportSettings()` / `importSettings(from:)`: every value type of the
/// `every-type` golden leaves one suite and arrives in another exactly.
@Suite("Generated catalog: settings export and import")
struct SettingsDocumentCatalogTests {
    @Test func everyTypeTravelsBetweenStoresExactly() throws {
        let source = TemporarySuite("source")
        let destination = TemporarySuite("destination")
        let from = TypeKeys(stores: .init(standard: source.store))
        let to = TypeKeys(stores: .init(standard: destination.store))
        from.typeInt = 7
        from.typeInt64 = .min
        from.typeUInt64 = .max - 1
        from.typeDouble = 0.1
        from.typeWholeDouble = 3
        from.typeFloat = .leastNonzeroMagnitude
        from.typeString = "line\nbreak \u{202E} \"quoted\" 😀"
        from.typeData = Data([0, 255, 1])
        from.typeDate = Date(timeIntervalSinceReferenceDate: 785_000_000.123_456)
        from.typeURL = URL(string: "https://example.com/x?y=1")!
        from.typeUUID = UUID()
        from.typeOptionalInt = 0
        from.typeStrings = ["z", ""]
        from.typeDates = [Date(timeIntervalSinceReferenceDate: 1.5)]
        from.typeNestedInts = [[], [9]]
        from.typeScores = ["k": -1]
        from.typeOptionalList = []
        from.typeListOfDictionaries = [["off": false]]
        from.typeBool = true  // its default: not exported

        let data = try from.exportSettings()
        let values = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["values"] as? [String: Any])
        #expect(values["typeBool"] == nil && values["typeInt8"] == nil, "defaults are not exported")
        #expect(values.count == 18, "\(values.keys.sorted())")

        let report = try to.importSettings(from: data)
        #expect(report.applied.count == 18 && report.skipped.isEmpty, "\(report)")
        #expect(to.typeInt == 7 && to.typeInt64 == .min && to.typeUInt64 == .max - 1)
        #expect(to.typeDouble == 0.1 && to.typeWholeDouble == 3 && to.typeFloat == .leastNonzeroMagnitude)
        #expect(to.typeString == from.typeString && to.typeData == from.typeData && to.typeDate == from.typeDate)
        #expect(to.typeURL == from.typeURL && to.typeUUID == from.typeUUID && to.typeOptionalInt == 0)
        #expect(to.typeStrings == ["z", ""] && to.typeDates == from.typeDates && to.typeNestedInts == [[], [9]])
        #expect(to.typeScores == ["k": -1] && to.typeOptionalList == [] && to.typeListOfDictionaries == [["off": false]])
        #expect(try to.exportSettings() == data, "the destination exports the same document")
    }
}
