import Foundation

/// How `keycatalog lint` prints diagnostics (`--format`).
///
/// ```swift
/// let text = DiagnosticFormat.github.render(diagnostics)
/// // ::error file=keys.json,line=12,col=5,title=keycatalog::unknown type 'Integer' ...
/// ```
public enum DiagnosticFormat: String, Sendable, CaseIterable {
    /// `keys.json:12:5: error: message`, one per line, like a compiler.
    case text
    /// A JSON array of `{ "file", "line", "column", "severity", "message", "rule" }` objects.
    case json
    /// GitHub Actions workflow commands: `::error file=…,line=…,col=…::message`.
    case github

    /// The diagnostics in this format, ending with a newline unless there are none (text and
    /// github) ; `[]` for none in JSON.
    public func render(_ diagnostics: [Diagnostic]) -> String {
        switch self {
        case .text:
            return diagnostics.map { "\($0)\n" }.joined()
        case .github:
            return diagnostics.map(Self.githubLine).joined()
        case .json:
            if diagnostics.isEmpty { return "[]\n" }
            let objects = diagnostics.map { diagnostic in
                var fields = [
                    "\"file\": \(JSONText.quoted(diagnostic.location.file))",
                    "\"line\": \(diagnostic.location.line)",
                    "\"column\": \(diagnostic.location.column)",
                    "\"severity\": \(JSONText.quoted(diagnostic.severity.rawValue))",
                    "\"message\": \(JSONText.quoted(diagnostic.message))",
                ]
                if let rule = diagnostic.rule {
                    fields.append("\"rule\": \(JSONText.quoted(rule))")
                }
                return "  { " + fields.joined(separator: ", ") + " }"
            }
            return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
        }
    }

    private static func githubLine(_ diagnostic: Diagnostic) -> String {
        let command =
            switch diagnostic.severity {
            case .error: "error"
            case .warning: "warning"
            case .note: "notice"
            }
        let location = diagnostic.location
        let properties = [
            "file=\(escapeProperty(location.file))",
            "line=\(location.line)",
            "col=\(location.column)",
            "title=\(escapeProperty("keycatalog" + (diagnostic.rule.map { " (\($0))" } ?? "")))",
        ]
        return "::\(command) \(properties.joined(separator: ","))::\(escapeData(diagnostic.message))\n"
    }

    /// GitHub's escaping for a command's message.
    private static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub's escaping for a command's property values.
    private static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
