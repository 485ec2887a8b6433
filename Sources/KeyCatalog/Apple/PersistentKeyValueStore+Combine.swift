#if canImport(Combine)
import Combine

extension PersistentKeyValueStore {
    /// The key's current value, then its value after each change, as a Combine publisher.
    ///
    /// ```swift
    /// UserDefaults.standard.publisher(for: .launchCount).sink { print($0) }
    /// ```
    public func publisher<Key: PersistentKeyProtocol>(for key: Key) -> AnyPublisher<Key.Value, Never> {
        let subject = _UncheckedSendable(CurrentValueSubject<Key.Value, Never>(get(key)))
        let observation = observe(key) { subject.value.send($0) }
        return subject.value
            .handleEvents(receiveCancel: { observation.cancel() })
            .eraseToAnyPublisher()
    }
}
#endif
