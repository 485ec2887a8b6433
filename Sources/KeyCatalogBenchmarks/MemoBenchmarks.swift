import Foundation
import KeyCatalog

/// What the decoded-value memo (and, for UserDefaults, the read cache) costs in memory:
/// `keycatalog-benchmarks --memo-memory` (in memory) and `--memo-memory userDefaults`; and what
/// a read of bytes the memo has not seen costs (`--memo-miss`).
///
/// Stores 256 different `BenchmarkProfile` values (the memo's capacity) with 40 tags each (about
/// 500 bytes of JSON) under 256 keys of an in-memory store, reads each key once (warming up
/// everything but the memo on a first, identical store of other values would decode those too, so
/// the baseline is taken after the writes), and reports the growth of the resident set
/// (`/proc/self/statm`) per key: the stored bytes' copy, the decoded value, and the bookkeeping.
enum MemoBenchmarks {
    static func run() {
        let store = InMemoryKeyValueStore()
        let keys = (0..<256).map { PersistentKey<BenchmarkProfile>("memo.\($0)", defaultValue: BenchmarkProfile(name: "", age: 0, tags: [])) }
        for (index, key) in keys.enumerated() {
            store.set(key, to: BenchmarkProfile(name: "name \(index)", age: index, tags: (0..<40).map { "tag\($0)-\(index)" }))
        }
        let bytes = keys.compactMap { store.persistentValue(forKey: $0.id) }.reduce(0) { total, stored in
            if case .data(let data) = stored { return total + data.count }
            return total
        }
        let before = residentBytes()
        var kept: [BenchmarkProfile] = []
        for key in keys { kept.append(store.get(key)) }
        let withCopies = residentBytes()
        kept.removeAll()
        print("256 keys, \(bytes / 256) bytes of JSON each: resident set +\((withCopies - before) / 256) bytes per key (memo entry plus the caller's copy; pages of 4 KB, so ± 16 bytes per key)")
    }

    /// The same values in a UserDefaults suite opened by name (Linux: each key read keeps the
    /// stored value beside Foundation's object, and the Codable memo its decoded value): the
    /// growth of the resident set per key when every key is read once through KeyCatalog, after
    /// Foundation has read each once itself.
    static func userDefaults() {
        let name = "keycatalog.benchmarks.memo.\(getpid())"
        let defaults = UserDefaultsPersistence.suite(named: name)!
        defer { removeScratchSuite(named: name) }
        let keys = (0..<256).map { PersistentKey<BenchmarkProfile>("memo.\($0)", defaultValue: BenchmarkProfile(name: "", age: 0, tags: [])) }
        for (index, key) in keys.enumerated() {
            defaults.set(key, to: BenchmarkProfile(name: "name \(index)", age: index, tags: (0..<40).map { "tag\($0)-\(index)" }))
            _ = defaults.object(forKey: key.id)
        }
        let before = residentBytes()
        var kept: [BenchmarkProfile] = []
        for key in keys { kept.append(defaults.get(key)) }
        let after = residentBytes()
        kept.removeAll()
        print("UserDefaults suite, the same 256 keys: resident set +\((after - before) / 256) bytes per key (read cache and memo entries plus the caller's copy; ± 16 bytes per key)")
    }

    /// A read of bytes the memo has not seen: decoded, scanned for class instances, kept. Against
    /// the same decoding without the memo (a representation given its own decoder). 4,096
    /// different values a round, the two sides alternating, seven rounds: µs per read, min,
    /// median and max of the rounds.
    static func misses() {
        typealias Representation = CodablePersistentKeyValueRepresentation<BenchmarkProfile, JSONEncoder, JSONDecoder>
        let memoized = Representation()
        let plain = Representation(encoder: JSONEncoder(), decoder: JSONDecoder())
        var round = 0
        func stored(_ count: Int) -> [PropertyListValue] {
            round += 1
            return (0..<count).map { index in
                let profile = BenchmarkProfile(name: "name \(round).\(index)", age: index, tags: (0..<40).map { "tag\($0)-\(index)" })
                return try! memoized.persistentValue(for: profile)!
            }
        }
        func microseconds(_ representation: Representation, _ values: [PropertyListValue]) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            for value in values { _ = try! representation.value(from: value) }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000 / Double(values.count)
        }
        var withMemo: [Double] = []
        var without: [Double] = []
        for _ in 0..<7 {
            withMemo.append(microseconds(memoized, stored(4096)))
            without.append(microseconds(plain, stored(4096)))
        }
        func summary(_ values: [Double]) -> String {
            let sorted = values.sorted()
            return String(format: "%.2f / %.2f / %.2f", sorted[0], sorted[sorted.count / 2], sorted[sorted.count - 1])
        }
        print("memo miss (decode, scan, keep) µs min / median / max: \(summary(withMemo))")
        print("decode alone µs min / median / max:                   \(summary(without))")
    }

    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * 4096 : 0
    }
}
