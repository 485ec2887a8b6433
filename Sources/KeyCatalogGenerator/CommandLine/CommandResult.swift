/// What running a `keycatalog` command produced: an exit code and the text for each stream.
///
/// ```swift
/// let result = KeyCatalogCommand.run(["lint", "keys.json"])
/// result.exitCode       // 0, 1 or 64
/// result.standardError  // keys.json:3:5: error: ...
/// ```
public struct CommandResult: Sendable, Equatable {
    /// 0 clean, 1 findings that fail, 64 usage errors.
    public var exitCode: Int32
    /// What goes to standard output.
    public var standardOutput: String
    /// What goes to standard error (diagnostics, usage errors).
    public var standardError: String

    /// Creates a result.
    public init(exitCode: Int32, standardOutput: String = "", standardError: String = "") {
        self.exitCode = exitCode
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Exit code for success.
    public static let success: Int32 = 0
    /// Exit code when findings fail the run.
    public static let failure: Int32 = 1
    /// Exit code for a usage error (`EX_USAGE`).
    public static let usage: Int32 = 64
}
