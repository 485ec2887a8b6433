/// A key whose value persists between launches.
///
/// ```swift
/// extension PersistentKeyProtocol where Self == PersistentKey<Date> {
///     static var mostRecentLaunchDate: Self {
///         Self("MostRecentLaunchDate", defaultValue: .distantPast)
///     }
/// }
///
/// extension PersistentKeyProtocol where Self == PersistentKey<String?> {
///     static func selectedLayoutID(forListID listID: String) -> Self {
///         Self("\(listID)::SelectedLayoutID", defaultValue: nil)
///     }
/// }
///
/// userDefaults.set(.mostRecentLaunchDate, to: .now)
/// let layoutID = userDefaults.get(.selectedLayoutID(forListID: "inbox"))
/// ```
public struct PersistentKey<Value: Sendable>: PersistentKeyProtocol {
    public let id: String
    public let defaultValue: Value
    public let representation: any PersistentKeyValueRepresentation<Value>

    /// A key stored through a representation of its own, which need not be the value type's usual one;
    /// the value type need not even be ``KeyValuePersistible``.
    public init<Representation: PersistentKeyValueRepresentation<Value>>(
        _ id: String,
        defaultValue: Value,
        representation: Representation
    ) {
        self.id = id
        self.defaultValue = defaultValue
        self.representation = representation
    }

    /// An optional key stored through a representation of the wrapped type; `nil` is stored as no value.
    public init<Wrapped, Representation: PersistentKeyValueRepresentation<Wrapped>>(
        _ id: String,
        defaultValue: Value,
        representation: Representation
    ) where Value == Wrapped? {
        self.init(id, defaultValue: defaultValue, representation: OptionalPersistentKeyValueRepresentation(wrapping: representation))
    }
}

extension PersistentKey where Value: KeyValuePersistible {
    /// A key stored through its value type's usual representation.
    public init(_ id: String, defaultValue: Value) {
        self.init(id, defaultValue: defaultValue, representation: Value.persistentKeyValueRepresentation)
    }
}
