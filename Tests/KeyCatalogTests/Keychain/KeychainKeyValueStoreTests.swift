// The keychain store's logic, on a fake backend that answers any status: everything but the
// SecItem calls themselves, which exist only on Apple platforms.
import Foundation
import KeyCatalog
import Testing

private let service = "com.example.keycatalog.tests"
private let token = PersistentKey<String?>("token", defaultValue: nil)
private let count = PersistentKey<Int>("count", defaultValue: 7)

@Suite("KeychainKeyValueStore: reads")
struct KeychainReadTests {
    /// A status the keychain answers a read with: what the read gives, and the report it makes.
    struct ReadCase: Sendable, CustomTestStringConvertible {
        var status: Int32
        var reported: [String]
        var testDescription: String { KeychainStatus.name(of: status) ?? "status \(status)" }
    }

    @Test(arguments: [
        ReadCase(
            status: KeychainStatus.interactionNotAllowed,
            reported: [
                "SecItemCopyMatching returned errSecInteractionNotAllowed, -25308: the keychain cannot be read or written now: "
                    + "the device is locked (not yet unlocked since it restarted, or the item is accessible only while unlocked); "
                    + "default used, the stored item is kept"
            ]),
        ReadCase(
            status: KeychainStatus.missingEntitlement,
            reported: [
                "SecItemCopyMatching returned errSecMissingEntitlement, -34018: the app lacks the keychain entitlement: sign it "
                    + "with one, and list the access group in its keychain-access-groups; default used, the stored item is kept"
            ]),
        ReadCase(
            status: -50,
            reported: [
                "SecItemCopyMatching returned -50: One or more parameters passed to a function were not valid.; "
                    + "default used, the stored item is kept"
            ]),
        ReadCase(status: -25243, reported: ["SecItemCopyMatching returned -25243: unexpected status; default used, the stored item is kept"]),
    ])
    func aRefusedReadGivesTheDefaultAndIsReported(_ readCase: ReadCase) {
        let keychain = FakeKeychain()
        keychain.put(.int(42), service: service, account: "count")
        let store = KeychainKeyValueStore(service: service, backend: keychain)
        keychain.force(readCase.status, on: .copy)
        let recorder = FailureRecorder()
        let value = recorder.record { store.get(count) }
        #expect(value == 7)
        #expect(recorder.failures.map(\.message) == readCase.reported)
        #expect(recorder.failures.allSatisfy { $0.operation == .read && $0.key == "count" && $0.store == "keychain (service \"\(service)\")" })
        // Not cached: once the keychain answers, the stored value is read.
        #expect(recorder.record { store.get(count) } == 42)
        #expect(recorder.failures.count == 1)
    }

    @Test func aStoredItemIsReadAndAMissingOneIsTheDefaultWithoutReport() {
        let keychain = FakeKeychain()
        keychain.put(.int(3), service: service, account: "count")
        let store = KeychainKeyValueStore(service: service, backend: keychain)
        let recorder = FailureRecorder()
        recorder.record {
            #expect(store.get(count) == 3)
            #expect(store.contains(count))
            #expect(store.get(token) == nil)
            #expect(!store.contains(token))
        }
        #expect(recorder.failures.isEmpty)
    }

    @Test func aLockedDeviceReadGivesTheRegisteredDefaultAndIsReported() {
        let keychain = FakeKeychain()
        keychain.put(.string("signed-in"), service: service, account: "token")
        let store = KeychainKeyValueStore(service: service, backend: keychain)
        store.registerPersistentValues(["token": .string("registered")])
        keychain.force(KeychainStatus.interactionNotAllowed, on: .copy)
        keychain.force(KeychainStatus.interactionNotAllowed, on: .copy)
        let recorder = FailureRecorder()
        recorder.record {
            #expect(store.get(token) == "registered", "the registered default, never a silent 'signed out'")
            #expect(!store.contains(token))
        }
        #expect(recorder.failures.count == 2)
        #expect(recorder.failures.allSatisfy { $0.message.contains("errSecInteractionNotAllowed") && $0.message.contains("locked") })
        #expect(store.get(token) == "signed-in", "after unlock")
    }

    /// An item other code wrote (KeychainAccess, SAMKeychain: a password as its bytes) reads as
    /// those bytes: a `String` key reports it and reads its default, leaving the item.
    @Test func bytesThatAreNoItemAreReportedAndGiveTheDefault() {
        let keychain = FakeKeychain()
        keychain.putRaw(Data("plain password".utf8), service: service, account: "token")
        let store = KeychainKeyValueStore(service: service, backend: keychain)
        let recorder = FailureRecorder()
        recorder.record {
            #expect(store.get(token) == nil)
            #expect(store.contains(token), "there is an item, of other bytes")
        }
        #expect(recorder.failures.count == 1)
        #expect(recorder.failures.first?.message.hasPrefix("stored value ignored, default used: ") == true)
        #expect(recorder.failures.first?.operation == .read)
        #expect(keychain.items.values.map(\.data) == [Data("plain password".utf8)], "left as it was")
    }

    @Test func bytesThatAreNoItemReadThroughADataKey() {
        let keychain = FakeKeychain()
        keychain.putRaw(Data("plain password".utf8), service: service, account: "token")
        let store = KeychainKeyValueStore(service: service, backend: keychain)
        let recorder = FailureRecorder()
        recorder.record {
            #expect(store.get(PersistentKey<Data?>("token", defaultValue: nil)) == Data("plain password".utf8))
        }
        #expect(recorder.failures.isEmpty)
    }

    /// A binary property list that is no KeyCatalog item (a damaged one) is not taken for another
    /// library's bytes: reported, the default read, the item left.
    @Test func aDamagedItemIsNotTakenForBytes() {
        let keychain = FakeKeychain()
        let damaged = Data("bplist00".utf8) + Data(repeating: 0xFF, count: 12)
        keychain.putRaw(damaged, service: service, account: "token")
        let store = KeychainKeyValueStore(service: service, backend: keychain)
        let recorder = FailureRecorder()
        recorder.record {
            #expect(store.get(PersistentKey<Data?>("token", defaultValue: nil)) == nil)
            #expect(store.contains(PersistentKey<Data?>("token", defaultValue: nil)), "there is an item, unreadable")
        }
        #expect(recorder.failures.count == 2)
        #expect(recorder.failures.allSatisfy { $0.message.contains("not a KeyCatalog item") })
        #expect(keychain.items.values.map(\.data) == [damaged])
    }

    /// The way off another keychain library: its item, bytes as they are, migrates into a key of
    /// KeyCatalog (`fromType: "Data"` and a transform in the manifest), which then stores it as
    /// its own items.
    @Test func bytesThatAreNoItemMigrateThroughATransform() {
        let keychain = FakeKeychain()
        keychain.putRaw(Data("plain password".utf8), service: "old.library", account: "password")
        let old = KeychainKeyValueStore(service: "old.library", backend: keychain)
        let secrets = KeychainKeyValueStore(service: service, backend: keychain)
        let migration = KeyMigration(
            name: "token", key: token, store: "secrets",
            sources: [
                KeyMigrationSource(fromKey: "password", store: "old", representation: Data.persistentKeyValueRepresentation) { bytes in
                    String(data: bytes, encoding: .utf8)
                }
            ])
        let report = KeyMigrator.run([migration]) { ["secrets": secrets, "old": old][$0] }
        #expect(report.entries.map(\.outcome) == [.migrated], "\(report)")
        #expect(secrets.get(token) == "plain password")
        #expect(!old.contains(PersistentKey<Data?>("password", defaultValue: nil)), "the old item is removed once moved")
    }

    @Test func registeredDefaultsAreReadButNotStored() {
        let keychain = FakeKeychain()
        let store = KeychainKeyValueStore(service: service, backend: keychain)
        store.register(count)
        #expect(store.persistentValue(forKey: "count") == .int(7))
        #expect(!store.hasPersistentValue(forKey: "count"))
        #expect(keychain.items.isEmpty)
    }
}

@Suite("KeychainKeyValueStore: writes")
struct KeychainWriteTests {
    @Test func aNewItemIsAddedWithTheStoresClassAndAnExistingOneUpdatedWithIt() throws {
        let keychain = FakeKeychain()
        let store = KeychainKeyValueStore(service: service, accessibility: .whenUnlockedThisDeviceOnly, backend: keychain)
        try store.setPersistentValue(.string("a"), forKey: "token")
        try store.setPersistentValue(.string("b"), forKey: "token")
        let search = KeychainItemQuery(service: service, account: "token")
        var added = search
        added.accessibility = .whenUnlockedThisDeviceOnly
        #expect(
            keychain.calls == [
                .init(operation: .update, query: search, accessibility: .whenUnlockedThisDeviceOnly),
                .init(operation: .add, query: added),
                .init(operation: .update, query: search, accessibility: .whenUnlockedThisDeviceOnly),
            ])
        let item = try #require(keychain.items.values.first)
        #expect(item.accessibility == .whenUnlockedThisDeviceOnly)
        #expect(try KeychainItemCoding.value(from: item.data) == .string("b"))
    }

    @Test(arguments: KeychainAccessibility.allCases)
    func anItemOfAnotherClassIsReclassedOnItsNextWrite(_ accessibility: KeychainAccessibility) throws {
        let keychain = FakeKeychain()
        let other: KeychainAccessibility = accessibility == .whenUnlocked ? .afterFirstUnlock : .whenUnlocked
        keychain.put(.string("old"), service: service, account: "token", accessibility: other)
        let store = KeychainKeyValueStore(service: service, accessibility: accessibility, backend: keychain)
        #expect(store.get(token) == "old", "a search matches whatever the class")
        store.set(token, to: "new")
        #expect(keychain.items.values.map(\.accessibility) == [accessibility])
        #expect(keychain.calls.filter { $0.operation == .add }.isEmpty)
    }

    @Test func whenAnotherWriterAddsBetweenUpdateAndAddTheItemIsUpdated() throws {
        let keychain = FakeKeychain()
        let store = KeychainKeyValueStore(service: service, accessibility: .afterFirstUnlockThisDeviceOnly, backend: keychain)
        keychain.beforeNextAdd {
            keychain.put(.string("theirs"), service: service, account: "token", accessibility: .whenUnlocked)
        }
        let recorder = FailureRecorder()
        recorder.record { store.set(token, to: "ours") }
        #expect(recorder.failures.isEmpty)
        #expect(keychain.calls.map(\.operation) == [.update, .add, .update])
        let item = try #require(keychain.items.values.first)
        #expect(try KeychainItemCoding.value(from: item.data) == .string("ours"))
        #expect(item.accessibility == .afterFirstUnlockThisDeviceOnly)
        #expect(store.get(token) == "ours")
    }

    /// A status a write's first call answers, and the error it leads to.
    struct WriteCase: Sendable, CustomTestStringConvertible {
        var operation: FakeKeychain.Operation
        var status: Int32
        var error: KeychainError
        var testDescription: String { "\(operation) answers \(KeychainStatus.name(of: status) ?? "\(status)")" }
    }

    @Test(arguments: [
        WriteCase(
            operation: .update, status: KeychainStatus.interactionNotAllowed,
            error: KeychainError(operation: "SecItemUpdate", status: KeychainStatus.interactionNotAllowed)),
        WriteCase(
            operation: .update, status: KeychainStatus.missingEntitlement,
            error: KeychainError(operation: "SecItemUpdate", status: KeychainStatus.missingEntitlement)),
        WriteCase(
            operation: .update, status: -50,
            error: KeychainError(operation: "SecItemUpdate", status: -50, systemMessage: "One or more parameters passed to a function were not valid.")),
        WriteCase(
            operation: .add, status: KeychainStatus.interactionNotAllowed,
            error: KeychainError(operation: "SecItemAdd", status: KeychainStatus.interactionNotAllowed)),
        WriteCase(
            operation: .delete, status: KeychainStatus.interactionNotAllowed,
            error: KeychainError(operation: "SecItemDelete", status: KeychainStatus.interactionNotAllowed)),
    ])
    func aRefusedWriteThrowsIsReportedByTypedWritesAndKeepsTheOldItem(_ writeCase: WriteCase) throws {
        let keychain = FakeKeychain()
        let store = KeychainKeyValueStore(service: service, backend: keychain)
        if writeCase.operation != .add {
            try store.setPersistentValue(.string("old"), forKey: "token")
        }
        keychain.force(writeCase.status, on: writeCase.operation)
        #expect(throws: writeCase.error) {
            if writeCase.operation == .delete {
                try store.removePersistentValue(forKey: "token")
            } else {
                try store.setPersistentValue(.string("new"), forKey: "token")
            }
        }
        #expect(store.get(token) == (writeCase.operation == .add ? nil : "old"))

        keychain.force(writeCase.status, on: writeCase.operation)
        let recorder = FailureRecorder()
        recorder.record {
            if writeCase.operation == .delete { store.remove(token) } else { store.set(token, to: "new") }
        }
        #expect(
            recorder.failures == [
                PersistentKeyValueFailure(
                    operation: writeCase.operation == .delete ? .remove : .write,
                    key: "token",
                    store: "keychain (service \"\(service)\")",
                    message: writeCase.error.description
                )
            ])
    }

    @Test func removingAMissingItemSucceeds() throws {
        let keychain = FakeKeychain()
        let store = KeychainKeyValueStore(service: service, backend: keychain)
        try store.removePersistentValue(forKey: "token")
        try store.setPersistentValue(.int(1), forKey: "count")
        try store.removePersistentValue(forKey: "count")
        #expect(keychain.items.isEmpty)
        #expect(store.get(count) == 7)
    }

    /// An item another process adds to a shared access group after this one found none:
    /// `contains` finds it, so "set if missing" does not overwrite it.
    @Test func anItemMissingFromASharedGroupIsLookedForAgain() throws {
        let keychain = FakeKeychain()
        let store = KeychainKeyValueStore(service: service, accessGroup: "TEAMID.shared", backend: keychain)
        #expect(!store.contains(token))
        let query = KeychainItemQuery(service: service, account: "token", accessGroup: "TEAMID.shared", accessibility: .afterFirstUnlock)
        #expect(keychain.add(query, data: try KeychainItemCoding.data(for: .string("the extension's"))) == KeychainStatus.success)
        #expect(store.contains(token))
        #expect(store.get(token) == "the extension's")
    }

    @Test func everyQueryUsesTheDataProtectionKeychainWithTheStoresServiceAndGroup() throws {
        let keychain = FakeKeychain()
        let store = KeychainKeyValueStore(service: service, accessGroup: "TEAMID.shared", backend: keychain)
        store.set(token, to: "a")
        store.set(token, to: "b")
        store.discardCachedValues()
        _ = store.get(token)
        store.discardCachedValues()
        _ = store.contains(count)
        store.remove(token)
        // The retry's update finds nothing either (the other writer deleted it again): reported.
        keychain.force(KeychainStatus.duplicateItem, on: .add)
        let recorder = FailureRecorder()
        recorder.record { store.set(count, to: 1) }
        #expect(recorder.failures.map(\.message) == ["SecItemUpdate returned errSecItemNotFound, -25300: no such item"])
        #expect(Set(keychain.calls.map(\.operation)) == [.copy, .add, .update, .delete])
        #expect(keychain.calls.allSatisfy { $0.query.usesDataProtectionKeychain })
        #expect(keychain.calls.allSatisfy { $0.query.service == service && $0.query.accessGroup == "TEAMID.shared" })
        #expect(keychain.calls.allSatisfy { ($0.query.accessibility != nil) == ($0.operation == .add) }, "a class only when adding")
    }

    @Test(arguments: [
        PropertyListValue.string("s3cr3t"), .int(-4), .bool(true), .double(2.5), .data(Data([0, 1, 255])), .date(Date(timeIntervalSince1970: 1_000)),
        .array([.string("a"), .int(1)]), .dictionary(["k": .array([])]), .uint(UInt64.max),
    ])
    func valuesRoundTripThroughTheItemsBytes(_ value: PropertyListValue) throws {
        let keychain = FakeKeychain()
        let writer = KeychainKeyValueStore(service: service, backend: keychain)
        try writer.setPersistentValue(value, forKey: "value")
        let item = try #require(keychain.items.values.first)
        #expect(try KeychainItemCoding.value(from: item.data) == value)
        writer.discardCachedValues()
        #expect(writer.persistentValue(forKey: "value") == value)
    }
}

@Suite("KeychainKeyValueStore: sharing and cache")
struct KeychainSharingTests {
    @Test func twoKeychainStoresOnOneServiceShareOneChangeCenter() {
        let keychain = FakeKeychain()
        let first = AnyPersistentKeyValueStore.keychain(service: service, backend: keychain)
        let second = AnyPersistentKeyValueStore.keychain(service: service, accessibility: .whenUnlocked, backend: keychain)
        #expect(first.keyValueChanges === second.keyValueChanges, "the class is not part of an item's identity")
        let seen = Locked<[String?]>([])
        let observation = second.observe(token) { seen.append($0) }
        first.set(token, to: "t")
        #expect(seen.current == ["t"])
        #expect(second.get(token) == "t")
        observation.cancel()

        let otherGroup = AnyPersistentKeyValueStore.keychain(service: service, accessGroup: "TEAMID.shared", backend: keychain)
        let otherService = AnyPersistentKeyValueStore.keychain(service: service + ".other", backend: keychain)
        let otherBackend = AnyPersistentKeyValueStore.keychain(service: service, backend: FakeKeychain())
        for other in [otherGroup, otherService, otherBackend] {
            #expect(other.keyValueChanges !== first.keyValueChanges)
        }
    }

    #if !canImport(Security)
    /// In a child process whose `HOME` is a folder of this test's own: the stand-in's file is
    /// in the home folder's `.local/share`, which the real one's must not be.
    @Test func withoutAKeychainTwoCallsShareTheFallbackFile() throws {
        let home = TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.url.path
        environment["XDG_DATA_HOME"] = nil
        let service = "com.example.keycatalog.tests.\(UUID().uuidString)"
        let child = try TestHelperExecutable.run(["keychain-fallback", service], environment: environment, capturingErrors: true)
        #expect(child.status == 0, "\(child.errors)")
        #expect(child.errors == "")
        let file = home.url.appendingPathComponent(".local/share/keycatalog/keychain/\(service).plist").path
        #expect(child.output == "shared true\nheard t\nread t\n\(file)\nmode 600\n")
    }
    #endif

    @Test func repeatedReadsAskTheKeychainOnceAndWritesKeepTheCacheCurrent() {
        let keychain = FakeKeychain()
        let store = KeychainKeyValueStore(service: service, backend: keychain)
        let other = KeychainKeyValueStore(service: service, accessibility: .whenUnlocked, backend: keychain)
        for _ in 0..<5 {
            #expect(store.get(count) == 7)
            #expect(!store.contains(count))
        }
        #expect(keychain.calls.map(\.operation) == [.copy])
        other.set(count, to: 8)
        #expect(store.get(count) == 8, "a write through another store of this process")
        other.remove(count)
        #expect(store.get(count) == 7)
        #expect(keychain.calls.filter { $0.operation == .copy }.count == 1)
    }

    @Test func writesByOtherProcessesAreSeenAfterDiscardingTheCache() {
        let keychain = FakeKeychain()
        let store = KeychainKeyValueStore(service: service, backend: keychain)
        #expect(store.get(token) == nil)
        keychain.put(.string("from the extension"), service: service, account: "token")
        #expect(store.get(token) == nil, "cached")
        store.discardCachedValues()
        #expect(store.get(token) == "from the extension")
    }

    @Test func aWriteThroughOneAccessGroupDropsTheOtherGroupsCachedCopy() {
        let keychain = FakeKeychain()
        let anyGroup = KeychainKeyValueStore(service: service, backend: keychain)
        let shared = KeychainKeyValueStore(service: service, accessGroup: FakeKeychain.defaultGroup, backend: keychain)
        #expect(anyGroup.get(token) == nil)
        shared.set(token, to: "shared")
        #expect(anyGroup.get(token) == "shared", "a search without a group reaches every group")
        anyGroup.set(token, to: "updated")
        #expect(shared.get(token) == "updated")
    }

    /// The stores of the groups a write reaches hear of it too (found by a review: only the
    /// writer's group did, and a view of the other kept showing the old secret).
    @Test func aWriteIsAnnouncedToTheStoresOfTheGroupsItReaches() {
        let keychain = FakeKeychain()
        let anyGroup = KeychainKeyValueStore(service: service, backend: keychain)
        let shared = KeychainKeyValueStore(service: service, accessGroup: FakeKeychain.defaultGroup, backend: keychain)
        let other = KeychainKeyValueStore(service: service, accessGroup: "TEAMID.other", backend: keychain)
        let (heardByAny, heardByShared, heardByOther) = (Locked<[String?]>([]), Locked<[String?]>([]), Locked<[String?]>([]))
        let observations = [
            anyGroup.observe(token) { heardByAny.append($0) },
            shared.observe(token) { heardByShared.append($0) },
            other.observe(token) { heardByOther.append($0) },
        ]
        shared.set(token, to: "a")
        #expect(heardByAny.current == ["a"] && heardByShared.current == ["a"], "a store without a group reads it")
        anyGroup.set(token, to: "b")
        #expect(shared.get(token) == "b")
        #expect(heardByShared.current == ["a", "b"], "the update reached the shared group's item")
        #expect(heardByOther.current.allSatisfy { $0 == nil }, "that group holds no item")
        anyGroup.remove(token)
        #expect(heardByShared.current.last == .some(nil))
        other.set(token, to: "c")
        #expect(heardByShared.current.last == .some(nil), "another group's write does not reach it")
        for observation in observations { observation.cancel() }
    }

    @Test func aFailedWriteLeavesNothingCached() {
        let keychain = FakeKeychain()
        let store = KeychainKeyValueStore(service: service, backend: keychain)
        store.set(count, to: 1)
        keychain.force(-50, on: .update)
        let recorder = FailureRecorder()
        recorder.record { store.set(count, to: 2) }
        #expect(recorder.failures.count == 1)
        keychain.clearCalls()
        #expect(store.get(count) == 1)
        #expect(keychain.calls.map(\.operation) == [.copy], "asked again after the failure")
    }

    @Test func concurrentWritesLeaveTheCacheAsTheKeychain() async {
        let keychain = FakeKeychain()
        let store = KeychainKeyValueStore(service: service, backend: keychain)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { store.set(count, to: index) }
                group.addTask { _ = store.get(count) }
            }
        }
        let cached = store.get(count)
        store.discardCachedValues()
        #expect(store.get(count) == cached)
    }
}
