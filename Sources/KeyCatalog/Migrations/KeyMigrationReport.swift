/// What a migration run did: what moved, what was skipped and why, what failed.
///
/// ```swift
/// let report = Keys(stores: .live).migrate()
/// for failure in report.failed { logger.error("\(failure)") }
/// ```
public struct KeyMigrationReport: Sendable, CustomStringConvertible {
    /// One source of one key, and what happened to it.
    public struct Entry: Sendable, Equatable, CustomStringConvertible {
        /// The key's Swift name.
        public var key: String
        /// The key's storage key.
        public var storageKey: String
        /// The source's storage key.
        public var fromKey: String
        /// The source's store, by its name in the catalog.
        public var fromStore: String
        /// What happened.
        public var outcome: Outcome

        public var description: String {
            "\(key) (\(storageKey)) <- \(fromStore).\(fromKey): \(outcome)"
        }
    }

    /// What happened to one source.
    public enum Outcome: Sendable, Equatable, CustomStringConvertible {
        /// The value moved: written to the key, verified, and removed from the source.
        case migrated
        /// The key already held exactly what the source converts to (what a run interrupted
        /// between writing the key and removing the source leaves); the source was removed.
        case completedInterruptedMove
        /// The key already holds a different value; the source is left in place.
        case skippedKeyHasValue
        /// The value could not be migrated: the reason says why, and what became of the source
        /// and of the key (most often, the source is kept for the next run).
        case failed(String)

        public var description: String {
            switch self {
            case .migrated: "migrated"
            case .completedInterruptedMove: "source removed: the key already holds its value (an interrupted move completed)"
            case .skippedKeyHasValue: "skipped: the key already holds a different value; source left in place"
            case .failed(let reason): "failed: \(reason)"
            }
        }
    }

    /// Every source that held a value, in catalog order.
    public var entries: [Entry] = []

    /// The sources whose value moved (including interrupted moves completed now).
    public var migrated: [Entry] {
        entries.filter { $0.outcome == .migrated || $0.outcome == .completedInterruptedMove }
    }

    /// The sources left in place because their key already held a value.
    public var skipped: [Entry] {
        entries.filter { $0.outcome == .skippedKeyHasValue }
    }

    /// The sources that could not be migrated.
    public var failed: [Entry] {
        entries.filter { if case .failed = $0.outcome { true } else { false } }
    }

    /// Whether there was nothing to do.
    public var isEmpty: Bool { entries.isEmpty }

    public var description: String {
        if entries.isEmpty { return "migrations: nothing to do" }
        return
            (["migrations: \(migrated.count) migrated, \(skipped.count) skipped, \(failed.count) failed"]
            + entries.map { "  \($0)" }).joined(separator: "\n")
    }
}
