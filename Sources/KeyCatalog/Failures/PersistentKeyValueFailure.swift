import Foundation

/// Something that went wrong reading or writing a store; the key's default was used, or the old
/// value kept, and this report went to the failure handler.
///
/// Replace the handler to send failures to your logging or crash reporting:
///
/// ```swift
/// PersistentKeyValueFailure.handler = { failure in
///     logger.error("\(failure)")
/// }
/// ```
///
/// The handler runs on the thread that found the failure, once KeyCatalog has released its
/// locks: it may use stores itself (count failures in a key, reset an unreadable value).
///
/// Tests can catch failures of the code they run, without touching the process-wide handler:
///
/// ```swift
/// PersistentKeyValueFailure.withTaskHandler({ failures.append($0) }) {
///     _ = store.get(.launchCount)
/// }
/// ```
public struct PersistentKeyValueFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done when the failure happened.
    public enum Operation: String, Sendable, Hashable {
        /// Reading a key, writing one, removing one, loading a whole store (a file), or migrating a key.
        case read, write, remove, load, migrate
    }

    /// What was being done.
    public var operation: Operation
    /// The storage key, or `nil` for a failure of the whole store (a corrupt file).
    public var key: String?
    /// A description of the store, like `UserDefaults(suiteName: "group.app")`.
    public var store: String
    /// What went wrong, in a sentence.
    public var message: String

    /// A failure report; stores and representations of your own create these for the handler.
    public init(operation: Operation, key: String?, store: String, message: String) {
        self.operation = operation
        self.key = key
        self.store = store
        self.message = message
    }

    public var description: String {
        if let key {
            return "KeyCatalog: \(operation) of '\(key)' in \(store) failed: \(message)"
        }
        return "KeyCatalog: \(operation) of \(store) failed: \(message)"
    }

    /// A function that receives failures.
    public typealias Handler = @Sendable (PersistentKeyValueFailure) -> Void

    /// The process-wide handler; by default it prints each failure to standard error.
    public static var handler: Handler {
        get { globalHandler.withLock { $0 } }
        set { globalHandler.withLock { $0 = newValue } }
    }

    /// Sends a failure to the task's handler, or to the process-wide one; once KeyCatalog has
    /// released its locks, if it reports while holding one.
    public static func report(_ failure: PersistentKeyValueFailure) {
        if let held = _HeldCallbacks.ofThisThread() {
            held.append { (taskHandler ?? handler)(failure) }
            return
        }
        (taskHandler ?? handler)(failure)
    }

    /// Prints a failure to standard error: the default handler.
    public static let printToStandardError: Handler = { failure in
        FileHandle.standardError.write(Data((failure.description + "\n").utf8))
    }

    private static let globalHandler = _Locked<Handler>(printToStandardError)
}
