import Foundation

/// The append-only journal beside a file store's property list: `<name>.journal`.
///
/// A write appends one record to it with one `write(2)` instead of rewriting the whole list: it
/// is in the kernel's page cache when `set` returns, so it survives the process being killed, at
/// the cost of a write rather than of the store's size. The store's contents are the property
/// list with the journal's records applied in order; in the background the list is rewritten
/// with them (compaction) and the journal starts again with what was appended meanwhile.
///
/// Every record sets (or removes) one key to an absolute value, so applying a record the list
/// already holds changes nothing: the list plus *any* journal it was compacted from reads the
/// same. That is what makes compaction safe at every step of a crash, with two renames that need
/// not be atomic together, as long as the journal is opened before the list is read.
///
/// Format: an 8-byte header (`KCJL`, then the format version, 1, as a little-endian `UInt32`),
/// then records: payload length (`UInt32`, little-endian), CRC-32 of the payload (`UInt32`,
/// little-endian), payload. A payload is an operation byte (0: remove, 1: set), the key
/// (length-prefixed UTF-8) and, for a set, the value (see ``FileStoreJournal/appendValue(_:to:)``).
/// A record that is incomplete or fails its checksum ends the journal: it is a write that was cut
/// short (power loss) or is still being made (another process, seen without the lock). A whole
/// record (its checksum holds) whose payload does not read is skipped and counted, so that the
/// writes after it are still read; a journal holding one is not compacted, which would lose it
/// (a newer version of KeyCatalog, which reads it, compacts it).
enum FileStoreJournal {
    static let header: [UInt8] = [0x4B, 0x43, 0x4A, 0x4C, 1, 0, 0, 0]
    static let recordHeaderSize = 8

    /// One record read back: `value` is `nil` for a removal.
    struct Record: Equatable {
        var key: String
        var value: PropertyListValue?
    }

    /// The longest payload a record's length field holds: 4 GiB less a byte.
    static let maximumPayloadLength = Int(UInt32.max)

    /// The bytes of the record that sets `key` to `value` (removes it, for `nil`).
    ///
    /// - Throws: ``FileStoreUnavailable`` when the payload is longer than `maximumPayloadLength`
    ///   (a value of 4 GiB or more: no record holds it).
    static func record(key: String, value: PropertyListValue?, maximumPayloadLength: Int = maximumPayloadLength) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: recordHeaderSize)
        bytes.reserveCapacity(recordHeaderSize + key.utf8.count + 24)
        bytes.append(value == nil ? 0 : 1)
        appendString(key, to: &bytes)
        if let value { appendValue(value, to: &bytes) }
        let payloadLength = bytes.count - recordHeaderSize
        guard payloadLength <= maximumPayloadLength else {
            throw FileStoreUnavailable(
                description: "not written: '\(key)' and its value take \(payloadLength) bytes, more than a file store's journal record holds (\(maximumPayloadLength)); store less under one key")
        }
        let checksum = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[recordHeaderSize...])) }
        store(UInt32(payloadLength), at: 0, in: &bytes)
        store(checksum, at: 4, in: &bytes)
        return bytes
    }

    /// What reading the journal's bytes found.
    struct Scan {
        /// The complete, intact records, in order.
        var records: [Record] = []
        /// How many bytes they take, from the start of the bytes read.
        var length = 0
        /// Bytes follow the last intact record: an incomplete or damaged one.
        var hasDamagedTail = false
        /// Whole records whose payload did not read (none that this version writes), skipped.
        var unreadable = 0
    }

    /// Reads records from `bytes` (which start at a record boundary) up to the first that is
    /// incomplete or damaged, skipping whole ones that do not read.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> Scan {
        var scan = Scan()
        var offset = 0
        while offset < bytes.count {
            guard bytes.count - offset >= recordHeaderSize else { break }
            let length = Int(load(at: offset, in: bytes))
            let checksum = load(at: offset + 4, in: bytes)
            let start = offset + recordHeaderSize
            guard length > 0, length <= bytes.count - start else { break }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)])
            guard CRC32.checksum(payload) == checksum else { break }
            offset = start + length
            guard let record = decodePayload(payload) else {
                scan.unreadable += 1
                continue
            }
            scan.records.append(record)
        }
        scan.length = offset
        scan.hasDamagedTail = offset < bytes.count
        return scan
    }

    private static func decodePayload(_ payload: UnsafeRawBufferPointer) -> Record? {
        var reader = Reader(bytes: payload)
        guard let operation = reader.byte(), operation <= 1, let key = reader.string() else { return nil }
        var value: PropertyListValue?
        if operation == 1 {
            guard let decoded = reader.value(depth: 0) else { return nil }
            value = decoded
        }
        guard reader.isAtEnd else { return nil }
        return Record(key: key, value: value)
    }

    // MARK: - Values

    /// The one value `bytes` hold in the journal's value encoding (``appendValue(_:to:)``: compact,
    /// exact and cheap to write, for what else KeyCatalog keeps in a store as bytes, iCloud sync's
    /// stamps); `nil` if they do not read as exactly one. `extraDepth`: levels of nesting around the values the bytes
    /// keep, which do not count against a stored value's limit.
    static func decoded(_ bytes: Data, extraDepth: Int = 0) -> PropertyListValue? {
        bytes.withUnsafeBytes { bytes in
            var reader = Reader(bytes: bytes)
            guard let value = reader.value(depth: -extraDepth), reader.isAtEnd else { return nil }
            return value
        }
    }

    private enum Tag: UInt8 {
        case `false` = 0, `true`, int, uint, double, string, data, date, array, dictionary
    }

    /// Appends `value`: a tag byte, then integers and doubles as 8 little-endian bytes (a double
    /// and a date by their bit patterns, so every value reads back exactly), strings and data
    /// length-prefixed, arrays and dictionaries count-prefixed.
    static func appendValue(_ value: PropertyListValue, to bytes: inout [UInt8]) {
        switch value {
        case .bool(let bool):
            bytes.append(bool ? Tag.true.rawValue : Tag.false.rawValue)
        case .int(let int):
            bytes.append(Tag.int.rawValue)
            appendWord(UInt64(bitPattern: Int64(int)), to: &bytes)
        case .uint(let uint):
            bytes.append(Tag.uint.rawValue)
            appendWord(uint, to: &bytes)
        case .double(let double):
            bytes.append(Tag.double.rawValue)
            appendWord(double.bitPattern, to: &bytes)
        case .string(let string):
            bytes.append(Tag.string.rawValue)
            appendString(string, to: &bytes)
        case .data(let data):
            bytes.append(Tag.data.rawValue)
            appendLength(data.count, to: &bytes)
            bytes.append(contentsOf: data)
        case .date(let date):
            bytes.append(Tag.date.rawValue)
            appendWord(date.timeIntervalSinceReferenceDate.bitPattern, to: &bytes)
        case .array(let elements):
            bytes.append(Tag.array.rawValue)
            appendLength(elements.count, to: &bytes)
            for element in elements { appendValue(element, to: &bytes) }
        case .dictionary(let members):
            bytes.append(Tag.dictionary.rawValue)
            appendLength(members.count, to: &bytes)
            for (key, member) in members {
                appendString(key, to: &bytes)
                appendValue(member, to: &bytes)
            }
        }
    }

    /// A dictionary's tag and member count, for an encoder that writes a dictionary's members
    /// without making it (iCloud sync's metadata): then each member with ``appendMember(_:_:to:)``,
    /// or its name with ``appendMemberName(_:to:)`` and its value, as many as `count`.
    static func appendDictionary(count: Int, to bytes: inout [UInt8]) {
        bytes.append(Tag.dictionary.rawValue)
        appendLength(count, to: &bytes)
    }

    /// A dictionary member's name (see ``appendDictionary(count:to:)``).
    static func appendMemberName(_ name: String, to bytes: inout [UInt8]) {
        appendString(name, to: &bytes)
    }

    /// A dictionary member (see ``appendDictionary(count:to:)``).
    static func appendMember(_ name: String, _ value: PropertyListValue, to bytes: inout [UInt8]) {
        appendString(name, to: &bytes)
        appendValue(value, to: &bytes)
    }

    private static func appendString(_ string: String, to bytes: inout [UInt8]) {
        var string = string
        string.withUTF8 { utf8 in
            appendLength(utf8.count, to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }

    /// A length as a LEB128 variable-length integer: one byte below 128.
    private static func appendLength(_ length: Int, to bytes: inout [UInt8]) {
        var rest = UInt64(length)
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private static func appendWord(_ word: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func store(_ word: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        withUnsafeBytes(of: word.littleEndian) { word in
            for index in 0..<4 { bytes[offset + index] = word[index] }
        }
    }

    private static func load(at offset: Int, in bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// Reads what the `append` functions wrote; every read checks its bounds (`nil`: malformed).
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func word() -> UInt64? {
            guard bytes.count - offset >= 8 else { return nil }
            defer { offset += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }

        mutating func length() -> Int? {
            var result: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 7) {
                guard let byte = byte() else { return nil }
                result |= UInt64(byte & 0x7F) << UInt64(shift)
                if byte & 0x80 == 0 {
                    // No count can exceed the bytes left: a damaged length fails here.
                    guard result <= UInt64(bytes.count - offset) else { return nil }
                    return Int(result)
                }
            }
            return nil
        }

        mutating func slice() -> UnsafeRawBufferPointer? {
            guard let length = length() else { return nil }
            defer { offset += length }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
        }

        mutating func string() -> String? {
            slice().map { String(decoding: $0, as: UTF8.self) }
        }

        mutating func value(depth: Int) -> PropertyListValue? {
            guard depth < 512, let byte = byte(), let tag = Tag(rawValue: byte) else { return nil }
            switch tag {
            case .false: return .bool(false)
            case .true: return .bool(true)
            case .int: return word().map { .int(Int(Int64(bitPattern: $0))) }
            case .uint: return word().map { .uint($0) }
            case .double: return word().map { .double(Double(bitPattern: $0)) }
            case .string: return string().map { .string($0) }
            case .data: return slice().map { .data(Data($0)) }
            case .date: return word().map { .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: $0))) }
            case .array:
                guard let count = length() else { return nil }
                var elements: [PropertyListValue] = []
                elements.reserveCapacity(count)
                for _ in 0..<count {
                    guard let element = value(depth: depth + 1) else { return nil }
                    elements.append(element)
                }
                return .array(elements)
            case .dictionary:
                guard let count = length() else { return nil }
                var members: [String: PropertyListValue] = [:]
                for _ in 0..<count {
                    guard let key = string(), let member = value(depth: depth + 1) else { return nil }
                    members[key] = member
                }
                return .dictionary(members)
            }
        }
    }
}

/// CRC-32 (IEEE 802.3, the polynomial of zlib and PNG), to tell a whole record from a torn one.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        return crc
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            return ~crc
        }
    }
}
