import Foundation
import Observation
import Testing

@testable import KeyCatalog

/// How a center's keys are tracked for Observation (`_ObservationTracking`), at the moments a
/// test cannot reach through a catalog.
@Suite("Observation tracking of a center's keys")
struct ObservationTrackingTests {
    /// Two threads make a key's first read at once: the first claims the key, and observes it
    /// through the center after its lock. A read on the other thread meanwhile finds the key
    /// claimed but not observed: it observes the key too, before it reads the store, so a write
    /// after its read fires its tracking (found by a review: it returned at once, and a write
    /// before the first thread's observer existed was lost to it).
    @Test func aReadWhileAnotherThreadRegistersTheKeyIsTracked() {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let store = InMemoryKeyValueStore()
        let key = PersistentKey<Int>("Count", defaultValue: 0)
        let tracking = _ObservationTracking()
        let bound = AnyPersistentKeyValueStore(store)
        // The first thread, stopped between its claim and its observer.
        let (firstChanges, firstNeedsObserver) = tracking.claim(key.id)
        #expect(firstNeedsObserver)

        let fired = Locked<[String]>([])
        let read = withObservationTracking {
            tracking.access(key.id, in: bound)
            return store.get(key)
        } onChange: {
            fired.append("second")
        }
        #expect(read == 0)
        store.set(key, to: 1)
        #expect(fired.current == ["second"])

        // The first thread goes on: both observers stay, and a later tracking fires once.
        tracking.observe(key.id, with: firstChanges, in: store.keyValueChanges)
        #expect(!tracking.claim(key.id).needsObserver)
        withObservationTracking {
            _ = tracking.access(key.id, in: bound)
        } onChange: {
            fired.append("later")
        }
        store.set(key, to: 2)
        #expect(fired.current == ["second", "later"])
    }
}
