/// Stores a value as another persistible type, its proxy, using the proxy's representation.
///
/// ```swift
/// extension PersistentKeyProtocol where Self == PersistentKey<Date?> {
///     static var mostRecentAppStoreReviewRequestDate: Self {
///         Self(
///             "MostRecentAppStoreReviewRequestDate",
///             defaultValue: nil,
///             representation: ProxyPersistentKeyValueRepresentation(
///                 to: { date in date.ISO8601Format() },
///                 from: { string in try? Date.ISO8601FormatStyle().parse(string) }
///             )
///         )
///     }
/// }
/// ```
///
/// There is no limit to the levels of indirection: the proxy may itself be stored through a proxy.
public struct ProxyPersistentKeyValueRepresentation<Value, Proxy: KeyValuePersistible>: PersistentKeyValueRepresentation {
    @usableFromInline let toProxy: @Sendable (Value) -> Proxy
    @usableFromInline let fromProxy: @Sendable (Proxy) -> Value?

    /// - Parameters:
    ///   - to: Converts a value to its proxy (a key path works: `\.timeIntervalSinceReferenceDate`).
    ///   - from: Converts a proxy back; `nil` means the stored proxy is invalid, and readers get the
    ///     key's default while the failure is reported.
    public init(to: @escaping @Sendable (Value) -> Proxy, from: @escaping @Sendable (Proxy) -> Value?) {
        self.toProxy = to
        self.fromProxy = from
    }

    @inlinable
    public func persistentValue(for value: Value) throws -> PropertyListValue? {
        try Proxy.persistentKeyValueRepresentation.persistentValue(for: toProxy(value))
    }

    @inlinable
    public func value(from persistentValue: PropertyListValue) throws -> Value {
        let proxy = try Proxy.persistentKeyValueRepresentation.value(from: persistentValue)
        guard let value = fromProxy(proxy) else {
            throw PersistentKeyValueDecodingError(
                expectedType: String(describing: Value.self),
                found: "\(String(describing: Proxy.self)) '\(proxy)' that does not convert"
            )
        }
        return value
    }

    /// As the proxy's representation decodes.
    public var _decodesAlike: Bool { Proxy.persistentKeyValueRepresentation._decodesAlike }
}
