import Foundation

extension Bool: PrimitiveKeyValuePersistible {
    @inlinable
    public var primitivePersistentValue: PropertyListValue { .bool(self) }

    public var _encodesExactly: Bool { true }

    @inlinable
    public init(primitivePersistentValue stored: PropertyListValue) throws {
        switch stored {
        case .bool(let value): self = value
        // Foundation cannot always tell a stored 0/1 from false/true.
        case .int(0): self = false
        case .int(1): self = true
        default: throw PersistentKeyValueDecodingError.typeMismatch(Bool.self, stored)
        }
    }
}

extension String: PrimitiveKeyValuePersistible {
    @inlinable
    public var primitivePersistentValue: PropertyListValue { .string(self) }

    /// The quick scan that ``PropertyListValue/validateForPropertyList()`` starts with: a string
    /// it flags is built and checked in full. (Inlinable: a `[String]` write checks every
    /// element, a small one in about 20 instructions.)
    @inlinable
    public var _encodesExactly: Bool { !PropertyListValue.mayHoldControlOrSpecialScalar(self) }

    @inlinable
    public init(primitivePersistentValue stored: PropertyListValue) throws {
        guard case .string(let value) = stored else {
            throw PersistentKeyValueDecodingError.typeMismatch(String.self, stored)
        }
        self = value
    }
}

extension Data: PrimitiveKeyValuePersistible {
    @inlinable
    public var primitivePersistentValue: PropertyListValue { .data(self) }

    public var _encodesExactly: Bool { true }

    @inlinable
    public init(primitivePersistentValue stored: PropertyListValue) throws {
        guard case .data(let value) = stored else {
            throw PersistentKeyValueDecodingError.typeMismatch(Data.self, stored)
        }
        self = value
    }
}

extension Double: PrimitiveKeyValuePersistible {
    @inlinable
    public var primitivePersistentValue: PropertyListValue { .double(self) }

    public var _encodesExactly: Bool { true }

    @inlinable
    public init(primitivePersistentValue stored: PropertyListValue) throws {
        switch stored {
        case .double(let value): self = value
        case .int(let value): self = Double(value)
        case .uint(let value): self = Double(value)
        default: throw PersistentKeyValueDecodingError.typeMismatch(Double.self, stored)
        }
    }
}

extension Float: PrimitiveKeyValuePersistible {
    /// Stored as a `Double`: property lists and UserDefaults on Linux read floats back as doubles.
    @inlinable
    public var primitivePersistentValue: PropertyListValue { .double(Double(self)) }

    /// A signaling NaN comes back quiet from its `Double`.
    public var _encodesExactly: Bool { !isSignalingNaN }

    @inlinable
    public init(primitivePersistentValue stored: PropertyListValue) throws {
        let double = try Double(primitivePersistentValue: stored)
        let float = Float(double)
        // Beyond Float's range a value would become infinity, or zero: refused, as an integer
        // out of its type's range is.
        guard float.isFinite || !double.isFinite, float != 0 || double == 0 else {
            throw PersistentKeyValueDecodingError(expectedType: "Float", found: "\(stored) (out of range)")
        }
        self = float
    }
}

/// The integers share one conversion; each conformance only names its type.
public protocol _IntegerKeyValuePersistible: PrimitiveKeyValuePersistible, FixedWidthInteger {}

extension _IntegerKeyValuePersistible {
    @inlinable
    public var primitivePersistentValue: PropertyListValue {
        if let value = Int(exactly: self) { return .int(value) }
        return .uint(UInt64(self))
    }

    public var _encodesExactly: Bool { true }

    @inlinable
    public init(primitivePersistentValue stored: PropertyListValue) throws {
        let converted: Self?
        switch stored {
        case .int(let value): converted = Self(exactly: value)
        case .uint(let value): converted = Self(exactly: value)
        // Some writers store whole numbers as reals; accept them only when exact.
        case .double(let value): converted = Self(exactly: value)
        default: throw PersistentKeyValueDecodingError.typeMismatch(Self.self, stored)
        }
        guard let converted else {
            throw PersistentKeyValueDecodingError(
                expectedType: String(describing: Self.self),
                found: "\(stored) (out of range)"
            )
        }
        self = converted
    }
}

extension Int: _IntegerKeyValuePersistible {
    // The hot path: no range checks for the common case.
    @inlinable
    public var primitivePersistentValue: PropertyListValue { .int(self) }
}
extension Int8: _IntegerKeyValuePersistible {}
extension Int16: _IntegerKeyValuePersistible {}
extension Int32: _IntegerKeyValuePersistible {}
extension Int64: _IntegerKeyValuePersistible {}
extension UInt: _IntegerKeyValuePersistible {}
extension UInt8: _IntegerKeyValuePersistible {}
extension UInt16: _IntegerKeyValuePersistible {}
extension UInt32: _IntegerKeyValuePersistible {}
extension UInt64: _IntegerKeyValuePersistible {}
