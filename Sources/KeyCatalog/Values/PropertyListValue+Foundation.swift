import Foundation

extension PropertyListValue {
    /// Bridges a property-list object as Foundation returns it (`UserDefaults.object(forKey:)`,
    /// `PropertyListSerialization`) into a typed value; `nil` when it is not a property-list type.
    public init?(foundationObject object: Any) {
        // The hot path: an exact Swift type, which is what Foundation hands back on Linux. Comparing
        // metatypes is cheap; a failing `as?` cast (an Int tried as a String) searches for bridging
        // conformances and costs more than the whole UserDefaults lookup it follows.
        let dynamicType = Swift.type(of: object)
        if dynamicType == Int.self {
            self = .int(Self.unwrap(object, as: Int.self))
            return
        }
        if dynamicType == String.self {
            self = .string(Self.unwrap(object, as: String.self))
            return
        }
        if dynamicType == Bool.self {
            self = .bool(Self.unwrap(object, as: Bool.self))
            return
        }
        if dynamicType == Double.self {
            self = .double(Self.unwrap(object, as: Double.self))
            return
        }
        if dynamicType == Data.self {
            self = .data(Self.unwrap(object, as: Data.self))
            return
        }
        // Arrays come back as `[Any?]` on Linux (elements wrapped in Optional): converting them
        // here, before any `as?` cast, skips the casts below, which each search for bridging
        // conformances and together cost more than the UserDefaults lookup itself.
        if dynamicType == [Any?].self {
            guard let array = Self.array(converting: object as! [Any?], { $0 }) else { return nil }
            self = array
            return
        }
        // What `PropertyListSerialization` hands back on Linux: by their exact types too, since
        // the casts below cost about 40,000 instructions for a dictionary (callgrind).
        if dynamicType == [AnyHashable: Any].self {
            var members: [String: PropertyListValue] = [:]
            let dictionary = object as! [AnyHashable: Any]
            members.reserveCapacity(dictionary.count)
            for (key, member) in dictionary {
                // A Swift `String` by its type; an `NSString` (which `AnyHashable` keeps as it is
                // on Linux) by the cast.
                let name = Swift.type(of: key.base) == String.self ? Self.unwrap(key.base, as: String.self) : key.base as? String
                guard let name, let converted = PropertyListValue(foundationObject: member) else { return nil }
                members[name] = converted
            }
            self = .dictionary(members)
            return
        }
        // What ``foundationObject`` makes of a dictionary, as a store that keeps Swift values hands
        // it back (iCloud's stand-in on Linux, a test's fake): by its exact type too, since each
        // cast below tried on it bridges the whole dictionary first (about 40,000 instructions for
        // iCloud sync's three-member envelope, callgrind).
        if dynamicType == [String: Any].self {
            guard let dictionary = Self.dictionary(converting: Self.unwrap(object, as: [String: Any].self), { $0 }) else { return nil }
            self = dictionary
            return
        }
        if dynamicType == [Any].self {
            guard let array = Self.array(converting: object as! [Any], { $0 }) else { return nil }
            self = array
            return
        }
        if dynamicType == Date.self {
            self = .date(Self.unwrap(object, as: Date.self))
            return
        }
        // Values of `persistentDomain(forName:)` and arrays come back wrapped in Optional on Linux.
        if let optional = object as? any _OptionalWrapping {
            guard let wrapped = optional._wrapped else { return nil }
            self.init(foundationObject: wrapped)
            return
        }
        // Exact Swift types first: they are what Foundation hands back on Linux, and checking
        // them by type avoids NSNumber's Bool/Int ambiguity.
        switch object {
        case let value as String: self = .string(value)
        case let value as Int where type(of: object) == Int.self: self = .int(value)
        case let value as Bool where type(of: object) == Bool.self: self = .bool(value)
        case let value as Double where type(of: object) == Double.self: self = .double(value)
        case let value as Data: self = .data(value)
        case let value as Date: self = .date(value)
        case let value as NSNumber where type(of: object) is NSNumber.Type:
            self = Self(number: value)
        case let value as [Any?]:
            guard let array = Self.array(converting: value, { $0 }) else { return nil }
            self = array
        case let value as [String: Any?]:
            guard let dictionary = Self.dictionary(converting: value, { $0 }) else { return nil }
            self = dictionary
        default:
            if let value = Self(otherInteger: object) {
                self = value
            } else {
                return nil
            }
        }
    }

    /// An array of `elements`, each converted from the object `object(element)` gives: `nil` when
    /// one is `nil` (an element Foundation wrapped in `Optional`) or not a property-list value.
    @inline(__always)
    private static func array<Element>(converting elements: [Element], _ object: (Element) -> Any?) -> Self? {
        var converted: [PropertyListValue] = []
        converted.reserveCapacity(elements.count)
        for element in elements {
            guard let element = object(element), let value = PropertyListValue(foundationObject: element) else { return nil }
            converted.append(value)
        }
        return .array(converted)
    }

    /// A dictionary of `members`, converted as ``array(converting:_:)`` converts elements.
    @inline(__always)
    private static func dictionary<Member>(converting members: [String: Member], _ object: (Member) -> Any?) -> Self? {
        var converted: [String: PropertyListValue] = [:]
        converted.reserveCapacity(members.count)
        for (key, member) in members {
            guard let member = object(member), let value = PropertyListValue(foundationObject: member) else { return nil }
            converted[key] = value
        }
        return .dictionary(converted)
    }

    /// The value in `object`, whose dynamic type was just checked to be `Target`: opening the
    /// existential costs a fraction of `as!`, which runs the whole dynamic cast (about 300
    /// instructions, 7 % of a UserDefaults read). An `Any` inside the `Any` (the
    /// dynamic type looks through it, opening does not) takes the cast.
    @inline(__always)
    private static func unwrap<Target>(_ object: Any, as _: Target.Type) -> Target {
        func take<Contained>(_ contained: Contained) -> Target {
            Contained.self == Target.self ? unsafeBitCast(contained, to: Target.self) : contained as! Target
        }
        return _openExistential(object, do: take)
    }

    private init(number: NSNumber) {
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "c"), UInt8(ascii: "B"):
            // `char` is how NSNumber spells a Bool, and an 8-bit integer on Apple platforms: a
            // Bool is Foundation's boolean class (`kCFBooleanTrue`, `kCFBooleanFalse`).
            self = Self.isBoolean(number) ? .bool(number.boolValue) : .int(number.intValue)
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            self = .double(number.doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"):
            let value = number.uint64Value
            self = value > UInt64(Int.max) ? .uint(value) : .int(Int(value))
        default:
            self = .int(number.intValue)
        }
    }

    /// Whether `number` is a Bool: an object of the class `NSNumber(value: true)` has
    /// (`__NSCFBoolean`, on Apple platforms and on Linux).
    private static func isBoolean(_ number: NSNumber) -> Bool {
        ObjectIdentifier(type(of: number)) == booleanClass
    }

    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    private init?(otherInteger object: Any) {
        switch object {
        case let value as any FixedWidthInteger:
            if let signed = Int(exactly: value) {
                self = .int(signed)
            } else if let unsigned = UInt64(exactly: value) {
                self = .uint(unsigned)
            } else {
                return nil
            }
        case let value as Float: self = .double(Double(value))
        default: return nil
        }
    }

    /// The Foundation object for this value, as `UserDefaults.set(_:forKey:)` and
    /// `PropertyListSerialization` take it.
    public var foundationObject: Any {
        switch self {
        case .bool(let value): value
        case .int(let value): value
        case .uint(let value): value
        case .double(let value): value
        case .string(let value): value
        case .data(let value): value
        case .date(let value): value
        case .array(let elements): Self.foundationArray(elements)
        case .dictionary(let members): members.mapValues(\.foundationObject)
        }
    }

    /// An array of one primitive type as that Swift array (`[String]`, `[Int]`…), others as
    /// `[Any]`. Foundation bridges `[String]` to an `NSArray` without casting each element
    /// dynamically, as it must for `[Any]`: a UserDefaults `set` of four strings took 13,800 fewer
    /// instructions (callgrind), and reads back the same `NSArray`.
    private static func foundationArray(_ elements: [PropertyListValue]) -> Any {
        switch elements.first {
        case .string?: if let strings = homogeneous(elements, { if case .string(let value) = $0 { value } else { nil } }) { return strings }
        case .int?: if let integers = homogeneous(elements, { if case .int(let value) = $0 { value } else { nil } }) { return integers }
        case .double?: if let doubles = homogeneous(elements, { if case .double(let value) = $0 { value } else { nil } }) { return doubles }
        case .bool?: if let booleans = homogeneous(elements, { if case .bool(let value) = $0 { value } else { nil } }) { return booleans }
        case .data?: if let data = homogeneous(elements, { if case .data(let value) = $0 { value } else { nil } }) { return data }
        case .date?: if let dates = homogeneous(elements, { if case .date(let value) = $0 { value } else { nil } }) { return dates }
        default: break
        }
        return elements.map(\.foundationObject)
    }

    /// Every element's payload, when `payload` finds one in each.
    @inline(__always)
    private static func homogeneous<Element>(_ elements: [PropertyListValue], _ payload: (PropertyListValue) -> Element?) -> [Element]? {
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard let value = payload(element) else { return nil }
            result.append(value)
        }
        return result
    }
}

/// Lets a value of unknown type that is an `Optional` be unwrapped.
private protocol _OptionalWrapping {
    var _wrapped: Any? { get }
}

extension Optional: _OptionalWrapping {
    fileprivate var _wrapped: Any? {
        switch self {
        case .some(let value): value
        case .none: nil
        }
    }
}

#if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
extension PropertyListValue {
    /// ``foundationObject`` with arrays and dictionaries as `NSArray` and `NSDictionary`, as
    /// KeyCatalog hands them to `UserDefaults.set(_:forKey:)` on Linux. swift-corelibs-foundation
    /// converts a Swift collection it is given element by element, through dynamic casts; one
    /// made here costs less: a `set` of four strings 18 % fewer instructions in KeyCatalog's
    /// benchmark (callgrind), of a three-member dictionary 18 % fewer in a program that only
    /// writes. What is stored and read back is the same, and so is the file.
    var userDefaultsObject: Any {
        switch self {
        case .array(let elements): NSArray(array: elements.map(\.userDefaultsObject))
        case .dictionary(let members): NSDictionary(dictionary: members.mapValues(\.userDefaultsObject))
        default: foundationObject
        }
    }
}
#endif
