/// One finding about a manifest: a severity, a message and the position of the token at fault.
///
/// Its `description` is the compiler's spelling, which editors, SwiftPM and CI understand:
///
/// ```swift
/// let diagnostic = Diagnostic(
///     .error,
///     "unknown type 'Integer' for key 'retryCount'; did you mean 'Int'?",
///     at: SourceLocation(file: "keys.json", line: 12, column: 5)
/// )
/// print(diagnostic) // keys.json:12:5: error: unknown type 'Integer' for key 'retryCount'; did you mean 'Int'?
/// ```
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
        /// Extra information; never fails a run.
        case note
        /// Probably a mistake; fails a run only with `--strict`.
        case warning
        /// The manifest cannot be used; always fails a run.
        case error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        /// Orders note < warning < error.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// How serious the finding is.
    public var severity: Severity
    /// What is wrong: quotes the bad value, says what was expected, ends with the fix.
    public var message: String
    /// The token at fault.
    public var location: SourceLocation
    /// The lint rule that found it (`unknown-field`), `nil` for JSON syntax errors.
    public var rule: String?

    /// Creates a diagnostic. The message is kept to one line (control characters escaped) and
    /// quoted values longer than 60 characters are cut with `…`.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation, rule: String? = nil) {
        self.severity = severity
        self.message = message.sanitizedForDiagnostic
        self.location = location
        self.rule = rule
    }

    /// `file:line:column: severity: message`.
    public var description: String {
        "\(location): \(severity.rawValue): \(message)"
    }
}

extension [Diagnostic] {
    /// `true` when any diagnostic is an error.
    public var containsErrors: Bool {
        contains { $0.severity == .error }
    }

    /// Sorted by position, then severity (errors first), then message: a stable report order.
    public func sortedByLocation() -> [Diagnostic] {
        sorted {
            if $0.location != $1.location { return $0.location < $1.location }
            if $0.severity != $1.severity { return $0.severity > $1.severity }
            return $0.message < $1.message
        }
    }
}
