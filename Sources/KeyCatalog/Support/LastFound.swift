#if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
import Synchronization
#endif

/// The object a lookup found last, checked and read without a lock and without a retain: for
/// lookups that run on every read or write and most often find the same object again.
///
/// Only objects kept for the life of the process may be remembered: a reader may be using the
/// one it loaded while another thread remembers another. On Linux the object's address is an
/// `Atomic` word (a load and a comparison: a few instructions, against about 140 for a lock and
/// a lookup); on Apple platforms, where `Atomic` needs macOS 15 and iOS 18, ``_Locked`` guards it.
struct _LastFound<Object: AnyObject & Sendable>: ~Copyable {
    #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
    private let last = _Locked<Unmanaged<Object>?>(nil)
    #else
    /// The address of the object remembered last; 0 before any.
    private let last = Atomic<UInt>(0)
    #endif

    init() {}

    /// The object remembered last, unretained, if `isWanted` says it is the one looked for.
    @inline(__always)
    func object(where isWanted: (Object) -> Bool) -> Unmanaged<Object>? {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        guard let object = last.withLock({ $0 }) else { return nil }
        #else
        guard let address = UnsafeRawPointer(bitPattern: last.load(ordering: .acquiring)) else { return nil }
        let object = Unmanaged<Object>.fromOpaque(address)
        #endif
        return object._withUnsafeGuaranteedRef(isWanted) ? object : nil
    }

    /// Remembers `object`, which something else keeps for the life of the process.
    func remember(_ object: Object) {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        last.withLock { $0 = .passUnretained(object) }
        #else
        last.store(UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()), ordering: .releasing)
        #endif
    }
}
