import Foundation
import KeyCatalog
import Testing

/// `PersistentKeyValueFailure.withTaskHandler`: a handler for one task and the tasks it starts,
/// in place of the process-wide one. (CI also runs these optimized, where binding a task-local of
/// function type crashed: Swift 6.3.)
@Suite struct TaskHandlerTests {
    static func failure(_ message: String) -> PersistentKeyValueFailure {
        PersistentKeyValueFailure(operation: .read, key: "key", store: "test store", message: message)
    }

    @Test func failuresGoToTheTasksHandlerWhileItIsBound() {
        #expect(PersistentKeyValueFailure.taskHandler == nil, "none outside a binding")
        let seen = Locked<[String]>([])
        let result = PersistentKeyValueFailure.withTaskHandler({ failure in seen.withLock { $0.append(failure.message) } }) {
            #expect(PersistentKeyValueFailure.taskHandler != nil)
            PersistentKeyValueFailure.report(Self.failure("one"))
            PersistentKeyValueFailure.report(Self.failure("two"))
            return 42
        }
        #expect(result == 42)
        #expect(seen.withLock { $0 } == ["one", "two"])
    }

    @Test func nilHandsFailuresBackAndTheOuterHandlerComesBack() {
        let seen = Locked<[String]>([])
        PersistentKeyValueFailure.withTaskHandler({ failure in seen.withLock { $0.append(failure.message) } }) {
            PersistentKeyValueFailure.withTaskHandler(nil) {
                #expect(PersistentKeyValueFailure.taskHandler == nil)
            }
            #expect(PersistentKeyValueFailure.taskHandler != nil)
            PersistentKeyValueFailure.report(Self.failure("after the inner scope"))
        }
        #expect(seen.withLock { $0 } == ["after the inner scope"])
    }

    @Test func anErrorThrownByTheOperationIsRethrown() {
        struct Expected: Error {}
        #expect(throws: Expected.self) {
            try PersistentKeyValueFailure.withTaskHandler({ _ in }) { throw Expected() }
        }
    }

    @Test func theHandlerHoldsAcrossSuspensionsAndInTasksStartedInside() async {
        let seen = Locked<[String]>([])
        await PersistentKeyValueFailure.withTaskHandler({ failure in seen.withLock { $0.append(failure.message) } }) {
            await Task.yield()
            PersistentKeyValueFailure.report(Self.failure("after a suspension"))
            await Task { PersistentKeyValueFailure.report(Self.failure("in a task")) }.value
            await withTaskGroup(of: Void.self) { group in
                group.addTask { PersistentKeyValueFailure.report(Self.failure("in a child task")) }
            }
        }
        #expect(seen.withLock { $0 } == ["after a suspension", "in a task", "in a child task"])
    }
}
