import Foundation

/// Nanoseconds of a monotonic clock that may lag by up to the kernel's tick (a few milliseconds):
/// for time limits that tolerate it. Reading it costs about 3 ns here, against 21 ns for
/// `CLOCK_MONOTONIC`, which it falls back to where the coarse clock is refused.
@inline(__always)
func _coarseMonotonicNanoseconds() -> UInt64 {
    #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
    clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW_APPROX)
    #else
    var time = timespec()
    if clock_gettime(CLOCK_MONOTONIC_COARSE, &time) != 0 {
        clock_gettime(CLOCK_MONOTONIC, &time)
    }
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    #endif
}
