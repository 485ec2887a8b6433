import Foundation

extension Date: KeyValuePersistible {
    /// A date is stored as its `timeIntervalSinceReferenceDate`, a `Double`.
    ///
    /// Use ``ISO8601DatePersistentKeyValueRepresentation`` on a key for a readable string instead.
    public static var persistentKeyValueRepresentation: TimeIntervalDatePersistentKeyValueRepresentation {
        TimeIntervalDatePersistentKeyValueRepresentation()
    }
}

extension URL: KeyValuePersistible {
    /// A URL is stored as its absolute string: Foundation's own URL storage on Linux turns
    /// `https://example.com/x` into `file:///x`.
    public static var persistentKeyValueRepresentation: ProxyPersistentKeyValueRepresentation<URL, String> {
        ProxyPersistentKeyValueRepresentation(to: \.absoluteString, from: { URL(string: $0) })
    }
}

extension UUID: KeyValuePersistible {
    /// A UUID is stored as its `uuidString`.
    public static var persistentKeyValueRepresentation: ProxyPersistentKeyValueRepresentation<UUID, String> {
        ProxyPersistentKeyValueRepresentation(to: \.uuidString, from: { UUID(uuidString: $0) })
    }
}

extension Character: KeyValuePersistible {
    /// A character is stored as a one-character string.
    public static var persistentKeyValueRepresentation: LosslessStringConvertiblePersistentKeyValueRepresentation<Character> {
        LosslessStringConvertiblePersistentKeyValueRepresentation()
    }
}
