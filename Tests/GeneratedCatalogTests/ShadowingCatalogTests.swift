import Foundation
import KeyCatalog
import Testing

/// The `shadowing` golden: a store named like `Stores`' subscript parameter (`name`) and
/// parameters named like the catalog's `stores` and the migration's local `migration`. The
/// generated bodies must reach the catalog's members, not the parameters.
@Suite("Generated catalog: names that shadow generated members")
struct ShadowingCatalogTests {
    @Test("a store named 'name' is found by name, not replaced by the subscript's argument")
    func storeNamedName() {
        let stores = ShadowingKeys.Stores.inMemory()
        #expect(stores["name"] != nil && stores["standard"] != nil && stores["no such store"] == nil)
        let keys = ShadowingKeys(stores: stores)
        keys.title = "Draft"
        #expect(stores["name"]?.get(keys.$title.key) == "Draft" && keys.$title.storeName == "name")
        #expect(stores.standard.get(keys.$title.key) == "Untitled", "the key lives in 'name' only")
        keys.reset()
        #expect(keys.title == "Untitled")
    }

    @Test("a parameter named 'stores' does not hide the catalog's stores")
    func parameterNamedStores() {
        let stores = ShadowingKeys.Stores.inMemory()
        let keys = ShadowingKeys(stores: stores)
        #expect(keys.pageCount(stores: "a", migration: 1) == 0)
        keys.setPageCount(3, stores: "a", migration: 1)
        #expect(keys.pageCount(stores: "a", migration: 1) == 3 && keys.pageCount(stores: "b", migration: 1) == 0)
        #expect(stores.name.get(keys.pageCountKey(stores: "a", migration: 1).key) == 3)

        let oldKey = PersistentKey<Int>("oldPages/b/2", defaultValue: 0)
        stores.name.set(oldKey, to: 7)
        let report = keys.migratePageCount(stores: "b", migration: 2)
        #expect(report.migrated.map(\.fromKey) == ["oldPages/b/2"] && report.failed.isEmpty)
        #expect(keys.pageCount(stores: "b", migration: 2) == 7)
        #expect(!stores.name.contains(oldKey))
        #expect(keys.migrate().isEmpty, "the catalog's table has no parameterized keys")
    }

    @Test("a Swift default naming an app type 'id' makes that type, not PersistentKey's id")
    func swiftDefaultNamingID() {
        let keys = ShadowingKeys(stores: .inMemory())
        #expect(keys.identity == id(64))
        keys.identity = id(7)
        #expect(keys.identity == id(7) && keys.$identity.isStored)
    }

    @Test("a parameter named like the key's type does not hide the type its migration names")
    func parameterNamedLikeTheType() {
        let stores = ShadowingKeys.Stores.inMemory()
        let keys = ShadowingKeys(stores: stores)
        stores.name.set(PersistentKey<ShadowedTheme>("oldTheme/inbox", defaultValue: .system), to: .dark)
        let report = keys.migrateListTheme(ShadowedTheme: "inbox")
        #expect(report.migrated.map(\.fromKey) == ["oldTheme/inbox"] && report.failed.isEmpty)
        #expect(keys.listTheme(ShadowedTheme: "inbox") == .dark && keys.listTheme(ShadowedTheme: "other") == .system)
    }

    @Test("a parameter named like the catalog does not hide it in a deprecated key's migration")
    @available(*, deprecated, message: "reads a deprecated key")
    func parameterNamedLikeTheCatalog() {
        let stores = ShadowingKeys.Stores.inMemory()
        let keys = ShadowingKeys(stores: stores)
        stores.name.set(PersistentKey<Int>("oldScale/a", defaultValue: 0), to: 4)
        let report = keys.migrateScale(ShadowingKeys: "a")
        #expect(report.migrated.map(\.fromKey) == ["oldScale/a"] && report.failed.isEmpty)
        #expect(keys.scale(ShadowingKeys: "a") == 4)
    }

    @Test("a parameter named like a generic old type does not hide the type its migration reads")
    func parameterNamedLikeAGenericOldType() {
        let stores = ShadowingKeys.Stores.inMemory()
        let keys = ShadowingKeys(stores: stores)
        stores.name.set(PersistentKey<GoldenCounter<Int>>("oldCount-a", defaultValue: GoldenCounter(value: 0)), to: GoldenCounter(value: 5))
        stores.name.set(PersistentKey<GoldenCounter<Int>>("olderCount-b", defaultValue: GoldenCounter(value: 0)), to: GoldenCounter(value: 6))
        let first = keys.migrateBoxCount(GoldenCounter: "a")
        #expect(first.migrated.map(\.fromKey) == ["oldCount-a"] && first.failed.isEmpty)
        let second = keys.migrateBoxCount(GoldenCounter: "b")
        #expect(second.migrated.map(\.fromKey) == ["olderCount-b"] && second.failed.isEmpty)
        #expect(keys.boxCount(GoldenCounter: "a") == 5 && keys.boxCount(GoldenCounter: "b") == 6 && keys.boxCount(GoldenCounter: "c") == 0)
    }

    @Test("the table uses the declared stores")
    func entries() {
        let keys = ShadowingKeys(stores: .inMemory())
        checkEntries(ShadowingKeys.entries, names: ["title", "pageCount", "identity", "listTheme", "scale", "boxCount"], store: { keys.stores[$0] })
    }
}
