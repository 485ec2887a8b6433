/// The access level of the generated declarations (`access` in the manifest).
///
/// ```json
/// { "access": "public" }
/// ```
public enum AccessLevel: String, Sendable, Hashable, CaseIterable {
    /// `internal`, the default.
    case `internal`
    /// `public`, for a catalog shared by several modules.
    case `public`
    /// `package`, for a catalog shared inside one package.
    case `package`
}
