/// Renders the defaults that are built by private functions at file scope: big collections, one
/// element per statement, and defaults written as Swift (`{"swift": …}`), so that their names mean
/// what they mean in the app's module rather than members of `PersistentKey` (a type of yours
/// named `id` would otherwise be the key's `id`).
///
/// Big collections get the collection's type written on each variable. The variables' names start
/// with `_` (`_value`, `_element1`): a default's element written in Swift is evaluated beside
/// them, and would find a plain `value` instead of the app's global of that name.
///
/// As one literal, a default of thousands of elements is type-checked as a single expression
/// (1,000 dates took 0.9 GB to compile, 3,000 took 5.2 GB); as statements, each element is checked
/// on its own against a known type, so compile time and memory grow linearly.
///
/// ```swift
/// /// The default of `holidays` (1,000 values), built one element per statement so it compiles quickly.
/// private func _AppKeys_holidays_Default() -> [Swift.String: [Foundation.Date]] {
///     var _value: [Swift.String: [Foundation.Date]] = [:]
///     _value.reserveCapacity(1)
///     do {
///         var _element1: [Foundation.Date] = []
///         _element1.reserveCapacity(1000)
///         _element1.append(Foundation.Date(timeIntervalSinceReferenceDate: 788918400)) // 2026-01-01T00:00:00Z
///         …
///         _value["fr"] = _element1
///     }
///     return _value
/// }
/// ```
struct LargeDefaultRenderer {
    let catalog: Catalog

    /// Defaults holding more values than this (elements, entries and nested ones) are built by a
    /// function; smaller ones stay literals, which read better.
    static let literalLimit = 64

    /// `true` when `value` is a collection of more than ``literalLimit`` values in all.
    static func isLarge(_ value: DefaultValue) -> Bool {
        switch value {
        case .array, .dictionary:
            var budget = literalLimit
            return !fits(value, within: &budget)
        default:
            return false
        }
    }

    private static func fits(_ value: DefaultValue, within budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch value {
        case .array(let elements):
            return elements.allSatisfy { fits($0, within: &budget) }
        case .dictionary(let entries):
            return entries.allSatisfy { fits($0.value, within: &budget) }
        default:
            return true
        }
    }

    /// `true` when `value` is, or holds, a Swift expression: it is evaluated by a builder at file
    /// scope, outside the key's extension of `PersistentKey`, whose members would shadow names.
    static func holdsSwift(_ value: DefaultValue) -> Bool {
        switch value {
        case .swift: true
        case .array(let elements): elements.contains(where: holdsSwift)
        case .dictionary(let entries): entries.contains { holdsSwift($0.value) }
        default: false
        }
    }

    /// Whether `value` is built by a function of its own (see the type's description).
    static func isBuilt(_ value: DefaultValue) -> Bool {
        isLarge(value) || holdsSwift(value)
    }

    /// The builder of a key's default: `_AppKeys_holidays_Default`, or `…_DebugDefault` and
    /// `…_ReleaseDefault` for a debug key.
    static func builderName(catalog: String, key: KeyDeclaration, role: String) -> String {
        FileScopeNames.defaultBuilder(catalog: catalog, key: key.name, role: role)
    }

    func render(into writer: inout CodeWriter) {
        var first = true
        // Most keys have no default built here: passed over before a key is copied.
        for index in catalog.keys.indices where Self.hasBuiltDefault(catalog.keys[index].default) {
            let key = catalog.keys[index]
            let defaults: [(role: String, value: DefaultValue)] =
                switch key.default {
                case .value(let value): [("", value)]
                case .debugRelease(let debug, let release): [("Debug", debug), ("Release", release)]
                }
            for (role, value) in defaults where Self.isBuilt(value) {
                if first {
                    writer.blank()
                    writer.line("// MARK: - Defaults of \(SwiftSyntax.identifier(catalog.name)) built at file scope")
                    first = false
                }
                writer.blank()
                let what = role.isEmpty ? "default" : role.lowercased() + " default"
                let name = Self.builderName(catalog: catalog.name, key: key, role: role)
                if Self.isLarge(value) {
                    writer.line("/// The \(what) of `\(key.name)`, built one element per statement so it compiles quickly.")
                    writer.block("nonisolated private func \(name)() -> \(SwiftTypes.name(of: key.type)) {") { writer in
                        renderCollection(value, type: key.type, variable: "_value", depth: 0, into: &writer)
                        writer.line("return _value")
                    }
                } else {
                    writer.line("/// The \(what) of `\(key.name)`, written in Swift: evaluated here, where its names are your module's.")
                    writer.block("nonisolated private func \(name)() -> \(SwiftTypes.name(of: key.type)) {") { writer in
                        writer.line(SwiftLiterals.expression(for: value, type: key.type))
                    }
                }
            }
        }
    }

    private static func hasBuiltDefault(_ keyDefault: KeyDefault) -> Bool {
        switch keyDefault {
        case .value(let value): isBuilt(value)
        case .debugRelease(let debug, let release): isBuilt(debug) || isBuilt(release)
        }
    }

    private static func isNonEmptyCollection(_ value: DefaultValue) -> Bool {
        switch value {
        case .array(let elements): !elements.isEmpty
        case .dictionary(let entries): !entries.isEmpty
        default: false
        }
    }

    /// Declares `var <variable>` of `type` (without its optional) and fills it with `value`.
    private func renderCollection(_ value: DefaultValue, type: ValueType, variable: String, depth: Int, into writer: inout CodeWriter) {
        let collectionType = type.nonOptional
        let typeName = SwiftTypes.name(of: collectionType)
        let inner = "_element\(depth + 1)"
        func add(_ element: DefaultValue, type elementType: ValueType, store: (String) -> String) {
            if Self.isNonEmptyCollection(element) {
                writer.block("do {") { writer in
                    renderCollection(element, type: elementType, variable: inner, depth: depth + 1, into: &writer)
                    writer.line(store(inner))
                }
            } else {
                let dates = SwiftLiterals.dateComments(for: element)
                let comment = dates.isEmpty ? "" : " // " + dates.joined(separator: ", ")
                writer.line(store(SwiftLiterals.expression(for: element, type: elementType, isElement: true)) + comment)
            }
        }
        switch (value, collectionType) {
        case (.array(let elements), .array(let elementType)):
            writer.line("var \(variable): \(typeName) = []")
            writer.line("\(variable).reserveCapacity(\(elements.count))")
            for element in elements {
                add(element, type: elementType) { "\(variable).append(\($0))" }
            }
        case (.dictionary(let entries), .dictionary(let valueType)):
            writer.line("var \(variable): \(typeName) = [:]")
            writer.line("\(variable).reserveCapacity(\(entries.count))")
            // Values that may be nil go in by `updateValue`: `_value["k"] = nil` removes the
            // entry, where the literal `["k": nil]` keeps it, holding nil.
            let keepsNil = if case .optional = valueType { true } else { false }
            for entry in entries {
                let key = SwiftSyntax.stringLiteral(entry.key)
                add(entry.value, type: valueType) { keepsNil ? "\(variable).updateValue(\($0), forKey: \(key))" : "\(variable)[\(key)] = \($0)" }
            }
        default:
            writer.line("let \(variable): \(typeName) = \(SwiftLiterals.expression(for: value, type: collectionType))")
        }
    }
}
