/// One subscriber's subscription to a key's value: the core of the Combine publisher
/// (`store.publisher(for:)`), portable so that Linux tests exercise it.
///
/// Each subscriber gets its own: its own observation of the store, its own demand; cancelling it
/// ends only that subscriber's stream. Nothing is read or observed before the first request. The
/// first value delivered is the key's value at that moment, then each change. While the subscriber
/// has no demand, changes are coalesced: when demand arrives it gets the latest value only.
/// Deliveries never overlap, and `receive` may call ``request(_:)`` or ``cancel()``.
///
/// ```swift
/// let subscription = _PersistentValueSubscription(key: .launchCount, store: store) { count in
///     print(count)
///     return .max(1)      // more demand, as Combine's `Subscriber.receive(_:)` returns
/// }
/// subscription.request(.max(1))   // delivers the current value
/// ```
///
/// The underscore: the machinery of the Combine adapter, public for tests.
public final class _PersistentValueSubscription<Key: PersistentKeyProtocol>: Sendable {
    /// Delivers a value to the subscriber; returns the demand it adds.
    public typealias Receive = @Sendable (Key.Value) -> _SubscriptionDemand

    private enum Phase {
        /// Not requested yet.
        case idle
        /// Registering the observation; changes posted now are covered by the current value read next.
        case starting
        case running
    }

    private struct State {
        /// `nil` once cancelled: the subscriber is released.
        var receive: Receive?
        var phase = Phase.idle
        var demand = _SubscriptionDemand.none
        /// The value waiting for demand; only the latest is kept.
        var pending: Key.Value?
        var isDelivering = false
        var observation: PersistentKeyObservation?
    }

    private let key: Key
    private let store: AnyPersistentKeyValueStore
    private let state: _Locked<State>

    /// A subscription that delivers `key`'s value in `store` to `receive`, once requested.
    public init(key: Key, store: some PersistentKeyValueStore, receive: @escaping Receive) {
        self.key = key
        self.store = AnyPersistentKeyValueStore(store)
        state = _Locked(State(receive: receive))
    }

    /// Adds `demand` (requesting none does nothing); the first request starts observing and
    /// delivers the current value.
    public func request(_ demand: _SubscriptionDemand) {
        guard demand != .none else { return }
        let shouldStart = state.withLock { state in
            guard state.receive != nil else { return false }
            state.demand = state.demand + demand
            guard case .idle = state.phase else { return false }
            state.phase = .starting
            return true
        }
        if shouldStart { start() }
        deliverPending()
    }

    /// Ends this subscription: no more values, the observation ends and the subscriber is released.
    /// Calling it again does nothing.
    public func cancel() {
        let observation = state.withLock { state in
            defer {
                state.receive = nil
                state.observation = nil
                state.pending = nil
            }
            return state.observation
        }
        observation?.cancel()
    }

    private func start() {
        let observation = store.observe(key) { [weak self] value in
            self?.enqueue(value)
        }
        // A read may report a failure, and the handler may write this key, which delivers here.
        let isCancelled = _HeldCallbacks.holding {
            state.withLock { state in
                guard state.receive != nil else { return true }
                state.observation = observation
                // Read under the lock: a change posted after this read replaces the value; one posted
                // before it was dropped (phase `starting`) but is what this read sees.
                state.pending = store.get(key)
                state.phase = .running
                return false
            }
        }
        if isCancelled { observation.cancel() }
    }

    private func enqueue(_ value: Key.Value) {
        let isRunning = state.withLock { state in
            guard case .running = state.phase, state.receive != nil else { return false }
            state.pending = value
            return true
        }
        if isRunning { deliverPending() }
    }

    /// Delivers the pending value while there is demand, one delivery at a time, never holding the lock.
    private func deliverPending() {
        while true {
            let next: (receive: Receive, value: Key.Value)? = state.withLock { state in
                guard !state.isDelivering, state.demand != .none, let receive = state.receive, let value = state.pending
                else { return nil }
                state.pending = nil
                state.demand = state.demand.decremented()
                state.isDelivering = true
                return (receive, value)
            }
            guard let next else { return }
            let more = next.receive(next.value)
            state.withLock { state in
                state.isDelivering = false
                state.demand = state.demand + more
            }
        }
    }
}

/// How many more values a subscriber wants: a number, or unlimited. The portable form of Combine's
/// `Subscribers.Demand`, which converts through ``max``.
///
/// ```swift
/// let demand = _SubscriptionDemand(max: combineDemand.max)
/// ```
///
/// The underscore: the machinery of the Combine adapter, public for tests.
public struct _SubscriptionDemand: Sendable, Hashable, CustomStringConvertible {
    /// The number of values wanted; `nil` when unlimited.
    public let max: Int?

    /// A demand for at most `max` values (negative counts as none), or unlimited when `max` is `nil`.
    public init(max: Int?) {
        self.max = max.map { Swift.max($0, 0) }
    }

    public static let unlimited = _SubscriptionDemand(max: nil)
    public static let none = _SubscriptionDemand(max: 0)

    /// A demand for at most `count` values.
    public static func max(_ count: Int) -> _SubscriptionDemand {
        _SubscriptionDemand(max: count)
    }

    /// The sum; unlimited if either is, or if the sum overflows.
    public static func + (lhs: _SubscriptionDemand, rhs: _SubscriptionDemand) -> _SubscriptionDemand {
        guard let left = lhs.max, let right = rhs.max else { return .unlimited }
        let (sum, overflow) = left.addingReportingOverflow(right)
        return overflow ? .unlimited : .max(sum)
    }

    /// One value fewer; unlimited stays unlimited.
    func decremented() -> _SubscriptionDemand {
        max.map { .max($0 - 1) } ?? .unlimited
    }

    public var description: String {
        max.map { "max(\($0))" } ?? "unlimited"
    }
}
