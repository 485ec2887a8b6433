import Foundation

/// An encoder whose output a store can keep: `JSONEncoder` and `PropertyListEncoder` qualify.
///
/// This stands in for Combine's `TopLevelEncoder`, which does not exist on Linux.
public protocol PersistentKeyValueEncoder<Output> {
    /// What the encoder makes: `Data` for JSON and property lists.
    associatedtype Output: KeyValuePersistible
    /// Encodes `value`.
    func encode<T: Encodable>(_ value: T) throws -> Output
}

/// A decoder for what a ``PersistentKeyValueEncoder`` wrote.
public protocol PersistentKeyValueDecoder<Input> {
    /// What the decoder reads: the encoder's output.
    associatedtype Input: KeyValuePersistible
    /// Decodes a value of `type` from `input`.
    func decode<T: Decodable>(_ type: T.Type, from input: Input) throws -> T
}

extension JSONEncoder: PersistentKeyValueEncoder {}
extension JSONDecoder: PersistentKeyValueDecoder {}
extension PropertyListEncoder: PersistentKeyValueEncoder {}
extension PropertyListDecoder: PersistentKeyValueDecoder {}

/// Stores a `Codable` value as what an encoder makes of it: JSON `Data` unless told otherwise.
///
/// ```swift
/// struct Contact: Codable, Sendable {
///     let nickname: String
///     let dateOfBirth: Date
/// }
///
/// extension Contact: KeyValuePersistible {
///     static var persistentKeyValueRepresentation: some PersistentKeyValueRepresentation<Self> {
///         CodablePersistentKeyValueRepresentation()
///     }
/// }
/// ```
public struct CodablePersistentKeyValueRepresentation<Value: Codable, Encoder: PersistentKeyValueEncoder & Sendable, Decoder: PersistentKeyValueDecoder & Sendable>: PersistentKeyValueRepresentation
where Encoder.Output == Decoder.Input {
    /// The encoder that writes values.
    public let encoder: Encoder
    /// The decoder that reads them back.
    ///
    /// Asking for the decoder of a representation made with ``init()`` (to configure it) turns
    /// off that representation's memo of decoded values: its reads decode every time, with the
    /// decoder as configured.
    public var decoder: Decoder {
        memoization?.withLock { $0 = false }
        return configuredDecoder
    }
    private let configuredDecoder: Decoder
    /// Whether decoded values are memoized by their bytes (`nil`: never): for the JSON decoder
    /// ``init()`` makes, while its configuration is the known one, which the memo's values were
    /// all decoded with. A decoder passed in may be configured, or reconfigured, in ways the bytes
    /// alone do not capture, and so may one asked for through ``decoder``.
    private let memoization: _Locked<Bool>?

    /// Uses the given encoder and decoder, which must agree on their format.
    public init(encoder: Encoder, decoder: Decoder) {
        self.init(encoder: encoder, decoder: decoder, memoizesDecodedValues: false)
    }

    init(encoder: Encoder, decoder: Decoder, memoizesDecodedValues: Bool) {
        self.encoder = encoder
        self.configuredDecoder = decoder
        self.memoization = memoizesDecodedValues ? _Locked(true) : nil
    }

    /// Whether this representation's reads use the memo now.
    var memoizesDecodedValues: Bool { memoization?.withLock { $0 } ?? false }

    /// Only while its reads use the memo: a decoder passed in, or handed out through
    /// ``decoder``, may be configured between two reads.
    public var _decodesAlike: Bool { memoizesDecodedValues }

    public func persistentValue(for value: Value) throws -> PropertyListValue? {
        try Encoder.Output.persistentKeyValueRepresentation.persistentValue(for: encoder.encode(value))
    }

    public func value(from persistentValue: PropertyListValue) throws -> Value {
        let memo = DecodedValueMemo.shared
        if memoizesDecodedValues, case .data(let bytes) = persistentValue, memo.accepts(Value.self, bytes) {
            // Stored bytes decoded before: the same value, without decoding them again.
            if let value = memo.value(Value.self, decodedFrom: bytes) { return value }
            let value = try configuredDecoder.decode(Value.self, from: Decoder.Input.persistentKeyValueRepresentation.value(from: persistentValue))
            // Not if the decoder was handed out meanwhile: it may have been configured before it
            // decoded (it is handed out only after the memo is turned off).
            if memoizesDecodedValues { memo.keep(value, decodedFrom: bytes) }
            return value
        }
        let input = try Decoder.Input.persistentKeyValueRepresentation.value(from: persistentValue)
        return try configuredDecoder.decode(Value.self, from: input)
    }
}

extension CodablePersistentKeyValueRepresentation where Encoder == JSONEncoder, Decoder == JSONDecoder {
    /// Stores the value as JSON `Data`, with sorted keys so equal values store equal bytes.
    ///
    /// Values read back are memoized by their stored bytes (value types, up to 16 KB): reading a
    /// key whose bytes did not change does not decode them again.
    public init() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        self.init(encoder: encoder, decoder: JSONDecoder(), memoizesDecodedValues: true)
    }
}
