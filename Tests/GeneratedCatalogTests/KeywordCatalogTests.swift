import Foundation
import KeyCatalog
import Testing

/// The `keywords` golden: keys, cases, parameters and stores named with Swift keywords, escaped
/// in the generated file and usable as ordinary names.
@Suite("Generated catalog: keyword names")
struct KeywordCatalogTests {
    @Test("keyword-named keys round-trip", arguments: StoreSetup.allCases)
    func roundTrip(_ setup: StoreSetup) {
        let suite = TemporarySuite()
        let other = TemporarySuite()
        let keys = KeywordKeys(stores: setup == .inMemory ? .inMemory() : .init(standard: suite.store, struct: .memory(), default: other.store))
        checkRoundTrip("default", get: { keys.default }, set: { keys.default = $0 }, default: 1, sample: 2)
        checkRoundTrip("class", get: { keys.class }, set: { keys.class = $0 }, default: "A", sample: "B")
        checkRoundTrip("boxedMode", get: { keys.boxedMode }, set: { keys.boxedMode = $0 }, default: GoldenBox(value: .b), sample: GoldenBox(value: .a))
        checkRoundTrip("where", get: { keys.where }, set: { keys.where = $0 }, default: true, sample: false)
        checkRoundTrip("func", get: { keys.func }, set: { keys.func = $0 }, default: .switch, sample: .out)
        checkRoundTrip("in", get: { keys.in }, set: { keys.in = $0 }, default: [.in, .repeat], sample: [])
        checkRoundTrip("async", get: { keys.async }, set: { keys.async = $0 }, default: false, sample: true)
        checkRoundTrip("actor", get: { keys.actor }, set: { keys.actor = $0 }, default: nil, sample: "main")
        checkRoundTrip("mode", get: { keys.mode }, set: { keys.mode = $0 }, default: `each`.a, sample: .b)
        checkRoundTrip("transfer", get: { keys.transfer }, set: { keys.transfer = $0 }, default: `sending`.b, sample: .a)
        #expect(keys.static(for: "a", in: 1) == 0)
        keys.setStatic(0.5, for: "a", in: 1)
        #expect(keys.static(for: "a", in: 1) == 0.5 && keys.static(for: "a", in: 2) == 0)
        #expect(keys.staticKey(for: "x", in: 3).key.id == "static/x/3")
        #expect(keys.$default.value == 2 && keys.stores.standard.get(keys.$default.key) == 2)
        if setup == .userDefaults {
            #expect(suite.defaults.string(forKey: "func") == "out")
            #expect(other.defaults.string(forKey: "actor") == "main" && suite.defaults.object(forKey: "actor") == nil)
            #expect(keys.stores.struct.get(keys.$async.key) == true)
        }
    }

    @Test("the table uses the plain names")
    func entries() {
        let keys = KeywordKeys(stores: .inMemory())
        checkEntries(KeywordKeys.entries, names: ["default", "class", "where", "func", "in", "static", "async", "actor", "mode", "transfer", "isolation", "__shared", "boxedMode"], store: { keys.stores[$0] })
    }
}
