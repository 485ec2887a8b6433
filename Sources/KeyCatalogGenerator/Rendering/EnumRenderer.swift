/// Renders the manifest's declared enums (`types`), each `KeyValuePersistible` through its raw
/// value.
///
/// ```swift
/// internal enum Theme: Swift.String, Swift.Sendable, Swift.CaseIterable, Swift.Codable, KeyCatalog.KeyValuePersistible {
///     case system
///     case light = "Light"
///
///     internal static var persistentKeyValueRepresentation: KeyCatalog.RawRepresentablePersistentKeyValueRepresentation<Theme> {
///         KeyCatalog.RawRepresentablePersistentKeyValueRepresentation()
///     }
/// }
/// ```
struct EnumRenderer {
    let access: String

    func render(_ declaration: EnumDeclaration, into writer: inout CodeWriter) {
        let name = SwiftSyntax.identifier(declaration.name)
        let rawType = declaration.rawType == .string ? "Swift.String" : "Swift.Int"
        let conformances = [rawType, "Swift.Sendable", "Swift.Hashable", "Swift.CaseIterable", "Swift.Codable", "KeyCatalog.KeyValuePersistible"]
        writer.documentation(declaration.doc)
        writer.block("nonisolated \(access) enum \(name): \(conformances.joined(separator: ", ")) {") { writer in
            var implicitInt = 0
            for enumCase in declaration.cases {
                let caseName = SwiftSyntax.identifier(enumCase.name)
                switch enumCase.rawValue {
                case .string(let raw):
                    writer.line(raw == enumCase.name ? "case \(caseName)" : "case \(caseName) = \(SwiftSyntax.stringLiteral(raw))")
                case .int(let raw):
                    writer.line(raw == implicitInt ? "case \(caseName)" : "case \(caseName) = \(raw)")
                    implicitInt = raw &+ 1
                }
            }
            writer.blank()
            let representation = "KeyCatalog.RawRepresentablePersistentKeyValueRepresentation<\(name)>"
            writer.block("\(access) static var persistentKeyValueRepresentation: \(representation) {") { writer in
                writer.line("KeyCatalog.RawRepresentablePersistentKeyValueRepresentation()")
            }
        }
    }
}
