// The core of the Combine publisher: one subscription per subscriber, on a real UserDefaults suite.
import Foundation
import KeyCatalog
import Testing

@Suite("_PersistentValueSubscription (the core of publisher(for:))")
struct PersistentValueSubscriptionTests {
    static let count = PersistentKey<Int>("Count", defaultValue: 0)

    let suite = TemporarySuite()
    /// The suite as `UserDefaults(suiteName:)` makes it: no file watch, whose deliveries could
    /// coalesce the exact sequences these tests check (see `StoreKind.makeFixture`).
    var defaults: UserDefaults { instance.defaults }
    private let instance: UnopenedSuiteInstance

    init() {
        instance = UnopenedSuiteInstance(suite)
    }

    /// A subscriber that records what it receives and returns a fixed additional demand.
    final class Subscriber: Sendable {
        let received = Locked<[Int]>([])
        let additionalDemand: _SubscriptionDemand

        init(additionalDemand: _SubscriptionDemand = .none) {
            self.additionalDemand = additionalDemand
        }

        func subscribe(to key: PersistentKey<Int>, in store: some PersistentKeyValueStore) -> _PersistentValueSubscription<PersistentKey<Int>> {
            _PersistentValueSubscription(key: key, store: store) { value in
                self.received.append(value)
                return self.additionalDemand
            }
        }
    }

    @Test func nothingBeforeTheFirstRequestThenTheCurrentValueThenEachChange() {
        defaults.set(Self.count, to: 1)
        let subscriber = Subscriber()
        let subscription = subscriber.subscribe(to: Self.count, in: defaults)
        defaults.set(Self.count, to: 2)
        #expect(subscriber.received.current.isEmpty)
        #expect(!defaults.keyValueChanges.hasObservers(forKey: "Count"), "nothing observed before a request")

        subscription.request(.unlimited)
        #expect(subscriber.received.current == [2], "the value current at the first request")
        defaults.set(Self.count, to: 3)
        defaults.remove(Self.count)
        #expect(subscriber.received.current == [2, 3, 0])
        subscription.cancel()
    }

    @Test func cancellingOneSubscriberLeavesTheOtherReceiving() {
        let first = Subscriber()
        let second = Subscriber()
        let firstSubscription = first.subscribe(to: Self.count, in: defaults)
        let secondSubscription = second.subscribe(to: Self.count, in: defaults)
        firstSubscription.request(.unlimited)
        secondSubscription.request(.unlimited)
        defaults.set(Self.count, to: 1)

        firstSubscription.cancel()
        defaults.set(Self.count, to: 2)
        defaults.set(Self.count, to: 3)
        #expect(first.received.current == [0, 1])
        #expect(second.received.current == [0, 1, 2, 3])

        firstSubscription.cancel()
        secondSubscription.cancel()
        defaults.set(Self.count, to: 4)
        #expect(second.received.current == [0, 1, 2, 3])
        #expect(!defaults.keyValueChanges.hasObservers(forKey: "Count"), "each subscription's observation ended")
    }

    @Test func demandIsRespectedAndChangesWithoutDemandAreCoalesced() {
        let subscriber = Subscriber()
        let subscription = subscriber.subscribe(to: Self.count, in: defaults)
        subscription.request(.max(1))
        #expect(subscriber.received.current == [0])

        defaults.set(Self.count, to: 1)
        defaults.set(Self.count, to: 2)
        #expect(subscriber.received.current == [0], "no demand, no delivery")

        subscription.request(.max(2))
        #expect(subscriber.received.current == [0, 2], "the latest value only")
        defaults.set(Self.count, to: 3)
        defaults.set(Self.count, to: 4)
        #expect(subscriber.received.current == [0, 2, 3], "one demand left, used once")
        subscription.request(.none)
        #expect(subscriber.received.current == [0, 2, 3])
        subscription.request(.max(1))
        #expect(subscriber.received.current == [0, 2, 3, 4])
        subscription.cancel()
    }

    @Test func demandReturnedByTheSubscriberIsAdded() {
        let subscriber = Subscriber(additionalDemand: .max(1))
        let subscription = subscriber.subscribe(to: Self.count, in: defaults)
        subscription.request(.max(1))
        for value in 1...5 {
            defaults.set(Self.count, to: value)
        }
        #expect(subscriber.received.current == [0, 1, 2, 3, 4, 5], "each delivery asks for one more")
        subscription.cancel()
    }

    @Test func aSubscriberMayCancelFromItsOwnDelivery() {
        let received = Locked<[Int]>([])
        let box = Locked<_PersistentValueSubscription<PersistentKey<Int>>?>(nil)
        let subscription = _PersistentValueSubscription(key: Self.count, store: defaults) { value in
            received.append(value)
            if value == 2 { box.current?.cancel() }
            return .none
        }
        box.withLock { $0 = subscription }
        subscription.request(.unlimited)
        for value in 1...4 {
            defaults.set(Self.count, to: value)
        }
        #expect(received.current == [0, 1, 2])
        #expect(!defaults.keyValueChanges.hasObservers(forKey: "Count"))
    }

    @Test func concurrentChangesAreDeliveredOneAtATimeEndingWithTheLatest() async {
        let inFlight = Locked(0)
        let overlapped = Flag()
        let received = Locked<[Int]>([])
        let subscription = _PersistentValueSubscription(key: Self.count, store: defaults) { value in
            if inFlight.withLock({
                $0 += 1; return $0
            }) > 1 {
                overlapped.set()
            }
            received.append(value)
            inFlight.withLock { $0 -= 1 }
            return .none
        }
        subscription.request(.unlimited)
        let store = AnyPersistentKeyValueStore(defaults)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for step in 1...50 { store.set(Self.count, to: writer * 1000 + step) }
                }
            }
        }
        store.set(Self.count, to: -1)
        #expect(!overlapped.isSet)
        #expect(received.current.last == -1)
        subscription.cancel()
    }

    @Test func demandArithmetic() {
        #expect(_SubscriptionDemand.max(2) + .max(3) == .max(5))
        #expect(_SubscriptionDemand.max(2) + .unlimited == .unlimited)
        #expect(_SubscriptionDemand.max(Int.max) + .max(1) == .unlimited)
        #expect(_SubscriptionDemand(max: -3) == .none)
        #expect(_SubscriptionDemand(max: nil).description == "unlimited")
    }
}
