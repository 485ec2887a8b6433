import Foundation
import KeyCatalog

/// iCloud's key-value store holding 1,000 keys (about its maximum of 1,024), made on first use.
final class FilledCloud {
    static let keyCount = 1_000
    let cloud = BenchmarkCloud()
    let keys = (0..<keyCount).map { PersistentKey<Int>("bench.cloud.\($0)", defaultValue: 0) }
    let store: UbiquitousKeyValueStore

    init() {
        for (index, key) in keys.enumerated() { cloud.set(index, forKey: key.id) }
        store = UbiquitousKeyValueStore.shared(over: cloud)
    }
}

extension BenchmarkFixture {
    /// A write to iCloud's key-value store through ``UbiquitousKeyValueStore``, over a stand-in
    /// holding 1,000 keys: the value measured against iCloud's limits, counted, and set. The raw
    /// side sets the value.
    var ubiquitousCases: [BenchmarkCase] {
        let filled = madeOnFirstUse(FilledCloud.init)
        let keyCount = FilledCloud.keyCount
        return [
            BenchmarkCase(
                store: "iCloud", operation: "set", type: "Int (1,000 keys)",
                typed: { n in
                    let filled = filled()
                    for i in 0..<n { filled.store.set(filled.keys[i % keyCount], to: i) }
                },
                raw: { n in
                    let filled = filled()
                    for i in 0..<n { filled.cloud.set(i, forKey: filled.keys[i % keyCount].id) }
                }
            )
        ]
    }
}
