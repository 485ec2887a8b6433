/// Renders each key as a `fileprivate` static member constrained on `Self`, which the catalog
/// binds to the key's declared store. File-private, so that no code outside the generated file can
/// hand a generated key to another store (`UserDefaults.standard.get(.widgetTheme)` for a key
/// declared in the `group` store does not compile); the catalog's `$launchCount` is the way in.
///
/// Keys of one key type share an extension, in order of first appearance; inside it they keep
/// manifest order:
///
/// ```swift
/// extension KeyCatalog.PersistentKeyProtocol where Self == KeyCatalog.PersistentKey<Swift.Int> {
///     /// How many times the app was launched.
///     fileprivate static var launchCount: Self {
///         Self("LaunchCount", defaultValue: 0)
///     }
/// }
/// ```
///
/// A deprecated key's accessor forwards to a definition in the catalog's
/// `_DeprecatedKeyDefinitions`, which the catalog's table uses, so the generated file itself never
/// references a deprecated declaration (and compiles without warnings).
struct KeyAccessorRenderer {
    let catalog: Catalog
    let access: String

    /// The name of the namespace holding deprecated keys' definitions, inside the catalog.
    static let deprecatedDefinitionsName = "_DeprecatedKeyDefinitions"

    func render(into writer: inout CodeWriter) {
        // Indices, not copies: a key declaration is big, and 10,000 of them add up.
        catalog.keys.withUnsafeBufferPointer { keys in
            render(keys, into: &writer)
        }
    }

    private func render(_ keys: UnsafeBufferPointer<KeyDeclaration>, into writer: inout CodeWriter) {
        var groups: [(keyType: String, members: [Int])] = []
        var groupIndex: [String: Int] = [:]
        for index in keys.indices {
            // The key's fields, not the key: reading `keys[index]` whole copies it.
            let keyType = SwiftTypes.keyType(of: keys[index].type, isDebugKey: keys[index].isDebugKey)
            if let group = groupIndex[keyType] {
                groups[group].members.append(index)
            } else {
                groupIndex[keyType] = groups.count
                groups.append((keyType, [index]))
            }
        }
        for group in groups {
            writer.blank()
            writer.block("nonisolated extension KeyCatalog.PersistentKeyProtocol where Self == \(group.keyType) {") { writer in
                for (position, index) in group.members.enumerated() {
                    if position > 0 { writer.blank() }
                    renderAccessor(keys[index], into: &writer)
                }
            }
        }
    }

    private func renderAccessor(_ key: KeyDeclaration, into writer: inout CodeWriter) {
        writer.documentation(key.doc)
        if let message = key.deprecated {
            writer.line("@available(*, deprecated, message: " + SwiftSyntax.stringLiteral(message) + ")")
        }
        writer.startLine()
        writer.write("fileprivate static ")
        Self.writeSignature(of: key, returning: "Self", into: &writer)
        writer.write(" {")
        writer.endLine()
        writer.indented { writer in
            if key.deprecated != nil {
                writer.line(deprecatedAlias + "." + Self.reference(to: key))
            } else {
                Self.renderConstruction(of: key, constructor: "Self", catalogName: catalog.name, into: &writer)
            }
        }
        writer.line("}")
    }

    /// `_AppKeysDeprecatedKeyDefinitions`: the file-scope alias of the catalog's
    /// `_DeprecatedKeyDefinitions` that deprecated accessors forward to. Through the catalog's
    /// name the body could be hidden by a key named like the catalog, or, for a catalog named
    /// `get`, `set` or `willSet`, read as an accessor.
    private var deprecatedAlias: String { Self.deprecatedAlias(of: catalog) }

    /// ``deprecatedAlias`` of `catalog`; declared whenever one of its keys is deprecated.
    static func deprecatedAlias(of catalog: Catalog) -> String { FileScopeNames.deprecatedAlias(catalog: catalog.name) }

    /// The deprecated keys' definitions, as an extension of the catalog, and the alias the
    /// accessors use; nothing when no key is deprecated.
    func renderDeprecatedDefinitions(into writer: inout CodeWriter) {
        let deprecated = catalog.keys.filter { $0.deprecated != nil }
        guard !deprecated.isEmpty else { return }
        writer.blank()
        writer.block("nonisolated extension \(SwiftSyntax.identifier(catalog.name)) {") { writer in
            writer.line("/// The deprecated keys, defined once without deprecation so the catalog can use them quietly.")
            writer.block("fileprivate enum \(Self.deprecatedDefinitionsName) {") { writer in
                for (index, key) in deprecated.enumerated() {
                    if index > 0 { writer.blank() }
                    let keyType = SwiftTypes.keyType(of: key)
                    writer.block("static \(Self.signature(of: key, returning: keyType)) {") { writer in
                        Self.renderConstruction(of: key, constructor: keyType, catalogName: catalog.name, into: &writer)
                    }
                }
            }
        }
        writer.blank()
        writer.line("/// The deprecated keys' definitions, named so no key or accessor syntax can hide them.")
        writer.line("fileprivate typealias \(deprecatedAlias) = \(SwiftSyntax.identifier(catalog.name)).\(Self.deprecatedDefinitionsName)")
    }

    /// Writes ``signature(of:returning:)`` into `writer`'s current line.
    static func writeSignature(of key: KeyDeclaration, returning type: String, into writer: inout CodeWriter) {
        guard key.isParameterized else {
            writer.write("var ")
            writer.write(SwiftSyntax.identifier(key.name))
            writer.write(": ")
            writer.write(type)
            return
        }
        writer.write(signature(of: key, returning: type))
    }

    /// `var launchCount: Self` or `func selectedLayoutID(listID: Swift.String) -> Self`.
    static func signature(of key: KeyDeclaration, returning type: String) -> String {
        let name = SwiftSyntax.identifier(key.name)
        guard key.isParameterized else { return "var \(name): \(type)" }
        return "func \(name)(\(parameterList(of: key))) -> \(type)"
    }

    /// `listID: Swift.String, index: Swift.Int`.
    static func parameterList(of key: KeyDeclaration) -> String {
        key.parameters.map { "\(SwiftSyntax.identifier($0.name)): \(SwiftTypes.name(of: $0.type))" }.joined(separator: ", ")
    }

    /// `launchCount` or `selectedLayoutID(listID: listID)`: the member that gives the key, passing
    /// on parameters of the same names.
    static func reference(to key: KeyDeclaration) -> String {
        let name = SwiftSyntax.identifier(key.name)
        guard key.isParameterized else { return name }
        let arguments = key.parameters.map { parameter in
            "\(SwiftSyntax.argumentLabel(parameter.name)): \(SwiftSyntax.identifier(parameter.name))"
        }
        return "\(name)(\(arguments.joined(separator: ", ")))"
    }

    /// The storage key as a string literal, placeholders interpolated: `"\(listID)::Layout"`.
    static func storageKeyLiteral(of key: KeyDeclaration) -> String {
        var contents = ""
        for segment in key.storageKey.segments {
            switch segment {
            case .literal(let text):
                contents += SwiftSyntax.escaped(text)
            case .placeholder(let name):
                let parameterName = SwiftSyntax.identifier(name)
                let isUUID = key.parameters.first { $0.name.isSameIdentifier(as: name) }?.type == .uuid
                contents += isUUID ? "\\(\(parameterName).uuidString)" : "\\(\(parameterName))"
            }
        }
        return "\"" + contents + "\""
    }

    /// The key's construction: `Self("LaunchCount", defaultValue: 0)`, or for a debug key the
    /// `#if DEBUG` pair that fixes the build configuration in the client's module.
    /// A big collection default, and one written in Swift, is built by a function (see
    /// ``LargeDefaultRenderer``).
    static func renderConstruction(of key: KeyDeclaration, constructor: String, catalogName: String, into writer: inout CodeWriter) {
        let storageKey: (text: String, comment: String?) = (storageKeyLiteral(of: key), nil)
        let representation = SwiftTypes.representation(key.representation, for: key.type)
        func argument(_ label: String, _ value: DefaultValue, role: String) -> (text: String, comment: String?) {
            guard LargeDefaultRenderer.isBuilt(value) else { return SwiftLiterals.argument(label, value, type: key.type) }
            return ("\(label): \(LargeDefaultRenderer.builderName(catalog: catalogName, key: key, role: role))()", nil)
        }
        switch key.default {
        case .value(let value):
            var arguments = [storageKey, argument("defaultValue", value, role: "")]
            if let representation { arguments.append(("representation: \(representation)", nil)) }
            writer.call("\(constructor)(", arguments, closing: ")")
        case .debugRelease(let debug, let release):
            var arguments = [
                storageKey,
                argument("debugDefaultValue", debug, role: "Debug"),
                argument("releaseDefaultValue", release, role: "Release"),
            ]
            if let representation {
                // PersistentDebugKey has no initializer taking a wrapped type's representation.
                let wrapped =
                    key.type.isOptional
                    ? "KeyCatalog.OptionalPersistentKeyValueRepresentation(wrapping: \(representation))"
                    : representation
                arguments.append(("representation: \(wrapped)", nil))
            }
            writer.line("#if DEBUG")
            writer.call("\(constructor)(", arguments + [("configuration: .debug", nil)], closing: ")")
            writer.line("#else")
            writer.call("\(constructor)(", arguments + [("configuration: .release", nil)], closing: ")")
            writer.line("#endif")
        }
    }
}
