import Foundation

/// One row of a catalog's registration table: a declared key, what it is, and what can be done
/// with it without knowing its type. Settings screens, docs and "reset everything" iterate these.
///
/// ```swift
/// let stores = Keys().stores
/// for entry in Keys.entries {
///     guard let store = stores[entry.store] else { continue }
///     print(entry.name, entry.storageKey, entry.typeName, entry.currentValueDescription(in: store))
/// }
/// ```
public struct KeyCatalogEntry: Sendable, Identifiable {
    /// The key's Swift name, like `launchCount`.
    public let name: String
    /// The storage key; for a parameterized key, its template like `{listID}::SelectedLayoutID`.
    public let storageKey: String
    /// The name of the declared store the key lives in.
    public let store: String
    /// The value type as declared, like `[String: Int]`.
    public let typeName: String
    /// The default as Swift would print it; for a debug key, the default of this build.
    public let defaultDescription: String
    /// The key's documentation, if declared.
    public let doc: String?
    /// The parameter names of a parameterized key; empty otherwise.
    public let parameters: [String]
    /// Whether the key is a debug key (fixed to its release default in Release builds).
    public let isDebugKey: Bool
    /// The deprecation message, if the key is deprecated.
    public let deprecationMessage: String?
    /// Whether the key holds a secret, whose value should not be shown.
    public let isSecret: Bool

    private let operations: Operations?

    public var id: String { name }

    /// An entry for a concrete key.
    public init<Key: PersistentKeyProtocol>(
        name: String,
        key: Key,
        store: String,
        typeName: String,
        doc: String? = nil,
        isDebugKey: Bool = false,
        deprecationMessage: String? = nil,
        isSecret: Bool = false
    ) {
        self.name = name
        self.storageKey = key.id
        self.store = store
        self.typeName = typeName
        self.defaultDescription = Self.describe(key.defaultValue)
        self.doc = doc
        self.parameters = []
        self.isDebugKey = isDebugKey
        self.deprecationMessage = deprecationMessage
        self.isSecret = isSecret
        self.operations = Operations(key)
    }

    /// An entry for a parameterized key, which has no single storage key to read or reset.
    public init(
        name: String,
        storageKeyTemplate: String,
        parameters: [String],
        store: String,
        typeName: String,
        defaultDescription: String,
        doc: String? = nil,
        isDebugKey: Bool = false,
        deprecationMessage: String? = nil,
        isSecret: Bool = false
    ) {
        self.name = name
        self.storageKey = storageKeyTemplate
        self.store = store
        self.typeName = typeName
        self.defaultDescription = defaultDescription
        self.doc = doc
        self.parameters = parameters
        self.isDebugKey = isDebugKey
        self.deprecationMessage = deprecationMessage
        self.isSecret = isSecret
        self.operations = nil
    }

    /// Whether the entry stands for a parameterized key (no single storage key).
    public var isParameterized: Bool { operations == nil }

    /// The key's current value in `store`, described; `nil` for a parameterized key.
    public func currentValueDescription(in store: some PersistentKeyValueStore) -> String? {
        operations?.describeValue(store)
    }

    /// Whether `store` holds a value for the key.
    public func isStored(in store: some PersistentKeyValueStore) -> Bool {
        operations?.contains(store) ?? false
    }

    /// Removes the key's value from `store`, so reads give the default.
    public func reset(in store: some PersistentKeyValueStore) {
        operations?.remove(store)
    }

    /// Registers the key's default in `store`'s registration domain.
    public func register(in store: some PersistentKeyValueStore) {
        operations?.register(store)
    }

    /// Parses `text` as the key's value and stores it.
    ///
    /// JSON is tried first (`42`, `true`, `"text"`, `["a","b"]`, `{"a":1}`), then the bare text as
    /// a string, each through the key's representation: `dark` sets an enum, `2026-01-01T00:00:00Z`
    /// a date (whatever its representation), `+5` or `042` an integer. `null` removes an optional
    /// key's value (it then reads its default); for other keys it is the text `null`.
    ///
    /// - Throws: ``KeyCatalogEntry/ParseError`` when the text is no valid value, or
    ///   ``PersistentKeyValueFailure`` when the store refuses the value; nothing is written then.
    public func setValue(parsing text: String, in store: some PersistentKeyValueStore) throws {
        guard let operations else { throw ParseError(key: name, text: text, reason: "a parameterized key needs its parameters") }
        do {
            try operations.setParsing(store, text)
        } catch let error as ParseError {
            throw ParseError(key: name, text: text, reason: error.reason)
        }
    }

    /// Writes one validated value into a store (see ``KeyCatalogSettings``).
    typealias Write = @Sendable (any PersistentKeyValueStore) throws -> Void

    /// The key's stored value as its representation writes it, when it is stored and differs
    /// from the default; `nil` otherwise (and for a parameterized key).
    func exportedValue(in store: some PersistentKeyValueStore) -> PropertyListValue? {
        operations?.exported(store)
    }

    /// Decodes `stored` through the key's type and representation, and returns the write of it.
    ///
    /// - Throws: ``ParseError`` naming why the value is not one the key accepts.
    func validatedWrite(of stored: PropertyListValue) throws -> Write {
        guard let operations else { throw ParseError(key: name, text: "\(stored)", reason: "a parameterized key needs its parameters") }
        do {
            return try operations.validate(stored)
        } catch let error as ParseError {
            throw ParseError(key: name, text: error.text, reason: error.reason)
        }
    }

    /// A command-line value that is not a valid value of the key.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        /// The key's name in the catalog, like `launchCount`.
        public var key: String
        /// The text that was given.
        public var text: String
        /// Why the text is no value of the key, like `out of range for Int8 (-128...127)`.
        public var reason: String

        public var description: String { "'\(text)' is not a valid value for '\(key)': \(reason)" }
    }

    static func describe(_ value: Any) -> String {
        var output = ""
        if let optional = value as? _OptionalDescribing {
            return optional._describedOrNil
        }
        if let string = value as? String { return "\"\(string)\"" }
        if let dictionary = value as? [String: Any] {
            // Sorted, so the same value always reads the same.
            let members = dictionary.keys.sorted().map { "\"\($0)\": \(describe(dictionary[$0]!))" }
            return members.isEmpty ? "[:]" : "[\(members.joined(separator: ", "))]"
        }
        print(value, terminator: "", to: &output)
        return output
    }
}

extension KeyCatalogEntry {
    /// The operations of one concrete key, erased.
    private struct Operations: Sendable {
        let describeValue: @Sendable (any PersistentKeyValueStore) -> String
        let contains: @Sendable (any PersistentKeyValueStore) -> Bool
        let remove: @Sendable (any PersistentKeyValueStore) -> Void
        let register: @Sendable (any PersistentKeyValueStore) -> Void
        let setParsing: @Sendable (any PersistentKeyValueStore, String) throws -> Void
        let exported: @Sendable (any PersistentKeyValueStore) -> PropertyListValue?
        let validate: @Sendable (PropertyListValue) throws -> Write

        init<Key: PersistentKeyProtocol>(_ key: Key) {
            // A debug key in a Release build: fixed at its release default, its stored value unused.
            let isFixed = !key.isStoreAccessEnabled
            let fixed = "a debug key, fixed at its release default in this build"
            exported = { store in
                guard !isFixed, store.hasPersistentValue(forKey: key.id), let stored = store.persistentValue(forKey: key.id) else { return nil }
                // Through the key's type: what the document holds must be a value the key accepts.
                guard let value = try? key.representation.persistentValue(for: store._decode(stored, for: key)) else { return nil }
                return value == (try? key.representation.persistentValue(for: key.defaultValue)) ? nil : value
            }
            validate = { stored in
                if isFixed { throw ParseError(key: key.id, text: "\(stored)", reason: fixed) }
                // JSON numbers lose the difference between 3 and 3.0: try the other reading too.
                var candidates = [stored]
                switch stored {
                case .int(let int): candidates.append(.double(Double(int)))
                case .double(let double) where double.rounded() == double && abs(double) < 0x1p63: candidates.append(.int(Int(double)))
                default: break
                }
                var reasons: [String] = []
                for candidate in candidates {
                    do {
                        let value = try key.representation.value(from: candidate)
                        // A URL without a scheme (a path) is one only if it reads back as written:
                        // the store holds such URLs, and export writes them.
                        if let url = _unwrapped(value) as? URL, url.scheme == nil, candidate != .string(url.absoluteString) {
                            throw ParseError(key: key.id, text: "\(candidate)", reason: "not an absolute URL")
                        }
                        try key.representation.persistentValue(for: value)?.validateForPropertyList()
                        return { store in try store._set(key, to: value) }
                    } catch let error as ParseError {
                        reasons.append(error.reason)
                    } catch {
                        reasons.append("\(error)")
                    }
                }
                throw ParseError(key: key.id, text: "\(stored)", reason: reasons.first ?? "not a valid value")
            }
            describeValue = { store in KeyCatalogEntry.describe(store.get(key)) }
            contains = { store in store.contains(key) }
            remove = { store in store.remove(key) }
            register = { store in store.register(key) }
            setParsing = { store, text in
                if isFixed { throw ParseError(key: key.id, text: text, reason: fixed) }
                switch try Self.parse(text, for: key) {
                case .value(let value): try store._set(key, to: value)
                case .removal: store.remove(key)
                }
            }
        }

        /// What a text stands for: a value, or, for an optional key, `null`: no value.
        enum Parsed<Value> {
            case value(Value)
            case removal
        }

        static func parse<Key: PersistentKeyProtocol>(_ text: String, for key: Key) throws -> Parsed<Key.Value> {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            var candidates: [PropertyListValue] = []
            if let json = try? _JSONDocument.object(from: Data(text.utf8)) {
                if json is NSNull {
                    // `null` for an optional key: no value (reads the default). Other keys read it
                    // as the text "null" below.
                    if Key.Value.self is any _OptionalWrapping.Type { return .removal }
                } else if let value = PropertyListValue(foundationObject: json) {
                    candidates.append(value)
                }
            }
            let valueType = _unwrappedType(Key.Value.self)
            // Numbers JSON does not allow: `+5`, `042`.
            if valueType is any FixedWidthInteger.Type, candidates.isEmpty {
                if let int = Int(trimmed) {
                    candidates.append(.int(int))
                } else if let uint = UInt64(trimmed) {
                    candidates.append(.uint(uint))
                }
            }
            // The documented form of a date: ISO 8601 with a time zone, whatever the representation.
            if valueType == Date.self, let date = try? ISO8601DatePersistentKeyValueRepresentation().value(from: .string(trimmed)) {
                candidates.append(.date(date))
            }
            let typedAsJSON: Bool
            if case .string = candidates.first ?? .string("") { typedAsJSON = false } else { typedAsJSON = true }
            candidates.append(.string(text))
            var errors: [any Error] = []
            for candidate in candidates {
                do {
                    let value = try key.representation.value(from: candidate)
                    if let url = _unwrapped(value) as? URL, url.scheme == nil {
                        throw ParseError(key: key.id, text: text, reason: "not an absolute URL; write it with its scheme, like https://example.com/path")
                    }
                    return .value(value)
                } catch let error as ParseError {
                    throw error
                } catch {
                    errors.append(error)
                }
            }
            // Say why in the value type's terms; else the representation's own words, for the JSON
            // reading when the text was JSON other than a string (`3.5`, `[1]`), the text otherwise.
            let fallback = (typedAsJSON ? errors.first : errors.last).map { String(describing: $0) } ?? "unreadable"
            throw ParseError(key: key.id, text: text, reason: rejectionReason(text, for: valueType) ?? fallback)
        }

        /// The cases as they are written: raw values for a raw-value enum, names otherwise.
        static func caseNames<T: CaseIterable>(_ type: T.Type) -> [String] {
            type.allCases.map { value in
                if let raw = value as? any RawRepresentable { "\(raw.rawValue)" } else { "\(value)" }
            }
        }

        /// Why `text` is no value of `type`, for the types whose rules a person can be told.
        static func rejectionReason(_ text: String, for type: Any.Type) -> String? {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let integer = type as? any FixedWidthInteger.Type {
                let range = "\(integer.min)...\(integer.max)"
                let digits = trimmed.first == "-" || trimmed.first == "+" ? trimmed.dropFirst() : Substring(trimmed)
                if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                    return "out of range for \(integer) (\(range))"
                }
                return "not an integer; \(integer) holds whole numbers in \(range)"
            }
            if let enumeration = type as? any CaseIterable.Type {
                return "not a case of \(type); the cases are: \(caseNames(enumeration).joined(separator: ", "))"
            }
            if type == Bool.self { return "not a Bool; write true or false" }
            if type == Float.self, let double = Double(trimmed), double.isFinite {
                return "out of range for Float (nonzero magnitudes from \(Float.leastNonzeroMagnitude) to \(Float.greatestFiniteMagnitude))"
            }
            if type == Double.self || type == Float.self { return "not a number; write it like 1.5" }
            if type == URL.self { return "not an absolute URL; write it with its scheme, like https://example.com/path" }
            if type == UUID.self { return "not a UUID; write it like 123E4567-E89B-12D3-A456-426614174000" }
            if type == Date.self { return "not an ISO 8601 date with a time zone; write it like 2026-01-01T00:00:00Z" }
            return nil
        }
    }
}

/// The wrapped type of an optional type, at any depth; other types as they are.
private func _unwrappedType(_ type: Any.Type) -> Any.Type {
    if let optional = type as? any _OptionalWrapping.Type { return _unwrappedType(optional._wrappedType) }
    return type
}

/// The wrapped value of an optional, at any depth; `nil` for none; other values as they are.
private func _unwrapped(_ value: Any) -> Any? {
    if let optional = value as? any _OptionalWrapping { return optional._wrappedValue.flatMap(_unwrapped) }
    return value
}

private protocol _OptionalWrapping {
    static var _wrappedType: Any.Type { get }
    var _wrappedValue: Any? { get }
}

extension Optional: _OptionalWrapping {
    fileprivate static var _wrappedType: Any.Type { Wrapped.self }
    fileprivate var _wrappedValue: Any? { self.map { $0 as Any } }
}

private protocol _OptionalDescribing {
    var _describedOrNil: String { get }
}

extension Optional: _OptionalDescribing {
    fileprivate var _describedOrNil: String {
        switch self {
        case .none: "nil"
        case .some(let wrapped): KeyCatalogEntry.describe(wrapped)
        }
    }
}
