extension PersistentKeyValueFailure {
    /// The handler of the current task and its children, used instead of ``handler`` when set
    /// (by ``withTaskHandler(_:operation:file:line:)``).
    public static var taskHandler: Handler? { boundTaskHandler?.handler }

    /// Runs `operation` with `handler` receiving the failures of the current task and of the
    /// tasks it starts, instead of the process-wide ``handler``; `nil` hands them back to it.
    ///
    /// ```swift
    /// PersistentKeyValueFailure.withTaskHandler({ failure in recorder.append(failure) }) {
    ///     _ = store.get(.launchCount)
    /// }
    /// ```
    @discardableResult
    public static func withTaskHandler<Result>(
        _ handler: Handler?,
        operation: () throws -> Result,
        file: String = #fileID,
        line: UInt = #line
    ) rethrows -> Result {
        try $boundTaskHandler.withValue(handler.map(TaskHandler.init), operation: operation, file: file, line: line)
    }

    /// Runs `operation` with `handler` receiving the failures of the current task and of the
    /// tasks it starts, instead of the process-wide ``handler``; `nil` hands them back to it.
    @discardableResult
    public static func withTaskHandler<Result>(
        _ handler: Handler?,
        operation: () async throws -> Result,
        isolation: isolated (any Actor)? = #isolation,
        file: String = #fileID,
        line: UInt = #line
    ) async rethrows -> Result {
        // One reference, made before the call: apps have reported the `withValue` back-deployed to
        // macOS 14 crashing on a temporary made in the call, in optimized builds (not verified
        // here: no Apple platform to run on).
        let bound = handler.map(TaskHandler.init)
        return try await $boundTaskHandler.withValue(bound, operation: operation, isolation: isolation, file: file, line: line)
    }

    /// The task's handler, in a class: a task-local value of function type crashes optimized
    /// builds as it is bound (Swift 6.3: the binding asks the runtime for the function type's
    /// metadata by a mangled name it cannot demangle; swiftlang/swift#88321), and so would every
    /// app's Release build that bound one.
    private final class TaskHandler: Sendable {
        let handler: Handler

        init(_ handler: @escaping Handler) {
            self.handler = handler
        }
    }

    @TaskLocal private static var boundTaskHandler: TaskHandler?
}
