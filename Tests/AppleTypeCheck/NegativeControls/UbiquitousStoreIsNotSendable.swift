// expected-error: type 'NSUbiquitousKeyValueStore' does not conform to the 'Sendable' protocol
// NSUbiquitousKeyValueStore is not Sendable: it cannot be handed as is to code that needs a
// Sendable value (KeyCatalog boxes it in _UncheckedSendable).
import Foundation

func share(_ value: some Sendable) {}

func publish() {
    share(NSUbiquitousKeyValueStore.default)
}
