import Foundation

/// How a file store's contents become bytes and back.
///
/// Files are written as binary property lists: measured on Linux (Swift 6.3.1), the XML reader
/// drops a leading U+FEFF from every string and key (it takes it for a byte-order mark), and XML
/// 1.0 cannot hold most control characters, while the binary format holds every string exactly.
///
/// An XML file whose one value does not parse (an `<integer>` out of range) is read entry by
/// entry: the readable entries are kept, the others are returned as their XML text, and written
/// back verbatim (the file then stays XML until they are gone).
enum PropertyListFileDecoding {
    enum Decoded {
        /// The readable values; the unreadable entries' XML, by key; one message per unreadable entry.
        case values([String: PropertyListValue], unreadable: [String: String], problems: [String])
        /// The file spells more keys than it holds as `String`s: some differ only in Unicode
        /// normalization (`café` composed and decomposed) or in a leading U+FEFF (which
        /// Foundation's XML reader drops), or a binary list repeats one. A dictionary of the store
        /// keeps them as one, so that a rewrite would drop entries. The values read (one for each
        /// such key), and why the file must not be written.
        case mergedKeys([String: PropertyListValue], problem: String)
        /// The file does not parse as a property list whose top level is a dictionary: what is
        /// wrong, and where when it can be told.
        case corrupt(String)
    }

    static func decode(_ data: Data) -> Decoded {
        let wholeError: any Error
        do {
            var format = PropertyListSerialization.PropertyListFormat.binary
            let object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
            guard case .dictionary(let values)? = PropertyListValue(foundationObject: object) else {
                throw PersistentKeyValueEncodingError("the top level is not a dictionary of property-list values")
            }
            // A binary list's entries are counted in its trailer, at no cost. An XML list is
            // scanned only when it holds a byte that is not ASCII: only then can two spellings of
            // a key be one `String` (composed and decomposed, or one with a leading U+FEFF, which
            // Foundation's XML reader drops). A key an XML list repeats byte for byte is one key
            // to every reader, which keeps the last.
            let spelled: Int? =
                switch format {
                case .binary: BinaryPropertyList.topLevelCount(of: data)
                case .xml where !isASCII(data): XMLDictionaryScanner.entries(of: data).map(spellingCount)
                default: nil
                }
            if let spelled, spelled != values.count {
                return .mergedKeys(values, problem: mergedKeysProblem(entries: spelled, keys: values.count, in: data))
            }
            return .values(values, unreadable: [:], problems: [])
        } catch {
            wholeError = error
        }
        guard let entries = XMLDictionaryScanner.entries(of: data) else { return .corrupt(corruption(of: data, wholeError)) }
        var values: [String: PropertyListValue] = [:]
        var unreadable: [String: String] = [:]
        var problems: [String] = []
        for entry in entries {
            guard case .string(let key)? = try? parseFragment("<string>\(entry.key)</string>") else { return .corrupt(corruption(of: data, wholeError)) }
            do {
                guard let value = try parseFragment(entry.value) else {
                    throw PersistentKeyValueEncodingError("not a property-list value")
                }
                values[key] = value
            } catch {
                unreadable[key] = entry.value
                problems.append("'\(key)': \(entry.value.prefix(80)) (\(describe(error)))")
            }
        }
        // Every entry read on its own, yet the whole did not: something else is wrong.
        guard !unreadable.isEmpty else { return .corrupt(corruption(of: data, wholeError)) }
        let keys = Set(values.keys).union(unreadable.keys).count
        if keys != spellingCount(entries) {
            return .mergedKeys(values, problem: mergedKeysProblem(entries: spellingCount(entries), keys: keys, in: data))
        }
        return .values(values, unreadable: unreadable, problems: problems)
    }

    /// How many keys an XML list's entries spell differently (byte for byte, as written).
    private static func spellingCount(_ entries: [(key: String, value: String)]) -> Int {
        Set(entries.lazy.map { _ExactKey($0.key) }).count
    }

    /// Whether every byte of `data` is ASCII.
    private static func isASCII(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in bytes.allSatisfy { $0 < 0x80 } }
    }

    /// Why a file of `entries` keys (as spelled) under `keys` keys (as `String`s) cannot be
    /// rewritten; in an XML file, naming the spellings of each such key as written, by their scalars.
    private static func mergedKeysProblem(entries: Int, keys: Int, in data: Data) -> String {
        var problem = "the file spells \(entries) keys, \(keys) as strings"
        var spellings: [String: Set<_ExactKey>] = [:]
        for entry in XMLDictionaryScanner.entries(of: data) ?? [] {
            guard case .string(let key)? = try? parseFragment("<string>\(entry.key)</string>") else { continue }
            spellings[key, default: []].insert(_ExactKey(entry.key))
        }
        func spelled(_ key: String) -> String {
            "'\(key)' (\(key.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")))"
        }
        let merged = spellings.values.filter { $0.count > 1 }
            .map { $0.map { spelled($0.string) }.sorted().joined(separator: " and ") }
        if !merged.isEmpty { problem += " (\(merged.sorted().joined(separator: "; ")))" }
        return problem + ": keys that differ only in Unicode normalization, or in a leading U+FEFF, are one key to this store"
    }

    /// The file's bytes: a binary property list, or XML holding `unreadable` verbatim.
    static func encode(_ values: [String: PropertyListValue], keeping unreadable: [String: String]) throws -> Data {
        let object = PropertyListValue.dictionary(values).foundationObject
        guard !unreadable.isEmpty else {
            return try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        }
        for (key, value) in values {
            try checkXMLHolds(value, forKey: key, keeping: unreadable)
        }
        var xml = String(decoding: try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0), as: UTF8.self)
        let entries = unreadable.sorted { $0.key < $1.key }
            .map { "\t<key>\(escaped($0.key))</key>\n\t\($0.value)\n" }
            .joined()
        if let end = xml.range(of: "</dict>", options: .backwards) {
            xml.replaceSubrange(end, with: entries + "</dict>")
        } else if let empty = xml.range(of: "<dict/>", options: .backwards) {
            xml.replaceSubrange(empty, with: "<dict>\n" + entries + "</dict>")
        } else {
            throw PersistentKeyValueEncodingError("unexpected XML from PropertyListSerialization")
        }
        return Data(xml.utf8)
    }

    /// Throws if the file, which must stay XML to keep its `unreadable` entries (when there are
    /// any), cannot hold `value` under `key` exactly.
    static func checkXMLHolds(_ value: PropertyListValue, forKey key: String, keeping unreadable: [String: String]) throws {
        guard !unreadable.isEmpty, let problem = xmlProblem(key) ?? value.firstXMLProblem else { return }
        throw PersistentKeyValueEncodingError(
            "the file keeps entries it cannot read (\(unreadable.keys.sorted().map { "'\($0)'" }.joined(separator: ", "))) and so stays XML, "
                + "which cannot hold \(problem) exactly (under '\(key)'); write or remove those entries first"
        )
    }

    /// Why XML cannot hold `string` exactly, if it cannot.
    static func xmlProblem(_ string: String) -> String? {
        // Checked on every UserDefaults write on Linux (key and value): a byte scan first.
        guard PropertyListValue.mayHoldControlOrSpecialScalar(string) else { return nil }
        if string.unicodeScalars.first == "\u{FEFF}" { return "a leading U+FEFF" }
        if let scalar = string.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" }) {
            return "the control character U+\(String(scalar.value, radix: 16, uppercase: true))"
        }
        return nil
    }

    private static func parseFragment(_ fragment: String) throws -> PropertyListValue? {
        let document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\(fragment)</plist>\n"
        return PropertyListValue(foundationObject: try PropertyListSerialization.propertyList(from: Data(document.utf8), format: nil))
    }

    /// What is wrong with `data`, which does not parse as a property list (Foundation's own
    /// message alone misleads: a damaged binary list is last tried as text, "Unexpected character
    /// b at line 1").
    static func corruption(of data: Data, _ error: any Error) -> String {
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("bplist".utf8)) {
            // The trailer, the last 32 bytes: offset size at 6, object count at 8, the offset
            // table's offset at 24.
            guard bytes.count >= 40 else {
                return "a binary property list cut short: \(bytes.count) bytes, fewer than its header and trailer (40)"
            }
            let trailer = bytes.count - 32
            func integer(at offset: Int) -> UInt64 { bytes[(trailer + offset)..<(trailer + offset + 8)].reduce(0) { $0 << 8 | UInt64($1) } }
            let (objects, table) = (integer(at: 8), integer(at: 24))
            let (tableSize, tooMany) = objects.multipliedReportingOverflow(by: UInt64(bytes[trailer + 6]))
            let (tableEnd, tooFar) = table.addingReportingOverflow(tableSize)
            if tooMany || tooFar || table < 8 || tableEnd > UInt64(trailer) {
                return "a binary property list of \(bytes.count) bytes whose trailer (at byte \(trailer)) gives an offset table past its end: cut short or damaged"
            }
            return "a binary property list of \(bytes.count) bytes whose objects do not read (damaged): \(describe(error))"
        }
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
        if text.hasPrefix("<?xml") || text.hasPrefix("<plist") {
            let end = String(decoding: bytes.suffix(16), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !end.hasSuffix("</plist>") {
                return "an XML property list cut short: it ends at byte \(bytes.count) without </plist>"
            }
            return "an XML property list of \(bytes.count) bytes that does not parse: \(describe(error))"
        }
        return "neither a binary nor an XML property list: \(bytes.count) bytes starting \(String(reflecting: String(text.prefix(16)))); \(describe(error))"
    }

    private static func describe(_ error: any Error) -> String {
        (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? String(describing: error)
    }

    private static func escaped(_ string: String) -> String {
        string.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

extension PropertyListValue {
    /// The first part of the value that Foundation's XML property lists cannot hold exactly: a
    /// string (or dictionary key) `xmlProblem` names, a negative zero (written as `0.0`), a date
    /// that is not finite or lies over 2 billion years from 2001 (Foundation on Linux writes the
    /// one as text no reader takes, which loses the whole file, and changes the other), or a date
    /// with a fraction of a second (written in whole seconds).
    var firstXMLProblem: String? {
        switch self {
        case .string(let string): PropertyListFileDecoding.xmlProblem(string)
        case .double(let number) where number == 0 && number.sign == .minus: "a negative zero (-0.0; it writes 0.0)"
        // Measured: every whole second within about ±6.7768e16 s reads back exactly.
        case .date(let date) where !(abs(date.timeIntervalSinceReferenceDate) <= 6.7e16):
            "a date that is not finite or lies over 2 billion years from 2001 (\(date.timeIntervalSinceReferenceDate) s)"
        case .date(let date) where date.timeIntervalSinceReferenceDate.rounded(.down) != date.timeIntervalSinceReferenceDate:
            "a date with a fraction of a second (it writes whole seconds)"
        case .array(let elements): elements.lazy.compactMap(\.firstXMLProblem).first
        case .dictionary(let members):
            members.lazy.compactMap { PropertyListFileDecoding.xmlProblem($0.key) ?? $0.value.firstXMLProblem }.first
        case .bool, .int, .uint, .double, .data, .date: nil
        }
    }
}

/// What a binary property list says of itself (`bplist00`, as Foundation writes it).
enum BinaryPropertyList {
    /// The number of entries of the list's top-level dictionary, from its trailer (the last 32
    /// bytes: the sizes of offsets, the top object's number, where the offsets are) and the
    /// dictionary's marker (`0xDn`, or `0xDF` and an integer object for 15 or more); `nil` when
    /// the bytes are not laid out so.
    static func topLevelCount(of data: Data) -> Int? {
        data.withUnsafeBytes { topLevelCount(of: $0) }
    }

    private static func topLevelCount(of bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 40 else { return nil }
        let trailer = bytes.count - 32
        func number(at start: Int, size: Int) -> Int? {
            guard size >= 1, size <= 8, start >= 0, start + size <= bytes.count else { return nil }
            let value = bytes[start..<start + size].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return value <= UInt64(Int.max) ? Int(value) : nil
        }
        let offsetSize = Int(bytes[trailer + 6])
        guard let topObject = number(at: trailer + 16, size: 8), let offsets = number(at: trailer + 24, size: 8),
            topObject <= (Int.max - offsets) / max(offsetSize, 1),
            let top = number(at: offsets + topObject * offsetSize, size: offsetSize), top < trailer
        else { return nil }
        let marker = bytes[top]
        guard marker >> 4 == 0xD else { return nil }
        guard marker & 0xF == 0xF else { return Int(marker & 0xF) }
        guard top + 1 < trailer, bytes[top + 1] >> 4 == 0x1 else { return nil }
        return number(at: top + 2, size: 1 << Int(bytes[top + 1] & 0xF))
    }
}

/// Splits an XML property list's top-level dictionary into its entries' text, without judging
/// the values; `nil` when the structure itself is broken, or the bytes are not an XML document
/// (a damaged binary list whose string holds XML text is not read as that text).
enum XMLDictionaryScanner {
    static func entries(of data: Data) -> [(key: String, value: String)]? {
        guard let text = utf8Text(of: data) else { return nil }
        var scanner = Scanner(bytes: text)
        _ = scanner.consume("\u{FEFF}")
        // The prolog: white space, comments, processing instructions (`<?xml …?>`,
        // `<?xml-stylesheet …?>`) and a document type, then the root element.
        while true {
            scanner.skipSpaceAndComments()
            if scanner.hasPrefix("<?") {
                guard scanner.skip(past: "?>") else { return nil }
            } else if scanner.hasPrefix("<!DOCTYPE") {
                guard scanner.skipDocumentType() else { return nil }
            } else {
                break
            }
        }
        guard scanner.consume("<plist"), scanner.skip(past: ">") else { return nil }
        scanner.skipSpaceAndComments()
        guard scanner.consume("<dict>") else { return nil }
        var entries: [(key: String, value: String)] = []
        while true {
            scanner.skipSpaceAndComments()
            if scanner.consume("</dict>") { return entries }
            guard scanner.consume("<key>"), let key = scanner.text(upTo: "</key>") else { return nil }
            scanner.skipSpaceAndComments()
            guard let value = scanner.element() else { return nil }
            entries.append((key, value))
        }
    }

    /// The document's text in UTF-8: as it is, or transcoded from the encoding its byte-order
    /// mark or XML declaration names (`encoding="ISO-8859-1"`); `nil` for an encoding Foundation
    /// does not know, or bytes not valid in theirs (whose text would come out garbled).
    static func utf8Text(of data: Data) -> [UInt8]? {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return String(data: data, encoding: .utf16).map { Array($0.utf8) }
        }
        let declared = declaredEncoding(in: bytes)?.lowercased()
        guard let declared, !["utf-8", "utf8"].contains(declared) else {
            return String(data: data, encoding: .utf8) != nil ? bytes : nil
        }
        let encodings: [String: String.Encoding] = [
            "iso-8859-1": .isoLatin1, "latin1": .isoLatin1, "iso_8859-1": .isoLatin1, "us-ascii": .ascii, "ascii": .ascii,
            "windows-1252": .windowsCP1252, "utf-16": .utf16, "utf-16be": .utf16BigEndian, "utf-16le": .utf16LittleEndian,
        ]
        guard let encoding = encodings[declared], let text = String(data: data, encoding: encoding) else { return nil }
        return Array(text.utf8)
    }

    /// The `encoding` an XML declaration at the start of `bytes` names.
    private static func declaredEncoding(in bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.prefix(256).firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: bytes[..<end], as: UTF8.self)
        guard let name = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[name.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        func hasPrefix(_ prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            let start = prefix.utf8Start
            for offset in 0..<count where bytes[index + offset] != start[offset] { return false }
            return true
        }

        mutating func consume(_ prefix: StaticString) -> Bool {
            guard hasPrefix(prefix) else { return false }
            index += prefix.utf8CodeUnitCount
            return true
        }

        /// Moves past the next occurrence of `marker`.
        mutating func skip(past marker: StaticString) -> Bool {
            let first = marker.utf8Start.pointee
            while index < bytes.count {
                if bytes[index] == first, consume(marker) { return true }
                index += 1
            }
            return false
        }

        /// The text before the next `marker`, moving past the marker.
        mutating func text(upTo marker: StaticString) -> String? {
            let start = index
            let first = marker.utf8Start.pointee
            while index < bytes.count {
                if bytes[index] == first, hasPrefix(marker) {
                    let text = String(decoding: bytes[start..<index], as: UTF8.self)
                    index += marker.utf8CodeUnitCount
                    return text
                }
                index += 1
            }
            return nil
        }

        /// Moves past a `<!DOCTYPE …>`, and the internal subset (`[…]`) it may hold.
        mutating func skipDocumentType() -> Bool {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "[") {
                    guard skip(past: "]") else { return false }
                } else {
                    index += 1
                    if bytes[index - 1] == UInt8(ascii: ">") { return true }
                }
            }
            return false
        }

        mutating func skipSpaceAndComments() {
            while index < bytes.count {
                if bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                    index += 1
                } else if hasPrefix("<!--") {
                    guard skip(past: "-->") else { return }
                } else {
                    return
                }
            }
        }

        /// One whole element starting here (`<integer>…</integer>`, `<true/>`, a nested `<dict>`).
        mutating func element() -> String? {
            guard hasPrefix("<"), !hasPrefix("</") else { return nil }
            let start = index
            var depth = 0
            while index < bytes.count {
                if bytes[index] != UInt8(ascii: "<") {
                    index += 1
                } else if hasPrefix("<!--") {
                    guard skip(past: "-->") else { return nil }
                } else if hasPrefix("<![CDATA[") {
                    guard skip(past: "]]>") else { return nil }
                } else {
                    let isClosing = hasPrefix("</")
                    guard skip(past: ">") else { return nil }
                    let isEmpty = bytes[index - 2] == UInt8(ascii: "/")
                    if isClosing { depth -= 1 } else if !isEmpty { depth += 1 }
                    if depth < 0 { return nil }
                    if depth == 0 { return String(decoding: bytes[start..<index], as: UTF8.self) }
                }
            }
            return nil
        }
    }
}
