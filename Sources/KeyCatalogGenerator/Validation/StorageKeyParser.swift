/// Reads a storage key with `{placeholders}` into a ``StorageKeyTemplate``.
///
/// ```swift
/// try StorageKeyParser.parse("layout.{listID}").get().placeholders // ["listID"]
/// ```
enum StorageKeyParser {
    /// Why a storage key is malformed.
    struct Failure: Error, Equatable {
        var message: String
    }

    /// Parses `text`: `{name}` is a placeholder; braces are not allowed otherwise.
    static func parse(_ text: String) -> Result<StorageKeyTemplate, Failure> {
        // Most storage keys have no placeholder: one literal, or none for an empty key.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) {
            return .success(StorageKeyTemplate(literal: text))
        }
        var segments: [StorageKeyTemplate.Segment] = []
        var literal = ""
        var placeholder: String?
        // By scalar: a `}` followed by a combining mark is one `Character`, and still a brace.
        for scalar in text.unicodeScalars {
            let character = Character(scalar)
            switch (character, placeholder) {
            case ("{", nil):
                if !literal.isEmpty { segments.append(.literal(literal)) }
                literal = ""
                placeholder = ""
            case ("}", let name?):
                guard SwiftIdentifier.isValid(name) else {
                    return .failure(Failure(message: "placeholder '{\(name)}' in storage key '\(text.truncatedForMessage)' is not a Swift identifier; name it like '{listID}'"))
                }
                segments.append(.placeholder(name))
                placeholder = nil
            case ("{", _?), ("}", nil):
                return .failure(Failure(message: "unbalanced '\(character)' in storage key '\(text.truncatedForMessage)'; braces only surround placeholders, as in 'layout.{listID}'"))
            case (_, var name?):
                name.unicodeScalars.append(scalar)
                placeholder = name
            case (_, nil):
                literal.unicodeScalars.append(scalar)
            }
        }
        if placeholder != nil {
            return .failure(Failure(message: "unbalanced '{' in storage key '\(text.truncatedForMessage)'; close the placeholder with '}'"))
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        return .success(StorageKeyTemplate(text: text, segments: segments))
    }
}
