import Foundation
import KeyCatalog

/// Typed access through KeyCatalog beside the raw API doing the same work, in ns/op.
///
/// ```
/// swift run -c release keycatalog-benchmarks                 # the timing table
/// swift run -c release keycatalog-benchmarks --valgrind      # also instructions and allocations per op
/// swift run -c release keycatalog-benchmarks --filter file/get
/// swift run -c release keycatalog-benchmarks --valgrind --no-timing   # instructions only
/// swift run -c release keycatalog-benchmarks --valgrind --no-timing --runs 5  # median (min-max) of 5 runs a side
/// swift run -c release keycatalog-benchmarks --valgrind --allocations # also heap blocks per op
/// swift run -c release keycatalog-benchmarks --migrations    # migrations at a launch with nothing to do
/// swift run -c release keycatalog-benchmarks --watch-checks  # a check of a suite's watched keys (Linux)
/// swift run -c release keycatalog-benchmarks --stalls [s]    # write latency while synchronizations run
/// swift run -c release keycatalog-benchmarks --file-writes [s] # file store writes, small and beside 10 MB
/// ```
///
/// Each case runs in a process of its own. Each number is the median of 7 timed runs of a
/// calibrated number of iterations (~25 ms a run), after a warm-up run; results feed a
/// `blackHole` so the optimizer keeps the work.
enum Benchmarks {
    static func main(_ arguments: [String]) {
        if arguments.first == "--count" {
            // A child run under valgrind: `--count <case> <typed|raw> <n>`.
            countMode(Array(arguments.dropFirst()))
            return
        }
        if arguments.first == "--time" {
            // A child run: `--time <case>`.
            timeMode(arguments.dropFirst().first ?? "")
            return
        }
        if arguments.first == "--stalls" {
            StallBenchmarks.run(seconds: arguments.dropFirst().first.flatMap(Double.init) ?? 4)
            return
        }
        if arguments.first == "--file-writes" {
            FileStoreBenchmarks.run(seconds: arguments.dropFirst().first.flatMap(Double.init) ?? 2)
            return
        }
        if arguments.first == "--memo-memory" {
            // Each store in a process of its own: memory one frees, the next would reuse.
            if arguments.dropFirst().first == "userDefaults" { MemoBenchmarks.userDefaults() } else { MemoBenchmarks.run() }
            return
        }
        if arguments.first == "--memo-miss" {
            MemoBenchmarks.misses()
            return
        }
        if arguments.first == "--external-changes" {
            ExternalChangeBenchmarks.run(rounds: arguments.dropFirst().first.flatMap(Int.init) ?? 50)
            return
        }
        if arguments.first == "--external-write" {
            ExternalChangeBenchmarks.write(Array(arguments.dropFirst()))
            return
        }
        if arguments.first == "--watch-checks" {
            WatchCheckBenchmarks.run()
            return
        }
        if arguments.first == "--migrations" {
            MigrationBenchmarks.run()
            return
        }
        let filter = arguments.firstIndex(of: "--filter").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
        if arguments.contains("--no-timing") {
            // Instruction counts only: on a loaded machine the timing table scatters anyway.
            valgrindTable(filter: filter)
            return
        }
        print("| Store | Op | Type | KeyCatalog ns/op | Raw ns/op | Ratio |")
        print("|---|---|---|---:|---:|---:|")
        // Each case in a process of its own, as under valgrind: a case must not measure what an
        // earlier one left behind (a catalog read tracks its key for Observation, and the key's
        // writes then cost more).
        for id in caseIDs(filter: filter) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executablePath)
            process.arguments = ["--time", id]
            let output = Pipe()
            process.standardOutput = output
            var row = ""
            if (try? process.run()) != nil {
                row = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
            }
            if row.isEmpty || process.terminationStatus != 0 {
                let parts = id.split(separator: "/")
                row = "| \(parts.joined(separator: " | ")) | ? | ? | (the child run failed) |\n"
            }
            print(row, terminator: "")
            fflush(nil)
        }

        if arguments.contains("--valgrind") {
            print()
            valgrindTable(filter: filter)
        }
    }

    /// This executable, which runs each case again in a child process.
    static var executablePath: String {
        #if os(Linux)
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        #else
        Bundle.main.executablePath ?? CommandLine.arguments[0]
        #endif
    }

    /// The cases whose identifier contains `filter` (all without one).
    static func caseIDs(filter: String?) -> [String] {
        caseLimits(filter: filter).map(\.id)
    }

    /// The cases whose identifier contains `filter`, each with its `maxIterations`.
    static func caseLimits(filter: String?) -> [(id: String, maxIterations: Int)] {
        let fixture = BenchmarkFixture()
        defer { fixture.cleanUp() }
        return fixture.cases.filter { filter.map($0.id.contains) ?? true }.map { ($0.id, $0.maxIterations) }
    }

    /// Times one case, typed between two raw runs so that drift (background synchronize, CPU
    /// frequency) hits both sides alike, and prints its row.
    static func timeMode(_ id: String) {
        let fixture = BenchmarkFixture()
        defer { fixture.cleanUp() }
        guard let benchmark = fixture.cases.first(where: { $0.id == id }) else { return }
        let raw = measure(maxIterations: benchmark.maxIterations, benchmark.raw)
        let typed = measure(maxIterations: benchmark.maxIterations, benchmark.typed)
        let raw2 = measure(maxIterations: benchmark.maxIterations, benchmark.raw)
        let rawBest = min(raw, raw2)
        print("| \(benchmark.store) | \(benchmark.operation) | \(benchmark.type) | \(format(typed)) | \(format(rawBest)) | \(String(format: "%.2fx", typed / rawBest)) |")
    }

    static func format(_ nanoseconds: Double) -> String {
        nanoseconds >= 100 ? String(format: "%.0f", nanoseconds) : String(format: "%.1f", nanoseconds)
    }

    // MARK: - Instructions and allocations, under valgrind

    /// Runs this executable under valgrind doing `base` and then `base + count` operations of each
    /// case, and prints the differences per operation: instructions (callgrind), which a loaded
    /// machine does not disturb, and heap blocks allocated (dhat).
    static func valgrindTable(filter: String?) {
        guard let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            print("(valgrind not found: no instruction or allocation counts)")
            return
        }
        let executable = executablePath
        // File writes are dominated by fsync, which valgrind does not count: reads only for the file store.
        let cases = caseLimits(filter: filter).filter { !$0.id.hasPrefix("file/set/") }
        let allocations = CommandLine.arguments.contains("--allocations")
        // UserDefaults' counts move between runs by a few hundred instructions (CoreFoundation's
        // tables differ with the addresses a process gets), so each side runs `--runs` times.
        let runs = CommandLine.arguments.firstIndex(of: "--runs").flatMap { CommandLine.arguments.indices.contains($0 + 1) ? Int(CommandLine.arguments[$0 + 1]) : nil } ?? 1
        let spread = runs > 1 ? " (min-max of \(runs))" : ""
        print("| Store | Op | Type | KeyCatalog instructions/op\(spread) | Raw instructions/op\(spread) | Ratio of medians |" + (allocations ? " KeyCatalog allocations/op | Raw allocations/op |" : ""))
        print("|---|---|---|---:|---:|---:|" + (allocations ? "---:|---:|" : ""))
        for (id, maxIterations) in cases {
            // 2,000 operations, fewer for a case that allows fewer (the costliest).
            let count = min(2_000, maxIterations)
            // Instructions: `runs` runs per side, collected only inside `measuredRegion` on the
            // main thread, after a warm-up operation outside it; the median, and the range.
            // Allocations (dhat, whole process): the difference between 200 and 2,200
            // operations, so that setup cancels out.
            var ranges: [String: String] = [:]
            func instructions(_ side: String) -> Double? {
                let counts = (0..<runs).compactMap { _ in
                    total("callgrind", valgrind, executable, [id, side, String(count)]).map { Double($0) / Double(count) }
                }.sorted()
                guard counts.count == runs else { return nil }
                if runs > 1 { ranges[side] = String(format: " (%.0f-%.0f)", counts.first!, counts.last!) }
                return counts[counts.count / 2]
            }
            func blocks(_ side: String) -> Double? {
                guard let low = total("dhat", valgrind, executable, [id, side, "200"]),
                    let high = total("dhat", valgrind, executable, [id, side, String(200 + count)])
                else { return nil }
                return Double(high - low) / Double(count)
            }
            let typedInstructions = instructions("typed"), rawInstructions = instructions("raw")
            let ratio = typedInstructions.flatMap { typed in rawInstructions.map { String(format: "%.3fx", typed / $0) } } ?? "?"
            let parts = id.split(separator: "/")
            var row = "| \(parts[0]) | \(parts[1]) | \(parts[2]) | \(typedInstructions.map { String(format: "%.0f", $0) } ?? "?")\(ranges["typed"] ?? "") | \(rawInstructions.map { String(format: "%.0f", $0) } ?? "?")\(ranges["raw"] ?? "") | \(ratio) |"
            if allocations {
                let typedBlocks = blocks("typed"), rawBlocks = blocks("raw")
                row += " \(typedBlocks.map { String(format: "%.2f", $0) } ?? "?") | \(rawBlocks.map { String(format: "%.2f", $0) } ?? "?") |"
            }
            print(row)
            fflush(nil)
        }
    }

    /// A child run's instructions in ``measuredRegion(_:_:)`` on the main thread only (callgrind,
    /// collection toggled on entry and exit of that function, one output file per thread, and the
    /// main thread's file read), or its heap blocks (dhat's `Total: N bytes in M blocks`, every
    /// thread: dhat cannot tell threads apart).
    ///
    /// Background work (the coalesced UserDefaults synchronize, Dispatch's own threads) runs on
    /// other threads and is not counted: earlier versions of this table read callgrind's
    /// whole-process `Collected` total, which counted it.
    static func total(_ tool: String, _ valgrind: String, _ executable: String, _ arguments: [String]) -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        let outputBase = FileManager.default.temporaryDirectory.appendingPathComponent("keycatalog-callgrind-\(getpid())-\(UUID().uuidString)").path
        let output =
            tool == "dhat"
            ? ["--dhat-out-file=/dev/null"]
            : ["--callgrind-out-file=\(outputBase)", "--separate-threads=yes", "--collect-atstart=no", "--toggle-collect=*measuredRegion*"]
        process.arguments = ["--tool=\(tool)"] + output + [executable, "--count"] + arguments
        // Random hash seeds change dictionary probe lengths from run to run.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_DETERMINISTIC_HASHING": "1"]) { _, new in new }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if tool == "dhat" {
            guard let regex = try? NSRegularExpression(pattern: #"in ([0-9,]+) blocks"#),
                let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                let range = Range(match.range(at: 1), in: text)
            else { return nil }
            return Int(text[range].replacingOccurrences(of: ",", with: ""))
        }
        // Thread 1 is the main thread: `<base>-01`.
        let files = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
        let prefix = URL(fileURLWithPath: outputBase).lastPathComponent
        defer {
            for name in files where name.hasPrefix(prefix) {
                try? FileManager.default.removeItem(atPath: FileManager.default.temporaryDirectory.appendingPathComponent(name).path)
            }
        }
        guard let mainFile = files.first(where: { $0 == prefix + "-01" }),
            let contents = try? String(contentsOfFile: FileManager.default.temporaryDirectory.appendingPathComponent(mainFile).path, encoding: .utf8)
        else { return nil }
        for line in contents.split(separator: "\n") where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
            return Int(line.split(separator: " ").last ?? "")
        }
        return nil
    }

    static func countMode(_ arguments: [String]) {
        guard arguments.count == 3, let count = Int(arguments[2]) else { return }
        let fixture = BenchmarkFixture()
        defer { fixture.cleanUp() }
        guard let benchmark = fixture.cases.first(where: { $0.id == arguments[0] }) else { return }
        let body = arguments[1] == "typed" ? benchmark.typed : benchmark.raw
        body(1)  // warm up lazily created state
        measuredRegion(body, count)
    }

    /// The only code whose instructions the valgrind table counts (`--toggle-collect`).
    @inline(never)
    static func measuredRegion(_ body: (Int) -> Void, _ count: Int) {
        body(count)
    }
}
