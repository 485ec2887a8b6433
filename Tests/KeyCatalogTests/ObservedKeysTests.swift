import Foundation
import Testing

@testable import KeyCatalog

/// The change center finds keys declared in code by their names' words, in a table of 32 slots
/// beside its dictionary of observed keys.
@Suite("Change center: keys found by their names' words")
struct ObservedKeysTests {
    /// Keys whose names' words choose one slot of the center's table: the first holds it, the
    /// others are found by name; when the holder leaves, the others are still heard, and a key
    /// observed again may take the slot.
    @Test func keysSharingASlotAreEachHeard() throws {
        var bySlot: [Int: [String]] = [:]
        var names: [String] = []
        for index in 0..<10_000 where names.isEmpty {
            let name = "k\(index)"  // small: an identity of its own
            let slot = try #require(_StringIdentity(name)).slot(amongPowerOfTwo: 5)
            bySlot[slot, default: []].append(name)
            if bySlot[slot]!.count == 3 { names = bySlot[slot]! }
        }
        let store = InMemoryKeyValueStore()
        let seen = Locked<[String]>([])
        func observe(_ name: String) -> PersistentKeyObservation {
            store.observe(PersistentKey<Int>(name, defaultValue: 0)) { seen.append("\(name)=\($0)") }
        }
        func writeAll(_ value: Int) -> [String] {
            seen.withLock { $0 = [] }
            for name in names { store.set(PersistentKey<Int>(name, defaultValue: 0), to: value) }
            return seen.current
        }
        var observations = names.map(observe)
        #expect(writeAll(1) == names.map { "\($0)=1" })
        observations[0].cancel()
        #expect(writeAll(2) == names.dropFirst().map { "\($0)=2" })
        observations[0] = observe(names[0])
        observations[1].cancel()
        #expect(writeAll(3) == ["\(names[0])=3", "\(names[2])=3"])
        for observation in observations { observation.cancel() }
    }

    /// Whether any key has observers, as the file store's watch asks on each key's first observer
    /// and last: counted, not found by a walk of every key.
    @Test func theCenterCountsItsObservedKeys() {
        let center = KeyValueChangeCenter()
        #expect(!center.hasObservedKeys)
        let first = center.addObserver(forKey: "a") { _ in }
        let second = center.addObserver(forKey: "a") { _ in }
        let other = center.addObserver(forKey: "b") { _ in }
        first.cancel()
        second.cancel()
        #expect(center.hasObservedKeys, "b is observed")
        second.cancel()
        #expect(center.hasObservedKeys, "cancelling twice counts once")
        other.cancel()
        #expect(!center.hasObservedKeys)
        let again = center.addObserver(forKey: "b") { _ in }
        #expect(center.hasObservedKeys)
        again.cancel()
        #expect(!center.hasObservedKeys)
    }

    /// The filter of observed keys: a key nobody observes is told apart by its bytes among ASCII
    /// keys; any key that is not ASCII may be observed under another spelling and passes, and
    /// while one that is not ASCII is observed, every key passes, until it leaves.
    @Test func theFilterOfObservedKeysPassesEveryKeyItCannotTellApart() throws {
        #if !canImport(Darwin)
        let filter = _ObservedKeyFilter()
        let unobserved = (0..<64).map { "unobserved.\($0)" }
        filter.insert("observed.key")
        let passes = { (keys: [String]) in keys.map { filter.mayContain($0) } }
        #expect(passes(["observed.key"]) == [true])
        let filtered = unobserved.filter { !filter.mayContain($0) }
        #expect(filtered.count > 48, "most ASCII keys nobody observes are filtered out")
        #expect(passes(["caf\u{E9}", "\u{212A}elvin"]) == [true, true], "not ASCII: may be another spelling")

        filter.insert("caf\u{E9}")
        #expect(!passes(filtered).contains(false), "a key that is not ASCII is observed: every key passes")
        filter.remove("caf\u{E9}")
        #expect(!passes(filtered).contains(true), "it left: filtered again")
        filter.insert("\u{212A}elvin")
        #expect(!passes(["Kelvin"] + filtered).contains(false))
        filter.remove("\u{212A}elvin")
        #expect(passes(["observed.key"]) == [true])

        // A bit two keys set stays set until both left.
        // (The fingerprint is the length, first and last byte: keys that vary all three.)
        let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
        let candidates = letters.lazy.flatMap { first in
            letters.lazy.flatMap { last in (0..<20).lazy.map { first + String(repeating: "-", count: $0) + last } }
        }
        let sharing = try #require(candidates.first { $0 != "observed.key" && filter.mayContain($0) }, "a key with the bit of observed.key")
        filter.insert(sharing)
        filter.remove("observed.key")
        #expect(passes(["observed.key", sharing]) == [true, true], "the bit is the other key's too")
        filter.remove(sharing)
        #expect(!passes(["observed.key", sharing]).contains(true), "both left")
        #endif
    }
}
