import Foundation
import KeyCatalog
import Testing

@Suite("Migrations: crash safety, failing the store at every step in turn")
struct KeyMigrationCrashSafetyTests {
    /// The stores after an uninterrupted run of the scenario.
    static func uninterrupted() throws -> (snapshot: [MigrationStoreKind: [String: PropertyListValue]], operations: Int) {
        let stores = MigrationStores()
        try MigrationScenario.seed(stores)
        let counter = FailingStore.Counter(failAt: nil)
        _ = MigrationStores.runCapturingFailures {
            KeyMigrator.run(MigrationScenario.migrations) { name in
                stores.lookup(name).map { FailingStore($0, name: name, counter: counter) }
            }
        }
        return (stores.snapshot, counter.operationCount)
    }

    @Test("after a failure at operation N, no value is lost, and a rerun ends as an uninterrupted run", arguments: FailingStore.Injection.all)
    func failAtEveryStep(_ injection: FailingStore.Injection) throws {
        let reference = try Self.uninterrupted()
        #expect(reference.operations == 18, "5 moves, each a write, a flush and a removal; then a flush of each of the 3 stores a source left")

        for failAt in 1...(reference.operations + 1) {
            let stores = MigrationStores()
            try MigrationScenario.seed(stores)
            let seeded = stores.snapshot
            let counter = FailingStore.Counter(failAt: failAt, injection: injection)
            let failures = FailureRecorder()

            let interrupted = failures.record {
                KeyMigrator.run(MigrationScenario.migrations) { name in
                    stores.lookup(name).map { FailingStore($0, name: name, counter: counter) }
                }
            }

            // Nothing lost: each value is at its key, converted, or at its source, as it was.
            for expectation in MigrationScenario.expectations {
                let atKey = stores.contents(expectation.store)[expectation.key]
                let atSource = stores.contents(expectation.sourceStore)[expectation.sourceKey]
                if expectation.moves {
                    #expect(atKey == expectation.value || atSource == expectation.original, "N=\(failAt): \(expectation.key) lost")
                    #expect(atKey == nil || atKey == expectation.value, "N=\(failAt): \(expectation.key) holds \(String(describing: atKey))")
                } else {
                    #expect(atSource == expectation.original, "N=\(failAt): \(expectation.sourceKey) changed")
                    #expect(atKey == seeded[expectation.store]?[expectation.key], "N=\(failAt): \(expectation.key) changed")
                }
            }
            // Every injected failure shows in the failure handler, and in the report as a failure
            // unless the value moved all the same: a source's removal that removed it, or the flush
            // of a removal (the key holds the value).
            if failAt <= reference.operations {
                let movedAllTheSame = failures.failures.contains {
                    $0.message.contains("the source is gone and the key keeps the value")
                        || $0.message.contains("the key holds the moved value, but the source's removal could not be made durable")
                }
                #expect(interrupted.failed.count > 2 || movedAllTheSame, "N=\(failAt): the injected failure is not reported")
                #expect(failures.failures.contains { $0.message.contains("injected failure") }, "N=\(failAt)")
            } else {
                #expect(interrupted.failed.count == 2)
            }

            let rerun = stores.run(MigrationScenario.migrations)

            #expect(stores.snapshot == reference.snapshot, "N=\(failAt): the rerun ends differently from an uninterrupted run")
            #expect(rerun.failed.count == 2, "N=\(failAt): only the two unconvertible sources fail: \(rerun)")
            #expect(stores.run(MigrationScenario.migrations).migrated.isEmpty)
        }
    }
}
