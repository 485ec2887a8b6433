#if canImport(Combine)
import Combine

extension PersistentKeyValueStore {
    /// The key's current value, then its value after each change, as a Combine publisher.
    ///
    /// ```swift
    /// UserDefaults.standard.publisher(for: .launchCount).sink { print($0) }
    /// ```
    ///
    /// Each subscriber gets a subscription of its own (see ``_PersistentValueSubscription``): it
    /// starts at the subscriber's first request with the value current then, honours its demand
    /// (changes made while it has none are coalesced to the latest), and cancelling it ends only
    /// that subscriber's stream.
    ///
    /// Values arrive on the thread of the change: another process's write, iCloud's changes and
    /// writes made off the main thread arrive on background threads. Before assigning to
    /// `@Published` state or driving a view, hop to the main thread:
    ///
    /// ```swift
    /// store.publisher(for: .theme).receive(on: DispatchQueue.main).assign(to: &$theme)
    /// ```
    public func publisher<Key: PersistentKeyProtocol>(for key: Key) -> AnyPublisher<Key.Value, Never> {
        PersistentValuePublisher(key: key, store: AnyPersistentKeyValueStore(self)).eraseToAnyPublisher()
    }
}

/// The publisher behind ``PersistentKeyValueStore/publisher(for:)``.
private struct PersistentValuePublisher<Key: PersistentKeyProtocol>: Publisher {
    typealias Output = Key.Value
    typealias Failure = Never

    let key: Key
    let store: AnyPersistentKeyValueStore

    func receive<S: Subscriber>(subscriber: S) where S.Input == Key.Value, S.Failure == Never {
        subscriber.receive(subscription: PersistentValueCombineSubscription(key: key, store: store, subscriber: subscriber))
    }
}

/// One subscriber's subscription: Combine's protocol over the portable core.
private final class PersistentValueCombineSubscription<Key: PersistentKeyProtocol>: Subscription {
    let combineIdentifier = CombineIdentifier()
    private let core: _PersistentValueSubscription<Key>

    init<S: Subscriber>(key: Key, store: AnyPersistentKeyValueStore, subscriber: S) where S.Input == Key.Value, S.Failure == Never {
        // Combine calls a subscriber from whichever thread produces the value; the core never
        // calls it twice at once. (A plain function, so that the closure captures no metatype.)
        let receive = _UncheckedSendable<(Key.Value) -> Subscribers.Demand>(subscriber.receive(_:))
        core = _PersistentValueSubscription(key: key, store: store) { value in
            _SubscriptionDemand(max: receive.value(value).max)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        core.request(_SubscriptionDemand(max: demand.max))
    }

    func cancel() {
        core.cancel()
    }
}
#endif
