import Foundation

/// What every ``KeychainKeyValueStore`` on one backend and service shares in this process: a
/// change center and registered defaults per access group, and the cache of read items.
///
/// The cache is keyed by account, then access group. A write to an account through one group
/// drops the cached copies of that account in every other group: a search without a group reaches
/// items of every group, and an update without one may change an item of any group.
final class KeychainServiceState: Sendable {
    /// A read item: its value, or known absent.
    enum CachedItem: Sendable {
        case stored(PropertyListValue)
        case absent
    }

    private struct Contents {
        var changeCenters: [String?: KeyValueChangeCenter] = [:]
        var registered: [String?: [String: PropertyListValue]] = [:]
        var cache: [String: [String?: CachedItem]] = [:]
        /// Bumped by every write and by ``discardCache()``: a read that started before keeps its
        /// result out of the cache, since the keychain may have changed under it.
        var generation = 0
    }

    private struct Identity: Hashable {
        var backend: ObjectIdentifier
        var service: String
    }

    private let contents = _Locked(Contents())
    /// Serializes writes, so that the cache ends up holding the value of the write that reached the
    /// keychain last.
    private let writeLock = NSLock()
    /// Holds the backend, so that its identifier stays unique while this state exists.
    let backend: any KeychainBackend

    private static let states = _Locked<[Identity: KeychainServiceState]>([:])

    private init(backend: any KeychainBackend) {
        self.backend = backend
    }

    /// The state of `service` on `backend`, made on first use.
    static func shared(backend: any KeychainBackend, service: String) -> KeychainServiceState {
        states.withLock { states in
            let identity = Identity(backend: ObjectIdentifier(backend), service: service)
            if let state = states[identity] { return state }
            let state = KeychainServiceState(backend: backend)
            states[identity] = state
            return state
        }
    }

    func changeCenter(accessGroup: String?) -> KeyValueChangeCenter {
        contents.withLock { contents in
            if let center = contents.changeCenters[accessGroup] { return center }
            let center = KeyValueChangeCenter()
            contents.changeCenters[accessGroup] = center
            return center
        }
    }

    /// The change centers of the other access groups whose stores see a write through
    /// `accessGroup`: for a write without a group, every other group's (an update without one
    /// changes an item of any group, and an add may go to any group the app is in); for a write
    /// through a group, that of the stores without one (their searches reach every group's items).
    func centersSeeingWrites(through accessGroup: String?) -> [(accessGroup: String?, center: KeyValueChangeCenter)] {
        contents.withLock { contents in
            contents.changeCenters.compactMap { group, center in
                group != accessGroup && (accessGroup == nil || group == nil) ? (group, center) : nil
            }
        }
    }

    func register(_ values: [String: PropertyListValue], accessGroup: String?) {
        contents.withLock { $0.registered[accessGroup, default: [:]].merge(values) { _, new in new } }
    }

    func registeredValue(forKey key: String, accessGroup: String?) -> PropertyListValue? {
        contents.withLock { $0.registered[accessGroup]?[key] }
    }

    /// The cached item, if any, and the generation a read that fills the cache must present.
    func cachedItem(account: String, accessGroup: String?) -> (item: CachedItem?, generation: Int) {
        contents.withLock { ($0.cache[account]?[accessGroup], $0.generation) }
    }

    /// Caches what a read found, unless a write happened since the read began.
    func cache(_ item: CachedItem, account: String, accessGroup: String?, readAt generation: Int) {
        contents.withLock { contents in
            guard contents.generation == generation else { return }
            contents.cache[account, default: [:]][accessGroup] = item
        }
    }

    /// Runs a write, then caches its outcome: `item` when it succeeded; nothing (the next read asks
    /// the keychain) when it threw.
    func write(account: String, accessGroup: String?, leaving item: CachedItem, _ body: () throws -> Void) throws {
        try writeLock.withLock {
            do {
                try body()
            } catch {
                contents.withLock { contents in
                    contents.generation += 1
                    contents.cache[account] = nil
                }
                throw error
            }
            contents.withLock { contents in
                contents.generation += 1
                contents.cache[account] = [accessGroup: item]
            }
        }
    }

    func discardCache() {
        contents.withLock { contents in
            contents.generation += 1
            contents.cache = [:]
        }
    }
}
