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
///
/// The text is kept as UTF-8 in memory of the writer's own: appending a piece is a capacity
/// check and a copy, where appending to a `String` checks and updates the string's flags and an
/// array's `append(contentsOf:)` costs several times the copy for the short pieces written
/// here. So the writer cannot be copied (`~Copyable`): it is passed `inout`, and owns its memory.
/// Code that writes a line per key writes it in pieces (``startLine()``, ``write(_:)``,
/// ``endLine()``) rather than building it as a string first.
struct CodeWriter: ~Copyable {
    /// The UTF-8 written so far, `count` bytes of `capacity`; every piece written is a whole
    /// `String`, so it is valid.
    private var start: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    private var level = 0
    private var lastLineWasBlank = true

    /// Everything written so far.
    var text: String { String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self) }

    /// Everything written so far, as UTF-8.
    var utf8: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    /// A writer with room for about `capacity` bytes, so a big catalog is not copied as it grows.
    init(capacity: Int = 64 * 1024) {
        self.capacity = max(capacity, 64)
        start = .allocate(capacity: self.capacity)
    }

    deinit {
        start.deallocate()
    }

    /// Writes one line at the current indentation; an empty string writes a blank line.
    mutating func line(_ content: String) {
        if content.isEmpty {
            blank()
            return
        }
        startLine()
        write(content)
        endLine()
    }

    /// Starts a line at the current indentation; ``write(_:)`` adds to it, ``endLine()`` ends it.
    mutating func startLine() {
        for _ in 0..<level {
            write("    ")
        }
    }

    /// Adds `piece` to the line ``startLine()`` started.
    mutating func write(_ piece: String) {
        var piece = piece
        piece.withUTF8 { source in
            guard let base = source.baseAddress else { return }
            reserve(source.count)
            (start + count).initialize(from: base, count: source.count)
            count += source.count
        }
    }

    /// Ends the line ``startLine()`` started.
    mutating func endLine() {
        append(byte: UInt8(ascii: "\n"))
        lastLineWasBlank = false
    }

    private mutating func append(byte: UInt8) {
        reserve(1)
        (start + count).initialize(to: byte)
        count += 1
    }

    /// Makes room for `extra` more bytes, doubling the memory when it is short.
    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        capacity = max(capacity * 2, count + extra)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.initialize(from: start, count: count)
        start.deallocate()
        start = grown
    }

    /// Writes each of `lines` with ``line(_:)``.
    mutating func lines(_ contents: [String]) {
        for content in contents { line(content) }
    }

    /// Writes a blank line unless the previous line is already blank (or nothing is written yet).
    mutating func blank() {
        guard !lastLineWasBlank else { return }
        append(byte: UInt8(ascii: "\n"))
        lastLineWasBlank = true
    }

    /// Writes `opener`, the body one level deeper, then `closer`.
    mutating func block(_ opener: String, closer: String = "}", _ body: (inout CodeWriter) -> Void) {
        line(opener)
        level += 1
        body(&self)
        level -= 1
        // A body ending in a blank line would leave `\n\n}`: take the blank back.
        if lastLineWasBlank, count > 0 { count -= 1 }
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
        // The one-line form is written in place, and taken back if it is too long.
        let lineStart = count
        startLine()
        write(opening)
        for index in arguments.indices {
            if index > 0 { write(", ") }
            write(arguments[index].text)
        }
        write(closing)
        var hasComment = false
        for argument in arguments {
            guard let comment = argument.comment else { continue }
            write(hasComment ? ", " : " // ")
            write(comment)
            hasComment = true
        }
        // UTF-8 length: cheaper than counting characters, and only non-ASCII text differs.
        if count - lineStart <= Self.lineLimit || arguments.count < 2 {
            endLine()
            return
        }
        count = lineStart
        line(opening)
        level += 1
        for (index, argument) in arguments.enumerated() {
            startLine()
            write(argument.text)
            if index < arguments.count - 1 { write(",") }
            if let comment = argument.comment {
                write(" // ")
                write(comment)
            }
            endLine()
        }
        level -= 1
        line(closing)
    }

    /// Writes `lines` as `///` documentation, one comment line per line of text.
    mutating func documentation(_ doc: String?) {
        guard let doc else { return }
        // Most docs are one line of printable ASCII, which `SwiftSyntax.lines(of:)` keeps as is.
        if !doc.isEmpty, doc.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            startLine()
            write("/// ")
            write(doc)
            endLine()
            return
        }
        for docLine in SwiftSyntax.lines(of: doc) {
            line(docLine.isEmpty ? "///" : "/// " + docLine)
        }
    }
}
