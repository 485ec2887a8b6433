/// An enum declared under `types`; the generator emits it with `KeyValuePersistible` conformance.
///
/// ```json
/// "types": {
///     "Theme": { "kind": "enum", "rawType": "String", "cases": ["system", "light", "dark"] },
///     "Level": { "kind": "enum", "rawType": "Int", "cases": [{ "name": "low", "rawValue": 1 }, "high"] }
/// }
/// ```
///
/// A case written as a bare string takes its name as raw value (`String`) or the previous raw
/// value plus one (`Int`, starting at 0), as Swift does.
public struct EnumDeclaration: Sendable, Equatable {
    /// The enum's name, a Swift type identifier.
    public var name: String
    /// The raw type.
    public var rawType: RawType
    /// The cases in manifest order; never empty.
    public var cases: [Case]
    /// The enum's `doc`, emitted as `///`.
    public var doc: String?
    /// Where the enum's name is written.
    public var location: SourceLocation

    /// Creates an enum declaration.
    public init(name: String, rawType: RawType, cases: [Case], doc: String? = nil, location: SourceLocation) {
        self.name = name
        self.rawType = rawType
        self.cases = cases
        self.doc = doc
        self.location = location
    }

    /// The raw type of a declared enum (`rawType`).
    public enum RawType: String, Sendable, Hashable, CaseIterable {
        /// `String`.
        case string = "String"
        /// `Int`.
        case int = "Int"
    }

    /// A raw value, of the enum's raw type.
    public enum RawValue: Sendable, Hashable {
        /// A `String` raw value.
        case string(String)
        /// An `Int` raw value.
        case int(Int)
    }

    /// One case of a declared enum.
    public struct Case: Sendable, Equatable {
        /// The case name, a Swift identifier.
        public var name: String
        /// The raw value, explicit or implied.
        public var rawValue: RawValue
        /// Where the case is written.
        public var location: SourceLocation

        /// Creates a case.
        public init(name: String, rawValue: RawValue, location: SourceLocation) {
            self.name = name
            self.rawValue = rawValue
            self.location = location
        }
    }
}
