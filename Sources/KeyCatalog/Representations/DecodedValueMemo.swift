import Foundation

/// The values ``CodablePersistentKeyValueRepresentation`` decoded, by the bytes they were decoded
/// from: reading a key whose stored bytes did not change returns the value decoded before instead
/// of decoding again. It cannot be stale: the bytes are the key, compared in full.
///
/// Values that hold no class instance (one would be shared between readers, and a reader that
/// changed it would change every later read: see `_ClassInstanceScan`), bytes up to
/// ``maximumBytes``, at most ``capacity`` entries (all dropped when full: the next reads fill it
/// again with what is in use). Cost per entry: the stored bytes, the decoded value, and about 100
/// bytes of bookkeeping (see BENCHMARKS.md).
final class DecodedValueMemo: Sendable {
    static let shared = DecodedValueMemo(capacity: 256, maximumBytes: 16 * 1024)

    let capacity: Int
    let maximumBytes: Int

    private struct Key: Hashable, @unchecked Sendable {
        let type: ObjectIdentifier
        let bytes: Data
    }

    private let entries = _Locked<[Key: Any]>([:])
    /// Types one of whose values held a class instance: their values are no longer scanned, nor kept.
    private let classHolders = _Locked<Set<ObjectIdentifier>>([])

    init(capacity: Int, maximumBytes: Int) {
        self.capacity = capacity
        self.maximumBytes = maximumBytes
    }

    /// Whether values of `Value` decoded from `bytes` are kept.
    func accepts<Value>(_: Value.Type, _ bytes: Data) -> Bool {
        bytes.count <= maximumBytes && !(Value.self is AnyClass)
    }

    func value<Value>(_: Value.Type, decodedFrom bytes: Data) -> Value? {
        let key = Key(type: ObjectIdentifier(Value.self), bytes: bytes)
        // Unwrapped before the cast: `nil as? Value` succeeds when `Value` is an optional.
        guard let kept = entries.withLock({ $0[key] }) else { return nil }
        return kept as? Value
    }

    /// Keeps `value` for later reads of `bytes`, unless it holds a class instance.
    func keep<Value>(_ value: Value, decodedFrom bytes: Data) {
        let type = ObjectIdentifier(Value.self)
        guard !classHolders.withLock({ $0.contains(type) }) else { return }
        guard !_ClassInstanceScan.holdsClassInstance(value) else {
            classHolders.withLock { _ = $0.insert(type) }
            return
        }
        let key = Key(type: type, bytes: bytes)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
    }

    /// How many values are kept (for tests and benchmarks).
    var count: Int { entries.withLock { $0.count } }
}
