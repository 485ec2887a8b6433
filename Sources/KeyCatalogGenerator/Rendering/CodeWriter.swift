/// Builds generated source line by line: four-space indentation, one blank line between blocks
/// at most, and a final newline.
///
/// ```swift
/// var writer = CodeWriter()
/// writer.block("enum Theme {") { writer in
///     writer.line("case dark")
/// }
/// print(writer.text) // "enum Theme {\n    case dark\n}\n"
/// ```
struct CodeWriter {
    /// Everything written so far.
    private(set) var text = ""
    private var level = 0
    private var lastLineWasBlank = true

    /// A writer with room for about `capacity` bytes, so a big catalog is not copied as it grows.
    init(capacity: Int = 64 * 1024) {
        text.reserveCapacity(capacity)
    }

    private static let indentation = (0..<16).map { String(repeating: "    ", count: $0) }

    /// Writes one line at the current indentation; an empty string writes a blank line.
    mutating func line(_ content: String) {
        if content.isEmpty {
            blank()
            return
        }
        text += level < Self.indentation.count ? Self.indentation[level] : String(repeating: "    ", count: level)
        text += content
        text += "\n"
        lastLineWasBlank = false
    }

    /// Writes each of `lines` with ``line(_:)``.
    mutating func lines(_ contents: [String]) {
        for content in contents { line(content) }
    }

    /// Writes a blank line unless the previous line is already blank (or nothing is written yet).
    mutating func blank() {
        guard !lastLineWasBlank else { return }
        text += "\n"
        lastLineWasBlank = true
    }

    /// Writes `opener`, the body one level deeper, then `closer`.
    mutating func block(_ opener: String, closer: String = "}", _ body: (inout CodeWriter) -> Void) {
        line(opener)
        level += 1
        body(&self)
        level -= 1
        // A body ending in a blank line would leave `\n\n}`: take the blank back.
        if lastLineWasBlank, !text.isEmpty { text.removeLast() }
        line(closer)
    }

    /// Writes `body` one level deeper, for a block whose opening line ``call(_:_:closing:)`` wrote.
    mutating func indented(_ body: (inout CodeWriter) -> Void) {
        level += 1
        body(&self)
        level -= 1
    }

    /// The column past which ``call(_:_:closing:)`` puts each argument on a line of its own.
    static let lineLimit = 120

    /// Writes a call or declaration head with its arguments: on one line when it fits, else one
    /// argument per line. `comment` (a `// …` trailing comment) follows the one line; with one
    /// argument per line, each argument's own comment follows that argument.
    ///
    /// ```swift
    /// writer.call("Stores(", [("standard: .userDefaults()", nil), ("cache: .memory()", nil)], closing: ")")
    /// ```
    mutating func call(_ opening: String, _ arguments: [(text: String, comment: String?)], closing: String) {
        var single = opening
        var comment = ""
        for (index, argument) in arguments.enumerated() {
            if index > 0 { single += ", " }
            single += argument.text
            if let text = argument.comment { comment += (comment.isEmpty ? " // " : ", ") + text }
        }
        single += closing
        single += comment
        // UTF-8 length: cheaper than counting characters, and only non-ASCII text differs.
        if level * 4 + single.utf8.count <= Self.lineLimit || arguments.count < 2 {
            line(single)
            return
        }
        line(opening)
        level += 1
        for (index, argument) in arguments.enumerated() {
            let separator = index == arguments.count - 1 ? "" : ","
            line(argument.text + separator + (argument.comment.map { " // " + $0 } ?? ""))
        }
        level -= 1
        line(closing)
    }

    /// Writes `lines` as `///` documentation, one comment line per line of text.
    mutating func documentation(_ doc: String?) {
        guard let doc else { return }
        for docLine in SwiftSyntax.lines(of: doc) {
            line(docLine.isEmpty ? "///" : "/// " + docLine)
        }
    }
}
