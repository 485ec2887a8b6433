import Foundation

/// How long a test waits for what another thread or task does. Long enough for a loaded CI
/// machine, where every test runs in one process on 2 cores and a sleeping task has waited over
/// 20 s for a thread of the cooperative pool; a condition that never holds still fails, later.
let eventualDeadline: TimeInterval = 30

/// Whether `condition` holds within ``eventualDeadline`` (asked every 10 ms): for what another
/// thread (the file monitor's, a moved watch's) does.
func eventually(_ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: eventualDeadline)
    while !condition() {
        if Date() > deadline { return false }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return true
}

/// Whether `condition` holds within ``eventualDeadline``, asked every 10 ms with the task asleep
/// in between, on the caller's actor: for what the main actor does, which a blocked thread would
/// hold.
func eventuallyAsleep(isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool) async throws -> Bool {
    let deadline = Date(timeIntervalSinceNow: eventualDeadline)
    while !condition() {
        if Date() > deadline { return false }
        try await Task.sleep(for: .milliseconds(10))
    }
    return true
}
