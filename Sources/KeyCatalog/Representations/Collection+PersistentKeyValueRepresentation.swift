/// Stores an `Optional`: `nil` is stored as no value at all.
///
/// Setting a key to `nil` therefore removes it, and reading it back gives the key's default,
/// which is `nil` for the usual `PersistentKey<T?>(…, defaultValue: nil)`.
public struct OptionalPersistentKeyValueRepresentation<Wrapped: PersistentKeyValueRepresentation>: PersistentKeyValueRepresentation {
    public typealias Value = Wrapped.Value?

    /// The representation of the wrapped value.
    public let wrapped: Wrapped

    /// Stores optionals of what `wrapped` stores.
    @inlinable
    public init(wrapping wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    @inlinable
    public func persistentValue(for value: Value) throws -> PropertyListValue? {
        guard let value else { return nil }
        return try wrapped.persistentValue(for: value)
    }

    @inlinable
    public func value(from persistentValue: PropertyListValue) throws -> Value {
        try wrapped.value(from: persistentValue)
    }

    public var _decodesByTypeAlone: Bool { wrapped._decodesByTypeAlone }

    public var _decodesAlike: Bool { wrapped._decodesAlike }

    /// `nil` is stored as no value, so it is never kept as it is.
    @inlinable
    public func _encodesExactly(_ value: Value) -> Bool {
        guard let value else { return false }
        return wrapped._encodesExactly(value)
    }

    @inlinable
    public func _keepsUnencoded(_ value: Value) -> Bool {
        guard let value else { return false }
        return wrapped._keepsUnencoded(value)
    }
}

/// Stores a homogeneous array element by element, each through the element type's representation.
public struct ArrayPersistentKeyValueRepresentation<Element: KeyValuePersistible>: PersistentKeyValueRepresentation {
    public typealias Value = [Element]

    /// Whether the elements' representation decoded alike when this was made: asked once, as a
    /// type's representation may be made anew on each use (a Codable one makes its coders).
    public let _decodesAlike: Bool

    /// Creates the representation; it has no settings.
    @inlinable
    public init() {
        _decodesAlike = Element.persistentKeyValueRepresentation._decodesAlike
    }

    // Reached through a key's existential representation, this runs as the library's own code:
    // specialized for the common elements, it skips generic element dispatch.
    @inlinable
    @_specialize(where Element == String)
    @_specialize(where Element == Int)
    public func persistentValue(for value: [Element]) throws -> PropertyListValue? {
        let representation = Element.persistentKeyValueRepresentation
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(value.count)
        // By index, not `enumerated()`: its (offset, element) tuple made the runtime look up
        // tuple metadata on every write (about 300 instructions).
        for index in value.indices {
            guard let stored = try representation.persistentValue(for: value[index]) else {
                throw PersistentKeyValueEncodingError("array element \(index) is nil; a property list cannot hold nil")
            }
            elements.append(stored)
        }
        return .array(elements)
    }

    @inlinable
    @_specialize(where Element == String)
    @_specialize(where Element == Int)
    public func value(from persistentValue: PropertyListValue) throws -> [Element] {
        guard case .array(let elements) = persistentValue else {
            throw PersistentKeyValueDecodingError.typeMismatch([Element].self, persistentValue)
        }
        let representation = Element.persistentKeyValueRepresentation
        return try elements.map { try representation.value(from: $0) }
    }

    /// Elements go through their type's own representation, so the type alone decides, while
    /// that representation decodes alike (a decoder passed in may be configured meanwhile).
    public var _decodesByTypeAlone: Bool { !(Element.self is AnyClass) && _decodesAlike }

    /// When every element does.
    @inlinable
    @_specialize(where Element == String)
    @_specialize(where Element == Int)
    public func _encodesExactly(_ value: [Element]) -> Bool {
        let representation = Element.persistentKeyValueRepresentation
        for index in value.indices where !representation._encodesExactly(value[index]) {
            return false
        }
        return true
    }

    /// When it encodes exactly: elements that do are never class instances, so the type alone
    /// decides how it decodes.
    @inlinable
    @_specialize(where Element == String)
    @_specialize(where Element == Int)
    public func _keepsUnencoded(_ value: [Element]) -> Bool {
        _encodesExactly(value)
    }
}

/// Stores a homogeneous `[String: Value]` member by member, each through the value type's representation.
public struct DictionaryPersistentKeyValueRepresentation<Member: KeyValuePersistible>: PersistentKeyValueRepresentation {
    public typealias Value = [String: Member]

    /// Whether the members' representation decoded alike when this was made: asked once, as a
    /// type's representation may be made anew on each use (a Codable one makes its coders).
    public let _decodesAlike: Bool

    /// Creates the representation; it has no settings.
    @inlinable
    public init() {
        _decodesAlike = Member.persistentKeyValueRepresentation._decodesAlike
    }

    @inlinable
    @_specialize(where Member == String)
    @_specialize(where Member == Int)
    public func persistentValue(for value: [String: Member]) throws -> PropertyListValue? {
        let representation = Member.persistentKeyValueRepresentation
        var members: [String: PropertyListValue] = [:]
        members.reserveCapacity(value.count)
        for (key, member) in value {
            guard let stored = try representation.persistentValue(for: member) else {
                throw PersistentKeyValueEncodingError("dictionary value for '\(key)' is nil; a property list cannot hold nil")
            }
            members[key] = stored
        }
        return .dictionary(members)
    }

    @inlinable
    @_specialize(where Member == String)
    @_specialize(where Member == Int)
    public func value(from persistentValue: PropertyListValue) throws -> [String: Member] {
        guard case .dictionary(let members) = persistentValue else {
            throw PersistentKeyValueDecodingError.typeMismatch([String: Member].self, persistentValue)
        }
        let representation = Member.persistentKeyValueRepresentation
        return try members.mapValues { try representation.value(from: $0) }
    }

    /// Members go through their type's own representation, so the type alone decides, while
    /// that representation decodes alike (a decoder passed in may be configured meanwhile).
    public var _decodesByTypeAlone: Bool { !(Member.self is AnyClass) && _decodesAlike }

    /// When every member does, and no key may hold a character a property list refuses.
    @inlinable
    @_specialize(where Member == String)
    @_specialize(where Member == Int)
    public func _encodesExactly(_ value: [String: Member]) -> Bool {
        let representation = Member.persistentKeyValueRepresentation
        for (key, member) in value where !key._encodesExactly || !representation._encodesExactly(member) {
            return false
        }
        return true
    }

    /// When it encodes exactly: members that do are never class instances, so the type alone
    /// decides how it decodes.
    @inlinable
    @_specialize(where Member == String)
    @_specialize(where Member == Int)
    public func _keepsUnencoded(_ value: [String: Member]) -> Bool {
        _encodesExactly(value)
    }
}

extension Optional: KeyValuePersistible where Wrapped: KeyValuePersistible {
    @inlinable
    public static var persistentKeyValueRepresentation: OptionalPersistentKeyValueRepresentation<Wrapped.PersistentKeyValueRepresentationType> {
        OptionalPersistentKeyValueRepresentation(wrapping: Wrapped.persistentKeyValueRepresentation)
    }
}

extension Array: KeyValuePersistible where Element: KeyValuePersistible {
    @inlinable
    public static var persistentKeyValueRepresentation: ArrayPersistentKeyValueRepresentation<Element> {
        ArrayPersistentKeyValueRepresentation()
    }
}

extension Dictionary: KeyValuePersistible where Key == String, Value: KeyValuePersistible {
    @inlinable
    public static var persistentKeyValueRepresentation: DictionaryPersistentKeyValueRepresentation<Value> {
        DictionaryPersistentKeyValueRepresentation()
    }
}
