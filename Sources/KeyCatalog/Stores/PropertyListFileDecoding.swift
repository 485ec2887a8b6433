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
        /// The file does not parse as a property list whose top level is a dictionary.
        case corrupt(any Error)
    }

    static func decode(_ data: Data) -> Decoded {
        let wholeError: any Error
        do {
            let object = try PropertyListSerialization.propertyList(from: data, format: nil)
            guard case .dictionary(let values)? = PropertyListValue(foundationObject: object) else {
                throw PersistentKeyValueEncodingError("the top level is not a dictionary of property-list values")
            }
            return .values(values, unreadable: [:], problems: [])
        } catch {
            wholeError = error
        }
        guard let entries = XMLDictionaryScanner.entries(of: data) else { return .corrupt(wholeError) }
        var values: [String: PropertyListValue] = [:]
        var unreadable: [String: String] = [:]
        var problems: [String] = []
        for entry in entries {
            guard case .string(let key)? = try? parseFragment("<string>\(entry.key)</string>") else { return .corrupt(wholeError) }
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
        guard !unreadable.isEmpty else { return .corrupt(wholeError) }
        return .values(values, unreadable: unreadable, problems: problems)
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

/// Splits an XML property list's top-level dictionary into its entries' text, without judging
/// the values; `nil` when the structure itself is broken.
enum XMLDictionaryScanner {
    static func entries(of data: Data) -> [(key: String, value: String)]? {
        var scanner = Scanner(bytes: [UInt8](data))
        guard scanner.skip(past: "<plist"), scanner.skip(past: ">") else { return nil }
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

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        func hasPrefix(_ prefix: String) -> Bool {
            let utf8 = Array(prefix.utf8)
            return index + utf8.count <= bytes.count && bytes[index..<index + utf8.count].elementsEqual(utf8)
        }

        mutating func consume(_ prefix: String) -> Bool {
            guard hasPrefix(prefix) else { return false }
            index += prefix.utf8.count
            return true
        }

        /// Moves past the next occurrence of `marker`.
        mutating func skip(past marker: String) -> Bool {
            while index < bytes.count {
                if consume(marker) { return true }
                index += 1
            }
            return false
        }

        /// The text before the next `marker`, moving past the marker.
        mutating func text(upTo marker: String) -> String? {
            let start = index
            while index < bytes.count {
                if hasPrefix(marker) {
                    let text = String(decoding: bytes[start..<index], as: UTF8.self)
                    index += marker.utf8.count
                    return text
                }
                index += 1
            }
            return nil
        }

        mutating func skipSpaceAndComments() {
            while index < bytes.count {
                if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
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
                if hasPrefix("<!--") {
                    guard skip(past: "-->") else { return nil }
                } else if hasPrefix("<![CDATA[") {
                    guard skip(past: "]]>") else { return nil }
                } else if bytes[index] == UInt8(ascii: "<") {
                    let isClosing = hasPrefix("</")
                    guard skip(past: ">") else { return nil }
                    let isEmpty = bytes[index - 2] == UInt8(ascii: "/")
                    if isClosing { depth -= 1 } else if !isEmpty { depth += 1 }
                    if depth < 0 { return nil }
                    if depth == 0 { return String(decoding: bytes[start..<index], as: UTF8.self) }
                } else {
                    index += 1
                }
            }
            return nil
        }
    }
}
