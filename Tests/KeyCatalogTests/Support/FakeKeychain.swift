import Foundation
import KeyCatalog

/// A keychain in memory that matches items like the real one (by service, account and access
/// group; a search without a group or class matches any) and can be told to answer any status.
final class FakeKeychain: KeychainBackend, @unchecked Sendable {
    enum Operation: String, Sendable {
        case copy, add, update, delete
    }

    struct Call: Sendable, Equatable {
        var operation: Operation
        var query: KeychainItemQuery
        /// The class an update sets.
        var accessibility: KeychainAccessibility?
    }

    struct Item: Sendable, Equatable {
        var data: Data
        var accessibility: KeychainAccessibility
    }

    struct ItemID: Hashable, Sendable {
        var service: String
        var account: String
        var accessGroup: String
    }

    /// The group an item added without one lands in.
    static let defaultGroup = "TEAMID.com.example.app"

    private let lock = NSLock()
    private var storedItems: [ItemID: Item] = [:]
    private var recordedCalls: [Call] = []
    private var forced: [Operation: [Int32]] = [:]
    private var beforeAdd: [@Sendable () -> Void] = []

    var items: [ItemID: Item] { lock.withLock { storedItems } }
    var calls: [Call] { lock.withLock { recordedCalls } }

    /// The next `operation` call answers `status` and does nothing.
    func force(_ status: Int32, on operation: Operation) {
        lock.withLock { forced[operation, default: []].append(status) }
    }

    /// Runs `body` just before the next add, like another process writing between two calls.
    func beforeNextAdd(_ body: @escaping @Sendable () -> Void) {
        lock.withLock { beforeAdd.append(body) }
    }

    /// Writes an item directly, as another process would.
    func put(_ value: PropertyListValue, service: String, account: String, accessGroup: String = defaultGroup, accessibility: KeychainAccessibility = .afterFirstUnlock) {
        let data = try! KeychainItemCoding.data(for: value)
        lock.withLock { storedItems[ItemID(service: service, account: account, accessGroup: accessGroup)] = Item(data: data, accessibility: accessibility) }
    }

    func putRaw(_ data: Data, service: String, account: String) {
        lock.withLock {
            storedItems[ItemID(service: service, account: account, accessGroup: Self.defaultGroup)] = Item(data: data, accessibility: .afterFirstUnlock)
        }
    }

    func clearCalls() {
        lock.withLock { recordedCalls = [] }
    }

    private func begin(_ operation: Operation, _ query: KeychainItemQuery, accessibility: KeychainAccessibility? = nil) -> Int32? {
        lock.withLock {
            recordedCalls.append(Call(operation: operation, query: query, accessibility: accessibility))
            guard let status = forced[operation]?.first else { return nil }
            forced[operation]?.removeFirst()
            return status
        }
    }

    private func matches(_ query: KeychainItemQuery) -> [ItemID] {
        storedItems.filter { id, item in
            id.service == query.service && id.account == query.account
                && (query.accessGroup == nil || query.accessGroup == id.accessGroup)
                && (query.accessibility == nil || query.accessibility == item.accessibility)
        }
        .keys.sorted { $0.accessGroup < $1.accessGroup }
    }

    func copyData(matching query: KeychainItemQuery) -> (status: Int32, data: Data?) {
        if let status = begin(.copy, query) { return (status, nil) }
        return lock.withLock {
            guard let id = matches(query).first else { return (KeychainStatus.itemNotFound, nil) }
            return (KeychainStatus.success, storedItems[id]!.data)
        }
    }

    func add(_ query: KeychainItemQuery, data: Data) -> Int32 {
        if let status = begin(.add, query) { return status }
        let hook = lock.withLock { beforeAdd.isEmpty ? nil : beforeAdd.removeFirst() }
        hook?()
        return lock.withLock {
            let id = ItemID(service: query.service, account: query.account, accessGroup: query.accessGroup ?? Self.defaultGroup)
            guard storedItems[id] == nil else { return KeychainStatus.duplicateItem }
            storedItems[id] = Item(data: data, accessibility: query.accessibility ?? .afterFirstUnlock)
            return KeychainStatus.success
        }
    }

    func update(matching query: KeychainItemQuery, data: Data, accessibility: KeychainAccessibility) -> Int32 {
        if let status = begin(.update, query, accessibility: accessibility) { return status }
        return lock.withLock {
            let ids = matches(query)
            guard !ids.isEmpty else { return KeychainStatus.itemNotFound }
            for id in ids { storedItems[id] = Item(data: data, accessibility: accessibility) }
            return KeychainStatus.success
        }
    }

    func delete(matching query: KeychainItemQuery) -> Int32 {
        if let status = begin(.delete, query) { return status }
        return lock.withLock {
            let ids = matches(query)
            guard !ids.isEmpty else { return KeychainStatus.itemNotFound }
            for id in ids { storedItems[id] = nil }
            return KeychainStatus.success
        }
    }

    func message(for status: Int32) -> String? {
        status == -50 ? "One or more parameters passed to a function were not valid." : nil
    }
}
