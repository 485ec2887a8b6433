/// A place a key's value used to live (an entry of a key's `migrations`).
///
/// The migrations issue defines what running one does; this type only carries the validated
/// declaration.
///
/// ```json
/// "migrations": [
///     { "fromKey": "launches", "fromType": "String", "transform": "launchCountFromString" }
/// ]
/// ```
public struct MigrationDeclaration: Sendable, Equatable {
    /// The old storage key; its placeholders are among the key's parameters.
    public var fromKey: StorageKeyTemplate
    /// The old store's name, resolved: `fromStore`, or the key's own store when absent.
    public var fromStore: String
    /// The old value type, when it differs from the key's (then ``transform`` is set).
    public var fromType: ValueType?
    /// The old representation, when it differs.
    public var fromRepresentation: Representation?
    /// The name of the function that converts the old value to the new type (`func f(_ old: Old) -> New?`).
    public var transform: String?
    /// Where the entry's `fromKey` value is written.
    public var location: SourceLocation

    /// Creates a migration declaration.
    public init(
        fromKey: StorageKeyTemplate,
        fromStore: String,
        fromType: ValueType? = nil,
        fromRepresentation: Representation? = nil,
        transform: String? = nil,
        location: SourceLocation
    ) {
        self.fromKey = fromKey
        self.fromStore = fromStore
        self.fromType = fromType
        self.fromRepresentation = fromRepresentation
        self.transform = transform
        self.location = location
    }
}
