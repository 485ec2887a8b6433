/// A storage key, possibly with `{placeholders}` filled from the key's parameters.
///
/// ```json
/// { "name": "selectedLayoutID", "key": "layout.{listID}", "parameters": { "listID": "String" } }
/// ```
///
/// gives `text == "layout.{listID}"` and
/// `segments == [.literal("layout."), .placeholder("listID")]`.
public struct StorageKeyTemplate: Sendable, Hashable, CustomStringConvertible {
    /// The key as written in the manifest.
    public var text: String
    /// Literal text and placeholders, in order; adjacent literals are merged.
    public var segments: [Segment]

    /// Creates a template from parsed segments.
    public init(text: String, segments: [Segment]) {
        self.text = text
        self.segments = segments
    }

    /// A template without placeholders.
    public init(literal: String) {
        self.init(text: literal, segments: literal.isEmpty ? [] : [.literal(literal)])
    }

    /// One piece of a storage key.
    public enum Segment: Sendable, Hashable {
        /// Text used as is.
        case literal(String)
        /// A parameter's name, replaced by its value.
        case placeholder(String)
    }

    /// The placeholder names, in order of appearance.
    public var placeholders: [String] {
        segments.compactMap { if case .placeholder(let name) = $0 { name } else { nil } }
    }

    /// `true` when the key has no placeholders.
    public var isLiteral: Bool {
        !segments.contains { if case .placeholder = $0 { true } else { false } }
    }

    /// The text as written.
    public var description: String { text }
}
