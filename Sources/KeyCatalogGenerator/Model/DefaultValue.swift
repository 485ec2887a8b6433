/// A default value, already checked against its key's type.
///
/// Literals keep the manifest's text where Swift would read it differently (numbers, dates), so
/// the renderer emits exactly what the user wrote.
///
/// ```json
/// { "name": "retryCount", "type": "Int", "default": 3 }              // .integer("3")
/// { "name": "lastSync", "type": "Date", "default": "2024-01-01T00:00:00Z" }
/// { "name": "locale", "type": "Locale", "default": { "swift": "Locale(identifier: \"en\")" } }
/// ```
public indirect enum DefaultValue: Sendable, Equatable {
    /// `true` or `false`.
    case bool(Bool)
    /// An integer literal, as written in the manifest (`-12`); in range for the key's type.
    case integer(String)
    /// A number literal for `Double` or `Float`, as written (`0.5`, `1e-3`, `2`); finite.
    case floating(String)
    /// A string.
    case string(String)
    /// Bytes for `Data`, as the manifest's base64 text (validated).
    case data(base64: String)
    /// A `Date` as the manifest's ISO 8601 text with a zone (`2024-05-01T12:00:00Z`) and the
    /// same instant in seconds since 1970, so the renderer needs no date parser.
    case date(iso8601: String, secondsSince1970: Double)
    /// An absolute URL string.
    case url(String)
    /// A UUID string, as written.
    case uuid(String)
    /// A case name of a declared enum.
    case enumCase(String)
    /// `null`, only for optional types.
    case null
    /// An array, element by element.
    case array([DefaultValue])
    /// A `[String: T]` dictionary, in manifest order.
    case dictionary([Entry])
    /// `{ "swift": "expression" }`: Swift source emitted verbatim; never empty.
    case swift(String)

    /// One key-value pair of a ``dictionary(_:)`` default.
    public struct Entry: Sendable, Equatable {
        /// The dictionary key.
        public var key: String
        /// The value for `key`.
        public var value: DefaultValue

        /// Creates an entry.
        public init(key: String, value: DefaultValue) {
            self.key = key
            self.value = value
        }
    }
}

/// A key's default: one value, or one for Debug builds and one for Release builds.
///
/// ```json
/// { "name": "showsDebugMenu", "type": "Bool", "debugDefault": true, "releaseDefault": false }
/// ```
public enum KeyDefault: Sendable, Equatable {
    /// `default`.
    case value(DefaultValue)
    /// `debugDefault` and `releaseDefault`, chosen with `#if DEBUG` in the client's module.
    case debugRelease(debug: DefaultValue, release: DefaultValue)
}
