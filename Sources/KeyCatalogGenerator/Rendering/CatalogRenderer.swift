/// Renders the catalog namespace: its stores, each key as a property (or a get/set pair for a
/// parameterized key) reached through the key's declared store, the registration table,
/// registration and reset, and the place the migrations go.
///
/// ```swift
/// let keys = Keys()
/// keys.launchCount += 1
/// keys.setSelectedLayoutID("grid", listID: "inbox")
/// for entry in Keys.entries { print(entry.name, entry.defaultDescription) }
/// ```
struct CatalogRenderer {
    let catalog: Catalog
    let access: String
    let manifestName: String

    /// Registration-table entries appended per helper function; many small functions type-check
    /// and compile faster than one very long one.
    static let entriesPerFunction = 100

    /// Keys bound to their stores per helper function. A catalog with more keys than this binds
    /// them in `_bindKeys<N>(to:)` functions instead of in `init(stores:)`: each binding takes
    /// the compiler about 0.1 ms to type-check, so one initializer binding 10,000 keys took
    /// seconds (see BENCHMARKS.md, "Generator").
    static let keysPerBindingFunction = 100

    /// The wrapper of a catalog's key properties when the keys are bound by helper functions:
    /// declared at file scope (nested in the catalog, Swift 6.3 finds a circular reference in it
    /// in Swift 5 mode when the module's default isolation is the main actor).
    private var boundKeyName: String { FileScopeNames.boundKey(catalog: catalog.name) }

    /// The indices of the keys that are bound properties (not parameterized), in manifest order.
    private var boundKeyIndices: [Int] {
        catalog.keys.indices.filter { !catalog.keys[$0].isParameterized }
    }

    private var definitions: String { KeyAccessorRenderer.deprecatedDefinitionsName }

    func render(into writer: inout CodeWriter) {
        let name = SwiftSyntax.identifier(catalog.name)
        let example = catalog.keys.first { !$0.isParameterized }.map { SwiftSyntax.identifier($0.name) }
        writer.line("/// The keys of \(manifestName), each read and written through its declared store.")
        writer.line("///")
        writer.line("/// ```swift")
        writer.line("/// let keys = \(name)()                        // the declared stores")
        writer.line("/// let testKeys = \(name)(stores: .inMemory()) // in tests")
        if let example {
            writer.line("/// let value = keys.\(example)                  // a value; keys.$\(example) is the key, bound to its store")
        }
        writer.line("/// ```")
        let bound = boundKeyIndices
        let bindingChunks = stride(from: 0, to: bound.count, by: Self.keysPerBindingFunction).map {
            bound[$0..<min($0 + Self.keysPerBindingFunction, bound.count)]
        }
        // Few keys are bound in the initializer itself, with the runtime's wrapper; many, in
        // helper functions, each property starting unbound (see `renderBoundKeyWrapper`).
        let wrapper = bindingChunks.count > 1 ? boundKeyName : "KeyCatalog.CatalogKey"
        writer.block("\(access) struct \(name): Swift.Sendable, KeyCatalog.PersistentKeyCatalog {") { writer in
            StoresRenderer(catalog: catalog, access: access).render(into: &writer)
            writer.blank()
            writer.line("/// The stores keys are read from and written to.")
            writer.line("nonisolated \(access) let stores: Stores")
            writer.blank()
            writer.line("/// A catalog over the declared stores.")
            writer.block("nonisolated \(access) init() {") { writer in
                writer.line("self.init(stores: .live)")
            }
            writer.blank()
            writer.line("/// A catalog over `stores`, each key bound to its declared store among them.")
            writer.block("nonisolated \(access) init(stores: Stores) {") { writer in
                writer.line("self.stores = stores")
                if bindingChunks.count > 1 {
                    for index in bindingChunks.indices {
                        writer.line("self._bindKeys\(index)(to: stores)")
                    }
                } else {
                    renderBindings(bound[...], assigning: "", into: &writer)
                }
            }
            if !catalog.keys.isEmpty {
                writer.blank()
                writer.line("// MARK: - Values")
                catalog.keys.withUnsafeBufferPointer { keys in
                    for index in keys.indices {
                        writer.blank()
                        renderMember(for: keys[index], wrapper: wrapper, into: &writer)
                    }
                }
            }
            if bindingChunks.count > 1 {
                writer.blank()
                writer.line("// MARK: - Binding")
                for (index, chunk) in bindingChunks.enumerated() {
                    writer.blank()
                    writer.block("nonisolated private mutating func _bindKeys\(index)(to stores: Stores) {") { writer in
                        renderBindings(chunk, assigning: ".key", into: &writer)
                    }
                }
            }
            writer.blank()
            writer.line("// MARK: - Registration table")
            writer.blank()
            renderEntries(into: &writer)
            writer.blank()
            renderRegistration(into: &writer)
            writer.blank()
            writer.line("// MARK: - Migrations")
            writer.blank()
            MigrationsRenderer(catalog: catalog, access: access).render(into: &writer)
        }
        if bindingChunks.count > 1 {
            writer.blank()
            renderBoundKeyWrapper(into: &writer)
        }
    }

    // MARK: Members

    /// What declares the key's static member: its key type, or, for a deprecated key, the
    /// catalog's `_DeprecatedKeyDefinitions` (read there without a deprecation warning).
    private func writeOwner(of key: KeyDeclaration, into writer: inout CodeWriter) {
        if key.deprecated != nil {
            writer.write(definitions)
        } else {
            SwiftTypes.writeKeyType(of: key, into: &writer)
        }
    }

    /// `KeyCatalog.CatalogKey(KeyCatalog.PersistentKey<Swift.Int>.launchCount, name: "launchCount", store: stores.standard, storeName: "standard")`,
    /// written into the current line; `CatalogKey(parameterized: …)` for a parameterized key's
    /// accessor, which binds a key on every call.
    private func writeBinding(of key: KeyDeclaration, storesExpression: String, parameterized: Bool = false, into writer: inout CodeWriter) {
        writer.write(parameterized ? "KeyCatalog.CatalogKey(parameterized: " : "KeyCatalog.CatalogKey(")
        writeOwner(of: key, into: &writer)
        writer.write(".")
        writer.write(KeyAccessorRenderer.reference(to: key))
        writer.write(", name: ")
        SwiftSyntax.writeStringLiteral(key.name, into: &writer)
        writer.write(", store: ")
        writer.write(storesExpression)
        writer.write(".")
        writer.write(SwiftSyntax.identifier(key.store))
        writer.write(", storeName: ")
        SwiftSyntax.writeStringLiteral(key.store, into: &writer)
        writer.write(")")
    }

    /// `self._launchCount = KeyCatalog.CatalogKey(…)` for each key at `indices`, in
    /// `init(stores:)`; `self._launchCount.key = …` (`member` `.key`) in a `_bindKeys<N>(to:)`.
    private func renderBindings(_ indices: ArraySlice<Int>, assigning member: String, into writer: inout CodeWriter) {
        catalog.keys.withUnsafeBufferPointer { keys in
            for index in indices {
                let key = keys[index]
                writer.startLine()
                writer.write("self._")
                writer.write(key.name)
                writer.write(member)
                writer.write(" = ")
                writeBinding(of: key, storesExpression: "stores", into: &writer)
                writer.endLine()
            }
        }
    }

    /// The property wrapper of a catalog whose keys `_bindKeys<N>(to:)` functions bind: like
    /// `KeyCatalog.CatalogKey`, but it starts unbound, so `init(stores:)` need not bind every
    /// key itself.
    private func renderBoundKeyWrapper(into writer: inout CodeWriter) {
        let keyType = "KeyCatalog.CatalogKey<Value>"
        writer.line("/// A key property: its value is the key's value, its `$` projection the key bound to its store.")
        writer.line("/// Unlike `KeyCatalog.CatalogKey` it starts unbound, and `init(stores:)` binds the keys \(Self.keysPerBindingFunction) at a")
        writer.line("/// time in its `_bindKeys0(to:)`…: one function binding every key would take seconds to compile.")
        writer.line("@propertyWrapper")
        writer.block("\(access) struct \(boundKeyName)<Value: Swift.Sendable>: Swift.Sendable {") { writer in
            writer.line("fileprivate var key: \(keyType)?")
            writer.blank()
            writer.line("/// An unbound key; `init(stores:)` binds it.")
            writer.line("nonisolated \(access) init() {}")
            writer.blank()
            writer.block("\(access) var wrappedValue: Value {") { writer in
                writer.line("get { self.projectedValue.value }")
                writer.line("nonmutating set { self.projectedValue.value = newValue }")
            }
            writer.blank()
            writer.block("nonisolated \(access) var projectedValue: \(keyType) {") { writer in
                writer.line("guard let key = self.key else { Swift.preconditionFailure(\"a key is used before init(stores:) bound it\") }")
                writer.line("return key")
            }
        }
    }

    private func renderMember(for key: KeyDeclaration, wrapper: String, into writer: inout CodeWriter) {
        // Written without closures or intermediate arrays: this runs once per key.
        let name = SwiftSyntax.identifier(key.name)
        let valueType = SwiftTypes.name(of: key.type)
        let availability = key.deprecated.map { "@available(*, deprecated, message: " + SwiftSyntax.stringLiteral($0) + ")" }

        writer.documentation(key.doc)
        if let availability { writer.line(availability) }
        guard key.isParameterized else {
            writer.startLine()
            writer.write("@")
            writer.write(wrapper)
            writer.write(" ")
            writer.write(access)
            writer.write(" var ")
            writer.write(name)
            writer.write(": ")
            writer.write(valueType)
            writer.endLine()
            return
        }

        let parameters = KeyAccessorRenderer.parameterList(of: key)
        let arguments = key.parameters.map { parameter in
            SwiftSyntax.argumentLabel(parameter.name) + ": " + SwiftSyntax.identifier(parameter.name)
        }.joined(separator: ", ")
        let accessor = SwiftSyntax.identifier(key.name + "Key")
        writer.line("nonisolated " + access + " func " + name + "(" + parameters + ") -> " + valueType + " {")
        writer.indented { writer in
            writer.line("self." + accessor + "(" + arguments + ").value")
        }
        writer.line("}")
        writer.blank()
        let newValue = Self.unusedName("newValue", avoiding: key.parameters.map(\.name))
        let setter = SwiftSyntax.identifier("set" + SwiftSyntax.capitalized(key.name))
        writer.line("/// Stores a new value for `" + key.name + "`.")
        if let availability { writer.line(availability) }
        writer.line("nonisolated " + access + " func " + setter + "(_ " + newValue + ": " + valueType + ", " + parameters + ") {")
        writer.indented { writer in
            writer.line("self." + accessor + "(" + arguments + ").value = " + newValue)
        }
        writer.line("}")
        writer.blank()
        writer.line("/// `" + key.name + "` for these parameters, bound to its store `" + key.store + "`: observe it, reset it, bind it.")
        if let availability { writer.line(availability) }
        writer.line("nonisolated " + access + " func " + accessor + "(" + parameters + ") -> KeyCatalog.CatalogKey<" + valueType + "> {")
        writer.indented { writer in
            writer.startLine()
            writeBinding(of: key, storesExpression: "self.stores", parameterized: true, into: &writer)
            writer.endLine()
        }
        writer.line("}")
    }

    /// `base`, or `base_`, `base__`… when a parameter already has that name.
    static func unusedName(_ base: String, avoiding names: [String]) -> String {
        var name = base
        while names.contains(name) { name += "_" }
        return name
    }

    // MARK: Registration table

    private func renderEntries(into writer: inout CodeWriter) {
        let keys = catalog.keys
        let chunks = stride(from: 0, to: keys.count, by: Self.entriesPerFunction).map {
            $0..<min($0 + Self.entriesPerFunction, keys.count)
        }
        let entryType = "KeyCatalog.KeyCatalogEntry"
        writer.line("/// Every declared key, in manifest order: for settings screens, docs and resetting.")
        writer.block("nonisolated \(access) static let entries: [\(entryType)] = {", closer: "}()") { writer in
            writer.line("var entries: [\(entryType)] = []")
            writer.line("entries.reserveCapacity(\(keys.count))")
            if chunks.count == 1 {
                renderAppends(chunks[0], into: &writer)
            } else {
                for index in chunks.indices {
                    writer.line("_appendEntries\(index)(to: &entries)")
                }
            }
            writer.line("return entries")
        }
        guard chunks.count > 1 else { return }
        for (index, chunk) in chunks.enumerated() {
            writer.blank()
            writer.block("nonisolated private static func _appendEntries\(index)(to entries: inout [\(entryType)]) {") { writer in
                renderAppends(chunk, into: &writer)
            }
        }
    }

    private func renderAppends(_ range: Range<Int>, into writer: inout CodeWriter) {
        // Through a buffer pointer, keys are borrowed rather than copied one by one.
        catalog.keys.withUnsafeBufferPointer { keys in
            for index in range {
                renderAppend(keys[index], into: &writer)
            }
        }
    }

    private func renderAppend(_ key: KeyDeclaration, into writer: inout CodeWriter) {
        guard key.isParameterized else {
            renderAppend(key, defaultDescription: nil, into: &writer)
            return
        }
        switch key.default {
        case .value(let value):
            renderAppend(key, defaultDescription: value, into: &writer)
        case .debugRelease(let debug, let release):
            writer.line("#if DEBUG")
            renderAppend(key, defaultDescription: debug, into: &writer)
            writer.line("#else")
            renderAppend(key, defaultDescription: release, into: &writer)
            writer.line("#endif")
        }
    }

    /// `entries.append(KeyCatalog.KeyCatalogEntry(name: "launchCount", key: …, store: "standard", typeName: "Int"))`;
    /// a parameterized key's entry takes its template and a description of its default instead.
    private func renderAppend(_ key: KeyDeclaration, defaultDescription: DefaultValue?, into writer: inout CodeWriter) {
        // Written piece by piece into the line: this runs once per key.
        writer.startLine()
        writer.write("entries.append(KeyCatalog.KeyCatalogEntry(name: ")
        SwiftSyntax.writeStringLiteral(key.name, into: &writer)
        if defaultDescription != nil {
            writer.write(", storageKeyTemplate: ")
            SwiftSyntax.writeStringLiteral(key.storageKey.text, into: &writer)
            writer.write(", parameters: [")
            for (index, parameter) in key.parameters.enumerated() {
                if index > 0 { writer.write(", ") }
                SwiftSyntax.writeStringLiteral(parameter.name, into: &writer)
            }
            writer.write("]")
        } else {
            writer.write(", key: ")
            writeOwner(of: key, into: &writer)
            writer.write(".")
            writer.write(SwiftSyntax.identifier(key.name))
        }
        writer.write(", store: ")
        SwiftSyntax.writeStringLiteral(key.store, into: &writer)
        writer.write(", typeName: ")
        SwiftSyntax.writeStringLiteral(SwiftTypes.manifestSpelling(of: key.type), into: &writer)
        if let defaultDescription {
            writer.write(", defaultDescription: ")
            SwiftSyntax.writeStringLiteral(SwiftLiterals.description(of: defaultDescription), into: &writer)
        }
        if let doc = key.doc {
            writer.write(", doc: ")
            SwiftSyntax.writeStringLiteral(doc, into: &writer)
        }
        if key.isDebugKey { writer.write(", isDebugKey: true") }
        if let message = key.deprecated {
            writer.write(", deprecationMessage: ")
            SwiftSyntax.writeStringLiteral(message, into: &writer)
        }
        if key.secret { writer.write(", isSecret: true") }
        writer.write("))")
        writer.endLine()
    }

    private func renderRegistration(into writer: inout CodeWriter) {
        writer.line("/// Registers every key's default in its store's registration domain, for code that reads")
        writer.line("/// the stores without KeyCatalog.")
        writer.block("nonisolated \(access) func register() {") { writer in
            writer.block("for entry in Self.entries {") { writer in
                writer.line("guard let store = self.stores[entry.store] else { continue }")
                writer.line("entry.register(in: store)")
            }
        }
        writer.blank()
        let names = StoresRenderer(catalog: catalog, access: access).userDefaultsStoreNames
        writer.line("/// Registers the defaults of the keys kept in UserDefaults (\(names.map { "`\($0)`" }.joined(separator: ", "))) in")
        writer.line("/// `defaults`' registration domain.")
        writer.block("nonisolated \(access) static func register(in defaults: Foundation.UserDefaults) {") { writer in
            writer.block("for entry in entries {") { writer in
                writer.line("switch entry.store {")
                writer.line("case \(names.map(SwiftSyntax.stringLiteral).joined(separator: ", ")): entry.register(in: defaults)")
                writer.line("default: continue")
                writer.line("}")
            }
        }
        writer.blank()
        writer.line("/// Removes every declared key's value from its store, so reads give the defaults.")
        writer.line("/// Parameterized keys are left alone: their storage keys are not known.")
        writer.block("nonisolated \(access) func reset() {") { writer in
            writer.block("for entry in Self.entries where !entry.isParameterized {") { writer in
                writer.line("guard let store = self.stores[entry.store] else { continue }")
                writer.line("entry.reset(in: store)")
            }
        }
        writer.blank()
        writer.line("/// The keys whose stored value differs from the default, as a JSON settings document: for")
        writer.line("/// backups, support and moving settings. Secrets and keychain stores are never exported.")
        writer.block("nonisolated \(access) func exportSettings() throws -> Foundation.Data {") { writer in
            writer.line("try KeyCatalog.KeyCatalogSettings.export(catalog: \(SwiftSyntax.stringLiteral(catalog.name)), entries: Self.entries) { self.stores[$0] }")
        }
        writer.blank()
        writer.line("/// Writes a document `exportSettings()` made: every value validated first, then all written or")
        writer.line("/// none (see `KeyCatalogSettings`). Keys the document does not name keep their values.")
        writer.line("@discardableResult")
        writer.block("nonisolated \(access) func importSettings(from data: Foundation.Data) throws -> KeyCatalog.KeyCatalogSettings.ImportReport {") { writer in
            writer.line("try KeyCatalog.KeyCatalogSettings.importSettings(from: data, entries: Self.entries) { self.stores[$0] }")
        }
    }
}
