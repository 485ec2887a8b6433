/// How a value is kept in a store: a conversion to and from a ``PropertyListValue``.
///
/// Representations are values, so a key can carry its own (see ``PersistentKey``), and a type's
/// usual one is its ``KeyValuePersistible/persistentKeyValueRepresentation``. Any store works with
/// any representation, because stores only ever see `PropertyListValue`s.
///
/// ```swift
/// struct Celsius: Sendable { var degrees: Double }
///
/// let representation = ProxyPersistentKeyValueRepresentation<Celsius, Double>(
///     to: \.degrees,
///     from: Celsius.init(degrees:)
/// )
/// ```
public protocol PersistentKeyValueRepresentation<Value>: Sendable {
    /// The Swift type this representation stores.
    associatedtype Value

    /// Converts a value into what the store keeps.
    ///
    /// - Returns: The stored form, or `nil` when there is nothing to store (`Optional.none`);
    ///   setting a key to a value whose stored form is `nil` removes the key.
    /// - Throws: When the value cannot be represented; nothing is written then.
    func persistentValue(for value: Value) throws -> PropertyListValue?

    /// Converts what a store keeps back into a value.
    ///
    /// - Throws: ``PersistentKeyValueDecodingError`` (or the error of a decoder) when the stored
    ///   value is of the wrong kind or does not decode; readers then get the key's default.
    func value(from persistentValue: PropertyListValue) throws -> Value

    /// Whether every instance of this type decodes a stored value to the same value, and the
    /// value shares nothing mutable (no class instances): then a store that keeps decoded values
    /// (``InMemoryKeyValueStore``) may hand one decoded earlier to every key with this
    /// representation. `false` unless a representation says so: one with settings or closures
    /// (a proxy, a coder passed in) may decode the same value differently.
    var _decodesByTypeAlone: Bool { get }

    /// Whether this representation decodes a stored value to the same value every time it is
    /// asked: `true` unless it holds what the app may configure between two reads, as a decoder
    /// passed in to ``CodablePersistentKeyValueRepresentation``. A collection decodes its elements
    /// through their type's representation, and a store keeps it decoded
    /// (``_decodesByTypeAlone``) only while that representation says so.
    var _decodesAlike: Bool { get }

    /// Whether ``persistentValue(for:)`` certainly returns a stored form of `value` (not `nil`)
    /// that ``PropertyListValue/validateForPropertyList()`` accepts, and ``value(from:)`` reads
    /// that stored form back as `value` itself: then a store may keep `value` and build its
    /// stored form later (see ``_keepsUnencoded(_:)``).
    ///
    /// Decided without building the stored form, so only where that is cheap and certain: the
    /// library's primitives, and its collections and optionals of them. `false` by default.
    func _encodesExactly(_ value: Value) -> Bool

    /// Whether a store that keeps decoded values (``InMemoryKeyValueStore``) should keep `value`
    /// as it is, building its stored form only when that is read
    /// (``PersistentKeyValueStore/_setUnencodedValue(_:representation:forKey:)``).
    ///
    /// `true` only where ``_encodesExactly(_:)`` and ``_decodesByTypeAlone`` both hold, and reads
    /// use the decoded value: collections of the library's primitives, whose stored form the
    /// store may build under its lock (it calls no code of yours). `false` by default, and then
    /// the stored form is built and checked at once, which reports whatever is wrong.
    func _keepsUnencoded(_ value: Value) -> Bool
}

extension PersistentKeyValueRepresentation {
    public var _decodesByTypeAlone: Bool { false }

    public var _decodesAlike: Bool { true }

    public func _encodesExactly(_ value: Value) -> Bool { false }

    public func _keepsUnencoded(_ value: Value) -> Bool { false }
}

/// A stored value that a representation could not turn back into a Swift value.
public struct PersistentKeyValueDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The Swift type that was expected, like `"Int"`.
    public var expectedType: String
    /// What was found instead.
    public var found: String

    /// A mismatch: `expectedType` was expected, `found` (a phrase, like `a string`) was stored.
    public init(expectedType: String, found: String) {
        self.expectedType = expectedType
        self.found = found
    }

    /// A mismatch between the expected type and the stored value's kind.
    public static func typeMismatch<T>(_ type: T.Type, _ stored: PropertyListValue) -> Self {
        Self(expectedType: String(describing: type), found: stored.kindDescription)
    }

    public var description: String {
        "expected a value of type '\(expectedType)', found \(found)"
    }
}

/// A value that a representation could not turn into a stored value.
public struct PersistentKeyValueEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What could not be stored, and why.
    public var message: String

    /// An encoding failure described by `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
