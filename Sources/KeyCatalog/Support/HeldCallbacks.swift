import Foundation

/// Calls into app code (observers' deliveries, failure reports) that a thread holds while it runs
/// code under a lock such code may take again, and makes on that thread, in order, once it is out.
///
/// ```swift
/// try _HeldCallbacks.holding { try state.withLock(body) }
/// ```
///
/// A thread, not a task: a task-local handler would do, but `TaskLocal.withValue` with a function
/// value crashes in optimized code on Linux (Swift 6.3.1, outside a task).
enum _HeldCallbacks {
    /// Runs `body` with the callbacks made on this thread held, and makes them once it returned or
    /// threw. Nested calls hold until the outermost is out.
    static func holding<Result>(_ body: () throws -> Result) rethrows -> Result {
        if pthread_getspecific(threadKey) != nil { return try body() }
        pthread_setspecific(threadKey, nothingHeld)
        defer {
            let slot = pthread_getspecific(threadKey)
            pthread_setspecific(threadKey, nil)
            if let slot, slot != nothingHeld {
                for callback in Unmanaged<Held>.fromOpaque(slot).takeRetainedValue().callbacks { callback() }
            }
        }
        return try body()
    }

    /// The callbacks this thread holds, if it is in ``holding(_:)``: append the call to make.
    static func ofThisThread() -> Held? {
        guard let slot = pthread_getspecific(threadKey) else { return nil }
        if slot != nothingHeld { return Unmanaged<Held>.fromOpaque(slot).takeUnretainedValue() }
        // The first call held: made now, released by `holding`.
        let held = Held()
        pthread_setspecific(threadKey, Unmanaged.passRetained(held).toOpaque())
        return held
    }

    /// One thread's held callbacks; only that thread touches them.
    final class Held {
        fileprivate var callbacks: [() -> Void] = []

        func append(_ callback: @escaping () -> Void) {
            callbacks.append(callback)
        }
    }

    /// This thread's slot while it is in ``holding(_:)``: ``nothingHeld`` until a call is held,
    /// then its ``Held`` (retained). Measured on a file store write, which holds once: this costs
    /// about 100 instructions (callgrind), where `Thread.current.threadDictionary` cost about
    /// 1.8 µs and a `Held` made for every hold about 0.25 µs.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "KeyCatalog could not create a thread-specific key (\(status))")
        return key
    }()
    /// A slot value no object has: holding, nothing held yet.
    private static var nothingHeld: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1)! }
}
