/// One key of the catalog (an entry of `keys` in the manifest), validated and resolved.
///
/// ```json
/// {
///     "name": "selectedLayoutID",
///     "key": "layout.{listID}",
///     "parameters": { "listID": "String" },
///     "type": "String?",
///     "default": null,
///     "doc": "The layout last chosen for a list."
/// }
/// ```
public struct KeyDeclaration: Sendable, Equatable {
    /// The accessor's name, a Swift identifier (keywords allowed: the renderer escapes them).
    public var name: String
    /// The storage key; `name` when the manifest gives no `key`.
    public var storageKey: StorageKeyTemplate
    /// The parameters, in the order their placeholders appear in ``storageKey``.
    public var parameters: [KeyParameter]
    /// The value type.
    public var type: ValueType
    /// The default, checked against ``type``.
    public var `default`: KeyDefault
    /// The representation named in the manifest; `nil` means the type's own conformance.
    public var representation: Representation?
    /// The store's name, resolved: the key's `store` or the catalog's `defaultStore`.
    public var store: String
    /// Documentation, emitted as `///`.
    public var doc: String?
    /// The deprecation message, emitted as `@available(*, deprecated, message:)`.
    public var deprecated: String?
    /// `true` when the value is a secret (only allowed in a `keychain` store).
    public var secret: Bool
    /// Where the value used to live, oldest first as written.
    public var migrations: [MigrationDeclaration]
    /// `true` when the key is mirrored through iCloud (`"sync": "iCloud"` on the key or its store).
    public var isSynced: Bool
    /// Where the key's `name` value is written.
    public var location: SourceLocation

    /// Creates a key declaration.
    public init(
        name: String,
        storageKey: StorageKeyTemplate,
        parameters: [KeyParameter] = [],
        type: ValueType,
        default: KeyDefault,
        representation: Representation? = nil,
        store: String = StoreDeclaration.standardName,
        doc: String? = nil,
        deprecated: String? = nil,
        secret: Bool = false,
        migrations: [MigrationDeclaration] = [],
        isSynced: Bool = false,
        location: SourceLocation
    ) {
        self.name = name
        self.storageKey = storageKey
        self.parameters = parameters
        self.type = type
        self.default = `default`
        self.representation = representation
        self.store = store
        self.doc = doc
        self.deprecated = deprecated
        self.secret = secret
        self.migrations = migrations
        self.isSynced = isSynced
        self.location = location
    }

    /// `true` when the storage key has placeholders (the accessor is a static function).
    public var isParameterized: Bool { !parameters.isEmpty }
}

/// A parameter of a key whose storage key has a `{placeholder}`.
///
/// ```json
/// "parameters": { "listID": "String" }
/// ```
public struct KeyParameter: Sendable, Equatable {
    /// The placeholder's name, also the argument label.
    public var name: String
    /// The argument's type.
    public var type: ParameterType
    /// Where the parameter's name is written.
    public var location: SourceLocation

    /// Creates a parameter.
    public init(name: String, type: ParameterType, location: SourceLocation) {
        self.name = name
        self.type = type
        self.location = location
    }
}

/// The types a storage-key parameter may have.
public enum ParameterType: String, Sendable, Hashable, CaseIterable {
    /// `String`, used as is.
    case string = "String"
    /// `Int`, in decimal.
    case int = "Int"
    /// `UUID`, as `uuidString`.
    case uuid = "UUID"
}
