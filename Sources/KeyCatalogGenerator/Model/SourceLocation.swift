/// A position in a manifest: the file as it was named, a 1-based line and a 1-based column.
///
/// Columns count Unicode scalars, as editors count characters (`é` is one column, not two): so
/// `keys.json:12:5` points at the fifth character of line 12. A byte that is not part of any
/// character counts as one, as an editor shows it as one replacement character.
///
/// ```swift
/// let location = SourceLocation(file: "keys.json", line: 12, column: 5)
/// print(location) // keys.json:12:5
/// ```
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The path of the manifest, exactly as the tool was given it.
    public var file: String
    /// The line, starting at 1.
    public var line: Int
    /// The column in Unicode scalars, starting at 1.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the compiler's spelling; a line break in the file's path is written as
    /// an escape, so that the position stays on its line (found by a review).
    public var description: String { "\(file.escapedForMessage):\(line):\(column)" }

    /// Orders by file, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
