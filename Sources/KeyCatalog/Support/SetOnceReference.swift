#if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
import Synchronization
#endif

/// A reference set at most once, then read on every use without a lock and without a retain.
///
/// On Linux the object's address is an `Atomic` word (a load: about 2 instructions, against about
/// 40 for a lock, its release and a copy of what it guards). On Apple platforms, where `Atomic`
/// needs macOS 15 and iOS 18, it is guarded by ``_Locked``. The object is kept until this is
/// destroyed: the first one set stays, so a reader never sees it freed.
struct _SetOnceReference<Object: AnyObject & Sendable>: ~Copyable {
    #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
    private let object = _Locked<Object?>(nil)
    #else
    /// The object's address, retained once set; 0 until then.
    private let address = Atomic<UInt>(0)
    #endif

    init() {}

    #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
    deinit {
        if let object = Self.reference(at: address.load(ordering: .acquiring)) { object.release() }
    }

    @inline(__always)
    private static func reference(at address: UInt) -> Unmanaged<Object>? {
        UnsafeRawPointer(bitPattern: address).map { Unmanaged<Object>.fromOpaque($0) }
    }
    #endif

    /// `body`'s result with the object, if one is set; `nil` if none is.
    @inline(__always)
    func withObject<Result>(_ body: (Object) -> Result) -> Result? {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        guard let reference = object.withLock({ $0.map(Unmanaged.passUnretained) }) else { return nil }
        #else
        guard let reference = Self.reference(at: address.load(ordering: .acquiring)) else { return nil }
        #endif
        return reference._withUnsafeGuaranteedRef(body)
    }

    /// Sets `newObject`, unless an object is set already (which stays); returns the object set.
    @discardableResult
    func setIfNone(_ newObject: Object) -> Object {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        return object.withLock { object in
            if let object { return object }
            object = newObject
            return newObject
        }
        #else
        let reference = Unmanaged.passRetained(newObject)
        let new = UInt(bitPattern: reference.toOpaque())
        let (exchanged, original) = address.compareExchange(expected: 0, desired: new, ordering: .acquiringAndReleasing)
        guard !exchanged else { return newObject }
        reference.release()
        return Self.reference(at: original)!.takeUnretainedValue()
        #endif
    }
}
