import Foundation
import KeyCatalog
import Testing

/// The `parameterized` golden: String, Int and UUID parameters, several per key, a key that is
/// only a placeholder, a keyword parameter and a parameter named like the setter's value.
@Suite("Generated catalog: parameterized keys")
struct ParameterizedCatalogTests {
    static let documentID = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    @Test("storage keys interpolate their parameters")
    func storageKeys() {
        let keys = ParameterizedKeys(stores: .inMemory())
        #expect(keys.selectedLayoutIDKey(listID: "inbox").key.id == "inbox::SelectedLayoutID")
        #expect(keys.pageSizeKey(index: 3).key.id == "page-size/3")
        #expect(keys.documentScaleKey(documentID: Self.documentID).key.id == "documents/E621E1F8-C36C-495A-93FC-0C247A3E6E5F/scale")
        #expect(keys.cellWidthKey(tableID: Self.documentID, column: -1).key.id == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F/-1/width")
        #expect(keys.draftKey(accountID: "a\\(b)").key.id == "a\\(b)")
        #expect(keys.filterTagsKey(for: "x").key.id == "Filter(\\(x))")
        #expect(keys.filterLimitKey(newValue: 7).key.id == "Filter/7/limit")
    }

    @Test("each parameter value is its own stored value", arguments: StoreSetup.allCases)
    func roundTrip(_ setup: StoreSetup) {
        let suite = TemporarySuite()
        let keys = ParameterizedKeys(stores: setup == .inMemory ? .inMemory() : .init(standard: suite.store))

        #expect(keys.selectedLayoutID(listID: "inbox") == nil)
        keys.setSelectedLayoutID("grid", listID: "inbox")
        #expect(keys.selectedLayoutID(listID: "inbox") == "grid")
        #expect(keys.selectedLayoutID(listID: "later") == nil)
        keys.setSelectedLayoutID(nil, listID: "inbox")
        #expect(keys.selectedLayoutID(listID: "inbox") == nil)

        #expect(keys.pageSize(index: 1) == 20)
        keys.setPageSize(50, index: 1)
        #expect(keys.pageSize(index: 1) == 50 && keys.pageSize(index: 2) == 20)

        #expect(keys.documentScale(documentID: Self.documentID) == 1.5)
        keys.setDocumentScale(2, documentID: Self.documentID)
        #expect(keys.documentScale(documentID: Self.documentID) == 2)

        #expect(keys.cellWidth(tableID: Self.documentID, column: 0) == nil)
        keys.setCellWidth(120, tableID: Self.documentID, column: 0)
        #expect(keys.cellWidth(tableID: Self.documentID, column: 0) == 120)
        #expect(keys.cellWidth(tableID: Self.documentID, column: 1) == nil)

        keys.setDraft("Hello", accountID: "me")
        #expect(keys.draft(accountID: "me") == "Hello" && keys.draft(accountID: "you") == "")

        #expect(keys.filterTags(for: "mail") == ["all"])
        keys.setFilterTags(["unread"], for: "mail")
        #expect(keys.filterTags(for: "mail") == ["unread"])

        keys.setFilterLimit(3, newValue: 9)
        #expect(keys.filterLimit(newValue: 9) == 3 && keys.filterLimit(newValue: 8) == 10)

        if setup == .userDefaults {
            #expect(suite.defaults.integer(forKey: "page-size/1") == 50)
            #expect(suite.defaults.string(forKey: "me") == "Hello")
        }

        keys.reset()
        #expect(keys.pageSize(index: 1) == 50, "reset leaves parameterized keys alone: their storage keys are unknown")
    }

    @Test("parameterized entries carry the template, the parameters and the default's description")
    func entries() {
        let keys = ParameterizedKeys(stores: .inMemory())
        checkEntries(
            ParameterizedKeys.entries,
            names: ["selectedLayoutID", "pageSize", "documentScale", "cellWidth", "draft", "filterTags", "filterLimit"],
            store: { keys.stores[$0] }
        )
        let byName = Dictionary(uniqueKeysWithValues: ParameterizedKeys.entries.map { ($0.name, $0) })
        #expect(byName["cellWidth"]?.storageKey == "{tableID}/{column}/width")
        #expect(byName["cellWidth"]?.parameters == ["tableID", "column"])
        #expect(byName["selectedLayoutID"]?.doc == "The layout last chosen for a list.")
        #expect(ParameterizedKeys.entries.allSatisfy { $0.isParameterized })

        // The generator describes defaults the way the runtime describes a key's default.
        let runtime: [String: String] = [
            "selectedLayoutID": describe(keys.selectedLayoutIDKey(listID: "x")),
            "pageSize": describe(keys.pageSizeKey(index: 0)),
            "documentScale": describe(keys.documentScaleKey(documentID: Self.documentID)),
            "cellWidth": describe(keys.cellWidthKey(tableID: Self.documentID, column: 0)),
            "draft": describe(keys.draftKey(accountID: "x")),
            "filterTags": describe(keys.filterTagsKey(for: "x")),
            "filterLimit": describe(keys.filterLimitKey(newValue: 0)),
        ]
        for entry in ParameterizedKeys.entries {
            #expect(entry.defaultDescription == runtime[entry.name], "\(entry.name)")
        }
    }

    private func describe<Value>(_ key: CatalogKey<Value>) -> String {
        KeyCatalogEntry(name: "probe", key: key.key, store: "standard", typeName: "").defaultDescription
    }
}
