import Foundation
import KeyCatalog
import Testing

/// The `public-access` golden: `"access": "public"` on every declaration.
@Suite("Generated catalog: public access")
struct PublicAccessCatalogTests {
    @Test("public keys round-trip", .debugBuildsOnly, arguments: StoreSetup.allCases)
    func roundTrip(_ setup: StoreSetup) {
        let suite = TemporarySuite()
        let keys = PublicKeys(stores: setup == .inMemory ? .inMemory() : .init(standard: suite.store))
        checkRoundTrip("publicCount", get: { keys.publicCount }, set: { keys.publicCount = $0 }, default: 5, sample: 6)
        checkRoundTrip("publicMode", get: { keys.publicMode }, set: { keys.publicMode = $0 }, default: .on, sample: .off)
        checkRoundTrip("publicDebug", get: { keys.publicDebug }, set: { keys.publicDebug = $0 }, default: true, sample: false)
        #expect(keys.publicTitle(id: 1) == "Untitled")
        keys.setPublicTitle("Notes", id: 1)
        #expect(keys.publicTitle(id: 1) == "Notes")
        #expect(PublicMode.allCases.map(\.rawValue) == [0, 1])
    }

    @Test("deprecated keys work through the table without warnings")
    func deprecated() throws {
        let keys = PublicKeys(stores: .inMemory())
        let entry = try #require(PublicKeys.entries.first { $0.name == "publicOld" })
        #expect(entry.deprecationMessage == "Use publicMode.")
        #expect(entry.currentValueDescription(in: keys.stores.standard) == "true")
        try entry.setValue(parsing: "false", in: keys.stores.standard)
        #expect(entry.currentValueDescription(in: keys.stores.standard) == "false")
        keys.reset()
        #expect(!entry.isStored(in: keys.stores.standard))
    }
}
