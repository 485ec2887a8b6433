import Foundation
import KeyCatalog
import Testing

/// The `stores` golden: every store kind, a `defaultStore`, `package` access, and declared
/// migrations.
@Suite("Generated catalog: stores")
struct StoreCatalogTests {
    @Test("each key lives in its declared store, and only there")
    func separation() {
        let stores = StoreKeys.Stores.inMemory()
        let keys = StoreKeys(stores: stores)
        keys.sharedCounter = 1
        keys.standardFlag = true
        keys.cloudNote = "note"
        keys.sessionToken = "t1"
        keys.groupToken = "t2"
        keys.fileVolume = 0.1
        keys.scratchItems = ["a"]
        let document = UUID()
        keys.setPerDocumentFlag(false, id: document)

        #expect(stores.shared.get(keys.$sharedCounter.key) == 1 && !stores.standard.contains(keys.$sharedCounter.key), "defaultStore is 'shared'")
        #expect(stores.standard.get(keys.$standardFlag.key) && !stores.shared.contains(keys.$standardFlag.key))
        #expect(stores.cloud.get(keys.$cloudNote.key) == "note")
        #expect(stores.secrets.get(keys.$sessionToken.key) == "t1" && stores.groupSecrets.get(keys.$groupToken.key) == "t2")
        #expect(stores.settingsFile.get(keys.$fileVolume.key) == 0.1 && stores.scratch.get(keys.$scratchItems.key) == ["a"])
        #expect(!stores.settingsFile.get(keys.perDocumentFlagKey(id: document).key) && keys.perDocumentFlag(id: UUID()))
        let bound: [(String, AnyPersistentKeyValueStore)] = [
            (keys.$sharedCounter.storeName, keys.$sharedCounter.store), (keys.$standardFlag.storeName, keys.$standardFlag.store),
            (keys.$cloudNote.storeName, keys.$cloudNote.store), (keys.$sessionToken.storeName, keys.$sessionToken.store),
            (keys.$groupToken.storeName, keys.$groupToken.store), (keys.$fileVolume.storeName, keys.$fileVolume.store),
            (keys.$scratchItems.storeName, keys.$scratchItems.store),
            (keys.perDocumentFlagKey(id: document).storeName, keys.perDocumentFlagKey(id: document).store),
        ]
        #expect(bound.map(\.0) == ["shared", "standard", "cloud", "secrets", "groupSecrets", "settingsFile", "scratch", "settingsFile"])
        #expect(bound.allSatisfy { stores[$0.0] === $0.1 }, "every key is bound to its declared store")
        for store in ["standard", "shared", "cloud", "secrets", "groupSecrets", "settingsFile", "scratch"] {
            #expect(stores[store] != nil, "\(store)")
        }
    }

    @Test("every key round-trips on real UserDefaults suites")
    func userDefaults() {
        let suites = (0..<7).map { TemporarySuite("stores\($0)") }
        let keys = StoreKeys(
            stores: .init(
                standard: suites[0].store, shared: suites[1].store, cloud: suites[2].store, secrets: suites[3].store,
                groupSecrets: suites[4].store, settingsFile: suites[5].store, scratch: suites[6].store
            ))
        checkRoundTrip("sharedCounter", get: { keys.sharedCounter }, set: { keys.sharedCounter = $0 }, default: 0, sample: 5)
        checkRoundTrip("standardFlag", get: { keys.standardFlag }, set: { keys.standardFlag = $0 }, default: false, sample: true)
        checkRoundTrip("cloudNote", get: { keys.cloudNote }, set: { keys.cloudNote = $0 }, default: "", sample: "x")
        checkRoundTrip("sessionToken", get: { keys.sessionToken }, set: { keys.sessionToken = $0 }, default: nil, sample: "s")
        checkRoundTrip("groupToken", get: { keys.groupToken }, set: { keys.groupToken = $0 }, default: nil, sample: "g")
        checkRoundTrip("fileVolume", get: { keys.fileVolume }, set: { keys.fileVolume = $0 }, default: 0.8, sample: 0.3)
        checkRoundTrip("scratchItems", get: { keys.scratchItems }, set: { keys.scratchItems = $0 }, default: [], sample: ["b"])
        #expect(suites[1].defaults.integer(forKey: "sharedCounter") == 5)
        #expect(suites[0].defaults.object(forKey: "sharedCounter") == nil)
        keys.reset()
        #expect(keys.sharedCounter == 0 && keys.sessionToken == nil && keys.scratchItems == [])
        // The suites live to the end: in an optimized build their last use above would end them,
        // and their deinit would remove each suite while later writes still go to it.
        withExtendedLifetime(suites) {}
    }

    @Test("register(in:) takes the UserDefaults-backed keys, register() every key in its store")
    func registration() async {
        // UserDefaults' registration domain is one per process, shared by every suite: the golden's
        // fixed storage keys registered here would be read by every other test's suite. So this
        // runs in a child process of its own.
        await #expect(processExitsWith: .success) {
            let suites = (0..<7).map { TemporarySuite("registration\($0)") }
            let keys = StoreKeys(
                stores: .init(
                    standard: suites[0].store, shared: suites[1].store, cloud: suites[2].store, secrets: suites[3].store,
                    groupSecrets: suites[4].store, settingsFile: suites[5].store, scratch: suites[6].store
                ))
            StoreKeys.register(in: suites[6].defaults)
            #expect(suites[6].defaults.object(forKey: "standardFlag") as? Bool == false, "register(in:) takes the UserDefaults-backed keys")
            #expect(suites[6].defaults.object(forKey: "cloudNote") == nil, "…and not the others")
            keys.register()
            #expect(suites[6].defaults.object(forKey: "cloudNote") as? String == "", "register() registers every key in its store")
            withExtendedLifetime(suites) {}
        }
    }

    /// In a child process whose home folder is its own: live stores are `.standard`, the process's
    /// one iCloud stand-in, and files in the home folder.
    @Test("live stores open what the manifest describes")
    func live() async {
        await #expect(processExitsWith: .success) {
            let home = try useTemporaryHome()
            defer { try? FileManager.default.removeItem(at: home) }
            let (stores, failures) = recordFailures { StoreKeys.Stores.live }
            #expect(stores.standard.base as? UserDefaults === UserDefaults.standard)
            #expect(stores.shared.base is UserDefaults)
            #expect(stores.scratch.base is InMemoryKeyValueStore)
            let file = try #require(stores.settingsFile.base as? FileKeyValueStore)
            #expect(file.url.path.hasSuffix("/KeyCatalogGoldens/settings.plist"))
            #if os(Linux)
            #expect(stores.cloud.base is UbiquitousKeyValueStore, "no iCloud on Linux: an in-memory stand-in keeping iCloud's limits")
            // The process's first opening reports that iCloud is unavailable, and that the
            // stand-in's launch synchronize() is false.
            #expect(failures.count == 2, "\(failures)")
            #expect(failures.allSatisfy { $0.message.contains("iCloud") }, "\(failures)")
            #expect(file.url.path.hasPrefix(home.path + "/"), "in the home folder: \(file.url.path)")
            let secrets = try #require(stores.secrets.base as? FileKeyValueStore)
            #expect(secrets.url.path == home.path + "/.local/share/keycatalog/keychain/com.example.keycatalog.goldens.plist")
            let groupSecrets = try #require(stores.groupSecrets.base as? FileKeyValueStore, "no keychain on Linux: group and class are ignored")
            #expect(groupSecrets.url.lastPathComponent == "com.example.keycatalog.goldens.group.plist")
            #else
            _ = failures
            let secrets = try #require(stores.secrets.base as? KeychainKeyValueStore)
            #expect(secrets.service == "com.example.keycatalog.goldens" && secrets.accessGroup == nil && secrets.accessibility == .afterFirstUnlock)
            let groupSecrets = try #require(stores.groupSecrets.base as? KeychainKeyValueStore)
            #expect(groupSecrets.accessGroup == "TEAMID.com.example.shared" && groupSecrets.accessibility == .afterFirstUnlockThisDeviceOnly)
            #endif
            #expect(StoreKeys.Stores.live.secrets.keyValueChanges === stores.secrets.keyValueChanges, "two catalogs see each other's writes")
        }
    }

    @Test("entries name their stores; secrets are marked")
    func entries() {
        let keys = StoreKeys(stores: .inMemory())
        checkEntries(
            StoreKeys.entries,
            names: ["sharedCounter", "standardFlag", "cloudNote", "sessionToken", "groupToken", "fileVolume", "scratchItems", "perDocumentFlag"],
            store: { keys.stores[$0] }
        )
        #expect(StoreKeys.entries.map(\.store) == ["shared", "standard", "cloud", "secrets", "groupSecrets", "settingsFile", "scratch", "settingsFile"])
        #expect(StoreKeys.entries.filter { $0.isSecret }.map(\.name) == ["sessionToken", "groupToken"])
    }
}
