// expected-error: type 'CurrentValueSubject<Int, Never>' does not conform to the 'Sendable' protocol
// Combine's subjects are not Sendable (Combine is not annotated for Sendable): handing one to
// code that needs a Sendable value requires a wrapper, as KeyCatalog's publisher(for:) does.
import Combine

func share(_ value: some Sendable) {}

func publish() {
    let subject = CurrentValueSubject<Int, Never>(0)
    share(subject)
}
