import Foundation

/// A mutex guarding a value; the runtime's one synchronization primitive.
///
/// `Synchronization.Mutex` needs macOS 15, so this wraps `NSLock`.
@usableFromInline
final class _Locked<State>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var state: State

    @usableFromInline
    init(_ state: State) {
        self.state = state
    }

    @inlinable
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
