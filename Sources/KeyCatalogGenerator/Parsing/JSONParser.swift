/// A strict JSON parser (RFC 8259) that remembers the line and column of every value and member
/// name, and reports problems as positioned ``Diagnostic``s.
///
/// One extension to RFC 8259: `//` line comments and `/* */` block comments are allowed wherever
/// whitespace is (as in JSONC), so a manifest can explain itself. They are skipped like
/// whitespace, so every position after them stays exact; an unterminated block comment is an
/// error at its `/*`.
///
/// It never traps and never loops on any input: invalid UTF-8, control characters, bad escapes
/// and trailing commas are reported and skipped; anything it cannot recover from (truncation, an
/// unexpected character, nesting deeper than ``maximumDepth``) ends the parse with one error.
///
/// ```swift
/// let (value, diagnostics) = JSONParser.parse(Array("{\n  \"a\": tru }".utf8), file: "keys.json")
/// // value == nil
/// // diagnostics[0].description == "keys.json:2:8: error: unexpected 'tru'; ..."
/// ```
struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 100

    /// Parses `bytes` (UTF-8, an optional byte-order mark is skipped).
    ///
    /// - Returns: The value, `nil` when the parse could not finish, and every problem found.
    static func parse(_ bytes: [UInt8], file: String) -> (JSONValue?, [Diagnostic]) {
        var parser = JSONParser(bytes: bytes, file: file)
        return parser.parseDocument()
    }

    private struct Abort: Error {}

    /// `UTF-32` or `UTF-16` when the bytes start with that encoding's byte-order mark, or look
    /// like it (JSON starts with an ASCII character, so its zero bytes give the encoding away).
    static func wideEncoding(of bytes: [UInt8]) -> String? {
        let head = Array(bytes.prefix(4))
        if head == [0xFF, 0xFE, 0, 0] || head == [0, 0, 0xFE, 0xFF] { return "UTF-32" }
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) { return "UTF-16" }
        guard head.count == 4, head.contains(0) else { return nil }
        if head[1] == 0 && head[2] == 0 && (head[3] == 0 || head[0] == 0) { return "UTF-32" }
        // Every other byte zero, as ASCII text is in UTF-16: one NUL byte is a NUL byte (found by
        // a review: `{` then a NUL was called UTF-16).
        if (head[1] == 0 && head[3] == 0 && head[0] != 0 && head[2] != 0) || (head[0] == 0 && head[2] == 0 && head[1] != 0 && head[3] != 0) {
            return "UTF-16"
        }
        return nil
    }

    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    private var diagnostics: [Diagnostic] = []

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    // MARK: - Document

    private mutating func parseDocument() -> (JSONValue?, [Diagnostic]) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        } else if let encoding = Self.wideEncoding(of: bytes) {
            error("the file is \(encoding); save it as UTF-8", at: location)
            return (nil, diagnostics)
        }
        do {
            try skipWhitespace()
            if index == bytes.count {
                error("the file is empty; expected a JSON object such as { \"version\": 1, \"keys\": [] }", at: location)
                return (nil, diagnostics)
            }
            let value = try parseValue()
            try skipWhitespace()
            if index < bytes.count {
                error("unexpected \(describeHere()) after the top-level value; remove it or wrap the values in an array", at: location)
                return (value, diagnostics)
            }
            return (value, diagnostics)
        } catch {
            return (nil, diagnostics)
        }
    }

    // MARK: - Values

    private mutating func parseValue() throws(Abort) -> JSONValue {
        try skipWhitespace()
        let start = location
        guard let byte = peek else {
            throw fail("unexpected end of file; expected a value", at: start)
        }
        switch byte {
        case UInt8(ascii: "{"): return JSONValue(kind: .object(try parseObject()), location: start)
        case UInt8(ascii: "["): return JSONValue(kind: .array(try parseArray()), location: start)
        case UInt8(ascii: "\""): return JSONValue(kind: .string(try parseString()), location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(kind: .number(try parseNumber()), location: start)
        case UInt8(ascii: "'"):
            throw fail("strings use double quotes in JSON; replace the single quotes with '\"'", at: start)
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            let word = readWord()
            switch word {
            case "true": return JSONValue(kind: .bool(true), location: start)
            case "false": return JSONValue(kind: .bool(false), location: start)
            case "null": return JSONValue(kind: .null, location: start)
            default:
                throw fail("unexpected '\(word.truncatedForMessage)'; expected a value: a string in double quotes, a number, true, false, null, an array or an object", at: start)
            }
        default:
            throw fail("unexpected \(describeHere()); expected a value", at: start)
        }
    }

    private mutating func parseObject() throws(Abort) -> [JSONMember] {
        let open = location
        try enter(at: open)
        advance()  // {
        var members: [JSONMember] = []
        try skipWhitespace()
        if peek == UInt8(ascii: "}") {
            advance()
            depth -= 1
            return members
        }
        while true {
            try skipWhitespace()
            let nameLocation = location
            guard let byte = peek else {
                throw fail("unexpected end of file; the object opened at \(open.line):\(open.column) is not closed with '}'", at: nameLocation)
            }
            guard byte == UInt8(ascii: "\"") else {
                if byte == UInt8(ascii: "'") {
                    throw fail("member names use double quotes in JSON; replace the single quotes with '\"'", at: nameLocation)
                }
                throw fail("unexpected \(describeHere()); expected a member name in double quotes", at: nameLocation)
            }
            let name = try parseString()
            try skipWhitespace()
            guard peek == UInt8(ascii: ":") else {
                throw fail("unexpected \(describeHere()) after member name '\(name.truncatedForMessage)'; expected ':'", at: location)
            }
            advance()
            let value = try parseValue()
            members.append(JSONMember(name: name, nameLocation: nameLocation, value: value))
            try skipWhitespace()
            guard let next = peek else {
                throw fail("unexpected end of file; the object opened at \(open.line):\(open.column) is not closed with '}'", at: location)
            }
            if next == UInt8(ascii: "}") {
                advance()
                depth -= 1
                return members
            }
            guard next == UInt8(ascii: ",") else {
                throw fail("unexpected \(describeHere()) in an object; expected ',' or '}'", at: location)
            }
            let comma = location
            advance()
            try skipWhitespace()
            if peek == UInt8(ascii: "}") {
                error("trailing comma before '}'; remove it", at: comma)
                advance()
                depth -= 1
                return members
            }
        }
    }

    private mutating func parseArray() throws(Abort) -> [JSONValue] {
        let open = location
        try enter(at: open)
        advance()  // [
        var elements: [JSONValue] = []
        try skipWhitespace()
        if peek == UInt8(ascii: "]") {
            advance()
            depth -= 1
            return elements
        }
        while true {
            elements.append(try parseValue())
            try skipWhitespace()
            guard let next = peek else {
                throw fail("unexpected end of file; the array opened at \(open.line):\(open.column) is not closed with ']'", at: location)
            }
            if next == UInt8(ascii: "]") {
                advance()
                depth -= 1
                return elements
            }
            guard next == UInt8(ascii: ",") else {
                throw fail("unexpected \(describeHere()) in an array; expected ',' or ']'", at: location)
            }
            let comma = location
            advance()
            try skipWhitespace()
            if peek == UInt8(ascii: "]") {
                error("trailing comma before ']'; remove it", at: comma)
                advance()
                depth -= 1
                return elements
            }
        }
    }

    private mutating func enter(at location: SourceLocation) throws(Abort) {
        depth += 1
        if depth > Self.maximumDepth {
            throw fail("nesting deeper than \(Self.maximumDepth) levels; a manifest never needs this much", at: location)
        }
    }

    // MARK: - Strings

    private mutating func parseString() throws(Abort) -> String {
        // Most strings are printable ASCII without escapes: taken as one slice, without a buffer
        // (and without a line break, so `line` and `lineStart` stay right).
        let start = index + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { break }
            if byte == UInt8(ascii: "\"") {
                index = end + 1
                return String(decoding: bytes[start..<end], as: UTF8.self)
            }
            end += 1
        }
        return try parseEscapedString()
    }

    /// A string with escapes, control characters or non-ASCII text, byte by byte.
    private mutating func parseEscapedString() throws(Abort) -> String {
        let open = location
        advance()  // "
        var buffer: [UInt8] = []
        while true {
            guard let byte = peek else {
                throw fail("unterminated string; add the closing '\"'", at: open)
            }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                throw fail("unterminated string; add the closing '\"' before the end of the line (write a line break as '\\n')", at: open)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &buffer)
            case 0..<0x20:
                if reportsMore {
                    let hex = String(byte, radix: 16, uppercase: true)
                    let code = (hex.count == 1 ? "0" : "") + hex
                    error("control character U+00\(code) in a string; escape it as \\u00\(code)", at: location)
                }
                advance()
            case 0..<0x80:
                buffer.append(byte)
                advance()
            default:
                appendUTF8Sequence(into: &buffer)
            }
        }
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(Abort) {
        let start = location
        advance()  // backslash
        guard let byte = peek else {
            throw fail("unexpected end of file in an escape sequence", at: start)
        }
        let simple: UInt8? =
            switch byte {
            case UInt8(ascii: "\""): UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): UInt8(ascii: "\\")
            case UInt8(ascii: "/"): UInt8(ascii: "/")
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            advance()
            buffer.append(simple)
            return
        }
        guard byte == UInt8(ascii: "u") else {
            let escapes = "JSON escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX"
            if (0x21..<0x7F).contains(byte) {
                advance()
                error("invalid escape '\\\(String(UnicodeScalar(byte)))'; \(escapes)", at: start)
            } else {
                // Leave the byte to the string loop so lines and UTF-8 checks stay right.
                error("invalid escape: '\\' followed by byte 0x\(String(byte, radix: 16, uppercase: true)); \(escapes)", at: start)
            }
            return
        }
        advance()  // u
        guard var scalar = readHex4() else {
            error("invalid escape '\\u'; write exactly four hexadecimal digits, as in \\u00E9", at: start)
            return
        }
        if (0xD800..<0xDC00).contains(scalar) {
            // A high surrogate must be followed by \u and a low surrogate.
            let save = (index, line, lineStart)
            if peek == UInt8(ascii: "\\"), peek(at: 1) == UInt8(ascii: "u") {
                advance()
                advance()
                if let low = readHex4(), (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    (index, line, lineStart) = save
                }
            }
        }
        guard let unicode = UnicodeScalar(scalar) else {
            error("invalid escape: lone surrogate '\\u\(String(scalar, radix: 16, uppercase: true))'; pair it with its other half or remove it", at: start)
            buffer.append(contentsOf: [0xEF, 0xBF, 0xBD])
            return
        }
        buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
    }

    private mutating func readHex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    /// Appends one well-formed UTF-8 sequence starting at `index`, or reports the bad bytes (one
    /// piece, see ``utf8Piece(_:at:)``) and appends one U+FFFD for them.
    private mutating func appendUTF8Sequence(into buffer: inout [UInt8]) {
        let (length, isValid) = Self.utf8Piece(bytes, at: index)
        if isValid {
            buffer.append(contentsOf: bytes[index..<index + length])
        } else {
            if reportsMore {
                let piece = bytes[index..<index + length].map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
                error("invalid UTF-8 \(length == 1 ? "byte" : "sequence") \(piece); save the file as UTF-8", at: location)
            }
            buffer.append(contentsOf: [0xEF, 0xBF, 0xBD])
        }
        index += length
    }

    /// The piece of UTF-8 that starts at `index` (a byte of `0x80` or more): a well-formed
    /// sequence, or the bytes one U+FFFD replaces (the longest start of a sequence, else one
    /// byte), as Unicode's "maximal subpart" practice has decoders and editors show them. Each
    /// piece is one column and at most one diagnostic.
    static func utf8Piece(_ bytes: [UInt8], at index: Int) -> (length: Int, isValid: Bool) {
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch bytes[index] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upperBound = 0x9F
        case 0xF0: length = 4; lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upperBound = 0x8F
        default: return (1, false)
        }
        var count = 1
        while count < length, index + count < bytes.count {
            let range = count == 1 ? lowerBound...upperBound : 0x80...0xBF
            guard range.contains(bytes[index + count]) else { break }
            count += 1
        }
        return (count, count == length)
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(Abort) -> String {
        let start = index
        let startLocation = location
        if peek == UInt8(ascii: "-") { advance() }
        guard let first = peek, isDigit(first) else {
            throw fail("invalid number '\(numberishText(from: start))'; expected a digit after '-'", at: startLocation)
        }
        advance()
        if first == UInt8(ascii: "0"), let next = peek, isDigit(next) {
            throw fail("invalid number '\(numberishText(from: start))'; JSON numbers have no leading zeros", at: startLocation)
        }
        skipDigits()
        if peek == UInt8(ascii: ".") {
            advance()
            guard let next = peek, isDigit(next) else {
                throw fail("invalid number '\(numberishText(from: start))'; expected a digit after '.'", at: startLocation)
            }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            advance()
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { advance() }
            guard let next = peek, isDigit(next) else {
                throw fail("invalid number '\(numberishText(from: start))'; expected a digit in the exponent", at: startLocation)
            }
            skipDigits()
        }
        if let next = peek, isWordByte(next) || next == UInt8(ascii: ".") {
            throw fail("invalid number '\(numberishText(from: start))'; JSON numbers are decimal, as in -12, 0.5 or 1e3", at: startLocation)
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func skipDigits() {
        while let byte = peek, isDigit(byte) { advance() }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// The number-like text starting at `start`, for a message.
    private func numberishText(from start: Int) -> String {
        var end = start
        while end < bytes.count, end - start < 40,
            isWordByte(bytes[end]) || [UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+")].contains(bytes[end])
        {
            end += 1
        }
        return String(decoding: bytes[start..<max(end, min(start + 1, bytes.count))], as: UTF8.self)
    }

    // MARK: - Scanning

    private var peek: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private func peek(at offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private mutating func advance() {
        if index < bytes.count {
            // A line ends at LF, CRLF (counted at its LF) or a lone CR, as editors count lines.
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") && peek(at: 1) != UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
    }

    /// Skips whitespace and comments (`// …` to the end of the line, `/* … */`).
    private mutating func skipWhitespace() throws(Abort) {
        while let byte = peek {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                index += 1  // ends no line: `advance()`'s line bookkeeping is not needed
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                advance()
            case UInt8(ascii: "/") where peek(at: 1) == UInt8(ascii: "/"):
                while let next = peek, next != UInt8(ascii: "\n"), next != UInt8(ascii: "\r") { skipCommentByte() }
            case UInt8(ascii: "/") where peek(at: 1) == UInt8(ascii: "*"):
                let open = location
                advance()
                advance()
                while !(peek == UInt8(ascii: "*") && peek(at: 1) == UInt8(ascii: "/")) {
                    guard peek != nil else {
                        throw fail("unterminated block comment; close it with '*/'", at: open)
                    }
                    skipCommentByte()
                }
                advance()
                advance()
            case UInt8(ascii: "/"):
                throw fail("unexpected '/'; comments start with '//' or '/*'", at: location)
            default:
                return
            }
        }
    }

    /// Skips one byte of a comment, or a whole UTF-8 sequence so columns after it stay right;
    /// invalid UTF-8 in a comment is reported like anywhere else.
    private mutating func skipCommentByte() {
        if let byte = peek, byte >= 0x80 {
            var ignored: [UInt8] = []
            appendUTF8Sequence(into: &ignored)
        } else {
            advance()
        }
    }

    private mutating func readWord() -> String {
        let start = index
        while let byte = peek, isWordByte(byte), index - start < 64 { advance() }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private var location: SourceLocation {
        SourceLocation(file: file, line: line, column: column(at: index))
    }

    /// Where the last column was counted, so counting along a long line stays linear.
    private final class ColumnCache {
        var lineStart = -1
        var index = 0
        var column = 1
    }

    private let columnCache = ColumnCache()

    /// The 1-based column of `index` in Unicode scalars, as editors show characters: `é` is one
    /// column, not two. Bytes that are not UTF-8 are one column for each piece that one
    /// replacement character stands for (``utf8Piece(_:at:)``), as the parser reports them.
    private func column(at index: Int) -> Int {
        var position = lineStart
        var column = 1
        if columnCache.lineStart == lineStart, columnCache.index <= index {
            position = columnCache.index
            column = columnCache.column
        }
        while position < index {
            position += bytes[position] < 0x80 ? 1 : Self.utf8Piece(bytes, at: position).length
            column += 1
        }
        // `index` falls between pieces, as every token starts there.
        columnCache.lineStart = lineStart
        columnCache.index = position
        columnCache.column = column
        return column
    }

    /// The token at `index`, for a message: `'}'`, `end of file`, `byte 0xFF`.
    private func describeHere() -> String {
        guard let byte = peek else { return "end of file" }
        if (0x21..<0x7F).contains(byte) { return "'\(String(UnicodeScalar(byte)))'" }
        // A character of several bytes, by name: what a copy from a word processor brings.
        if byte >= 0xC2, let scalar = String(decoding: bytes[index..<min(index + 4, bytes.count)], as: UTF8.self).unicodeScalars.first,
            scalar != "\u{FFFD}"
        {
            let code = scalar.codePoint
            switch scalar {
            case "\u{201C}", "\u{201D}", "\u{2018}", "\u{2019}":
                return "curly quote '\(scalar)' (\(code)); JSON needs straight double quotes (\")"
            case "\u{00A0}", "\u{2007}", "\u{202F}", "\u{FEFF}":
                return "invisible space \(code); replace it with a plain space"
            default:
                return "'\(scalar)' (\(code))"
            }
        }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// How many problems the parser reports at most: a file of binary data would otherwise get a
    /// diagnostic per byte (found by a review: 1.9 GB of memory for 4 MB of `0xFF`).
    static let maximumDiagnostics = 100

    /// Whether another problem is reported (past ``maximumDiagnostics``, one last says so): the
    /// problems a file can have once per byte check it before making their message.
    private var reportsMore: Bool { diagnostics.count <= Self.maximumDiagnostics }

    private mutating func error(_ message: String, at location: SourceLocation) {
        if diagnostics.count < Self.maximumDiagnostics {
            diagnostics.append(Diagnostic(.error, message, at: location, rule: "json-syntax"))
        } else if diagnostics.count == Self.maximumDiagnostics {
            diagnostics.append(
                Diagnostic(.error, "more problems from here on are not reported, after \(Self.maximumDiagnostics); is this a JSON file saved as UTF-8?", at: location, rule: "json-syntax"))
        }
    }

    private mutating func fail(_ message: String, at location: SourceLocation) -> Abort {
        error(message, at: location)
        return Abort()
    }
}
