import Foundation

/// A Markdown table of a catalog's keys, for `keycatalog docs`.
///
/// ```swift
/// print(MarkdownDocs(catalog: catalog).render())
/// // # AppKeys
/// //
/// // | Name | Storage key | Store | Type | Default | Doc |
/// // | --- | --- | --- | --- | --- | --- |
/// // | `launchCount` | `LaunchCount` | standard | `Int` | `0` | How often the app started. |
/// ```
public struct MarkdownDocs: Sendable {
    /// The catalog to document.
    public var catalog: Catalog

    /// Creates the documentation renderer for `catalog`.
    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// The Markdown: a heading, then one table row per key in manifest order.
    public func render() -> String {
        var lines = [
            "# \(catalog.name)",
            "",
            "| Name | Storage key | Store | Type | Default | Doc |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for key in catalog.keys {
            var doc = key.doc ?? ""
            if let deprecated = key.deprecated {
                doc += (doc.isEmpty ? "" : " ") + "**Deprecated:** \(deprecated)"
            }
            if key.secret {
                doc += (doc.isEmpty ? "" : " ") + "(secret)"
            }
            let name =
                key.isParameterized
                ? "\(key.name)(" + key.parameters.map { "\($0.name): \($0.type.rawValue)" }.joined(separator: ", ") + ")"
                : key.name
            let cells = [
                code(name),
                code(key.storageKey.text),
                Self.cell(key.store),
                code(key.type.description),
                defaultCell(key.default),
                Self.cell(doc),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func defaultCell(_ value: KeyDefault) -> String {
        switch value {
        case .value(let value): code(Self.text(value))
        case .debugRelease(let debug, let release): "debug: \(code(Self.text(debug))), release: \(code(Self.text(release)))"
        }
    }

    private func code(_ text: String) -> String {
        "`" + Self.cell(text).replacingOccurrences(of: "`", with: "'") + "`"
    }

    /// Text safe in a table cell: no line breaks, `|` escaped.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "|", with: "\\|")
    }

    /// A default as the manifest would spell it, shortened.
    static func text(_ value: DefaultValue) -> String {
        switch value {
        case .bool(let value): "\(value)"
        case .integer(let text), .floating(let text): text
        case .string(let text), .url(let text), .uuid(let text): JSONText.quoted(text)
        case .data(let base64): JSONText.quoted(base64)
        case .date(let text, _): JSONText.quoted(text)
        case .enumCase(let name): ".\(name)"
        case .null: "nil"
        case .array(let elements): "[" + elements.map(text).joined(separator: ", ") + "]"
        case .dictionary(let entries):
            entries.isEmpty ? "[:]" : "[" + entries.map { "\(JSONText.quoted($0.key)): \(text($0.value))" }.joined(separator: ", ") + "]"
        case .swift(let expression): expression
        }
    }
}
