import Foundation

/// Keeps a value alive as far as the optimizer can tell, so the work that made it is not removed.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

/// `value`, which the optimizer cannot see through: a parameter that an app knows only at run
/// time (a list's identifier), so that neither side of a case folds the string it builds from it.
@_optimize(none) @inline(never)
func opaque<T>(_ value: T) -> T { value }

/// A number no earlier call returned, for a key never read before. (The benchmarks run on one
/// thread.)
@inline(never)
func freshNumber() -> Int {
    lastFreshNumber &+= 1
    return lastFreshNumber
}

nonisolated(unsafe) private var lastFreshNumber = 0

/// Nanoseconds on the monotonic clock.
@inline(__always)
func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Runs `body(n)` (which does `n` operations) enough times to time it; returns the median ns/op.
///
/// The iteration count is calibrated so that one run lasts about `targetRun`; after a warm-up
/// run, `runs` timed runs are made and their median is taken.
func measure(runs: Int = 7, targetRun: UInt64 = 25_000_000, maxIterations: Int = 2_000_000, _ body: (Int) -> Void) -> Double {
    // Calibrate (this also warms up caches and lazily created state).
    var iterations = 16
    while true {
        let start = now()
        body(iterations)
        let elapsed = now() - start
        if elapsed >= targetRun / 4 || iterations >= maxIterations {
            let perOp = Double(elapsed) / Double(iterations)
            iterations = max(16, min(maxIterations, Int(Double(targetRun) / max(perOp, 0.1))))
            break
        }
        iterations *= 4
    }
    body(iterations)
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = now()
        body(iterations)
        samples.append(Double(now() - start) / Double(iterations))
    }
    samples.sort()
    return samples[samples.count / 2]
}
