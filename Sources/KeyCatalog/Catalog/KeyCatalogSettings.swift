import Foundation

/// Export and import of a catalog's settings as a JSON document: for backups, support
/// diagnostics and moving settings to another machine. Generated catalogs call it from
/// `exportSettings()` and `importSettings(from:)`.
///
/// ```json
/// {
///   "format" : "keycatalog-settings",
///   "version" : 1,
///   "catalog" : "AppKeys",
///   "values" : {
///     "theme" : "dark",
///     "fontSize" : 15,
///     "lastSync" : 785000000.25,
///     "avatar" : { "$data" : "iVBORw0KGgo=" }
///   }
/// }
/// ```
///
/// - The document holds the keys whose stored value differs from their default, by catalog name,
///   each as its representation stores it: a `Date` key as seconds since 2001 (a number) or an
///   ISO 8601 string. JSON has no property-list dates, data or non-finite numbers, so those are
///   written `{"$date": seconds since 2001-01-01}` (exact), `{"$data": base64}` and
///   `{"$double": "nan" | "inf" | "-inf"}`. A dictionary's member whose name starts with `$` is
///   written with one `$` more (`"$$date"`), so that it is never read as one of those; a document
///   holding such a member is version 2, every other one version 1, which every KeyCatalog reads.
/// - Secrets are never exported: keys marked `secret` and every key kept in a keychain store.
///   Parameterized keys are not exported either: a store cannot list the keys a template made.
/// - Import is all or nothing. Every value is validated through its key's type and representation
///   first; if any is invalid the import throws ``ImportError`` naming each bad key and writes
///   nothing. Names the catalog does not know (a newer app's keys), secrets and parameterized
///   keys are skipped and listed in the ``ImportReport``. If a store refuses a write midway, the
///   keys already written get their previous values back, so nothing stored before is lost.
///   Keys the document does not mention keep their values.
public enum KeyCatalogSettings {
    /// The `format` member of every settings document.
    public static let format = "keycatalog-settings"

    /// What an import wrote and what it skipped.
    public struct ImportReport: Sendable, Equatable {
        /// The catalog names of the keys written.
        public var applied: [String] = []
        /// The catalog names skipped, each with the reason.
        public var skipped: [Skipped] = []

        /// A document entry that was not applied.
        public struct Skipped: Sendable, Equatable, CustomStringConvertible {
            /// The entry's catalog name.
            public var name: String
            /// Why it was skipped.
            public var reason: String
            /// `name: reason`.
            public var description: String { "\(name): \(reason)" }
        }
    }

    /// A document that cannot be imported; nothing was written.
    public struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong with the document as a whole, if anything (not JSON, another format).
        public var document: String?
        /// Each invalid entry: the key's catalog name and why its value was rejected.
        public var invalidValues: [(name: String, reason: String)] {
            invalid.map { ($0.name, $0.reason) }
        }
        var invalid: [ImportReport.Skipped] = []

        init(document: String) { self.document = document }
        init(invalid: [ImportReport.Skipped]) { self.invalid = invalid }

        /// What is wrong, and that nothing was written.
        public var description: String {
            if let document { return "settings not imported: \(document)" }
            return "settings not imported, nothing written: "
                + invalid.map { "'\($0.name)': \($0.reason)" }.joined(separator: "; ")
        }
    }

    /// The settings document of a catalog: `entries` read from the stores `store(named:)` gives.
    public static func export(
        catalog: String,
        entries: [KeyCatalogEntry],
        store: (String) -> AnyPersistentKeyValueStore?
    ) throws -> Data {
        var values: [String: Any] = [:]
        var escapesMembers = false
        for entry in entries where isExportable(entry, store: store(entry.store)) {
            guard let store = store(entry.store), let value = entry.exportedValue(in: store) else { continue }
            values[entry.name] = json(value)
            escapesMembers = escapesMembers || holdsMemberToEscape(value)
        }
        let document: [String: Any] = ["format": format, "version": escapesMembers ? 2 : 1, "catalog": catalog, "values": values]
        return try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    }

    /// Validates every value of `data` against `entries`, then writes them all, or nothing.
    ///
    /// - Throws: ``ImportError`` when the document is not a settings document or any value is
    ///   invalid for its key; nothing is written then. ``PersistentKeyValueFailure`` when a store
    ///   refuses a write; the keys written before it are restored first.
    @discardableResult
    public static func importSettings(
        from data: Data,
        entries: [KeyCatalogEntry],
        store: (String) -> AnyPersistentKeyValueStore?
    ) throws -> ImportReport {
        let object: Any
        do {
            object = try _JSONDocument.object(from: data)
        } catch {
            throw ImportError(document: "not JSON (\(error))")
        }
        guard let document = object as? [String: Any], document["format"] as? String == format else {
            throw ImportError(document: "not a settings document (its \"format\" must be \"\(format)\")")
        }
        guard let version = document["version"] as? Int, version == 1 || version == 2 else {
            throw ImportError(document: "settings document version \(document["version"].map { "\($0)" } ?? "missing") is not supported (this KeyCatalog reads versions 1 and 2)")
        }
        guard let values = document["values"] as? [String: Any] else {
            throw ImportError(document: "\"values\" must be an object of catalog names to values")
        }

        var report = ImportReport()
        var invalid: [ImportReport.Skipped] = []
        var writes: [(entry: KeyCatalogEntry, store: AnyPersistentKeyValueStore, write: KeyCatalogEntry.Write)] = []
        let byName = Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in values.keys.sorted() {
            guard let entry = byName[name] else {
                report.skipped.append(.init(name: name, reason: "no key of that name in this catalog"))
                continue
            }
            let target = store(entry.store)
            guard let target, isExportable(entry, store: target) else {
                let reason = entry.isParameterized ? "a parameterized key" : target == nil ? "its store '\(entry.store)' is not open" : "a secret"
                report.skipped.append(.init(name: name, reason: "\(reason); not imported"))
                continue
            }
            guard let stored = propertyListValue(json: values[name] as Any, unescapesMembers: version >= 2) else {
                invalid.append(.init(name: name, reason: "not a value a key can hold (\(values[name].map { "\($0)" } ?? "null"))"))
                continue
            }
            do {
                writes.append((entry, target, try entry.validatedWrite(of: stored)))
            } catch {
                invalid.append(.init(name: name, reason: (error as? KeyCatalogEntry.ParseError)?.reason ?? "\(error)"))
            }
        }
        guard invalid.isEmpty else { throw ImportError(invalid: invalid) }

        // Write, remembering each key's previous stored value to restore if a later write fails.
        var done: [(store: AnyPersistentKeyValueStore, key: String, previous: PropertyListValue?)] = []
        for (entry, store, write) in writes {
            let previous = store.hasPersistentValue(forKey: entry.storageKey) ? store.persistentValue(forKey: entry.storageKey) : nil
            do {
                try write(store)
            } catch {
                for undo in done.reversed() {
                    if let previous = undo.previous {
                        try? undo.store.setPersistentValue(previous, forKey: undo.key)
                    } else {
                        try? undo.store.removePersistentValue(forKey: undo.key)
                    }
                    undo.store.keyValueChanges.postCurrentValue(forKey: undo.key, in: undo.store)
                }
                throw error
            }
            done.append((store, entry.storageKey, previous))
            report.applied.append(entry.name)
        }
        return report
    }

    /// Secrets stay on the device: `secret` keys, and every key whose store is a keychain (or the
    /// file that stands in for one on Linux).
    static func isExportable(_ entry: KeyCatalogEntry, store: AnyPersistentKeyValueStore?) -> Bool {
        !entry.isParameterized && !entry.isSecret && !(store?.isKeychain ?? false)
    }

    /// The JSON form of a stored value.
    static func json(_ value: PropertyListValue) -> Any {
        switch value {
        case .bool(let bool): bool
        case .int(let int): int
        case .uint(let uint): uint
        case .double(let double):
            if double.isFinite { double } else { ["$double": double.isNaN ? "nan" : double < 0 ? "-inf" : "inf"] }
        case .string(let string): string
        case .data(let data): ["$data": data.base64EncodedString()]
        case .date(let date): ["$date": date.timeIntervalSinceReferenceDate]
        case .array(let elements): elements.map(json)
        case .dictionary(let members):
            Dictionary(uniqueKeysWithValues: members.map { name, member in (name.hasPrefix("$") ? "$" + name : name, json(member)) })
        }
    }

    /// Whether `value` holds a dictionary member whose name starts with `$` (which ``json(_:)``
    /// escapes, in a version 2 document).
    static func holdsMemberToEscape(_ value: PropertyListValue) -> Bool {
        switch value {
        case .array(let elements): elements.contains(where: holdsMemberToEscape)
        case .dictionary(let members): members.contains { $0.key.hasPrefix("$") || holdsMemberToEscape($0.value) }
        default: false
        }
    }

    /// The stored value a JSON value stands for (the inverse of `json(_:)`), `nil` for `null`.
    /// `unescapesMembers` (a version 2 document): a dictionary member named `$$…` is `$…`.
    static func propertyListValue(json object: Any, unescapesMembers: Bool = false) -> PropertyListValue? {
        if let members = object as? [String: Any], members.count == 1 {
            if let base64 = members["$data"] as? String {
                return Data(base64Encoded: base64).map(PropertyListValue.data)
            }
            if let seconds = members["$date"] as? NSNumber, !(members["$date"] is Bool) {
                return .date(Date(timeIntervalSinceReferenceDate: seconds.doubleValue))
            }
            if let special = members["$double"] as? String {
                return ["nan": .nan, "inf": .infinity, "-inf": -.infinity][special].map(PropertyListValue.double)
            }
        }
        if let array = object as? [Any] {
            var elements: [PropertyListValue] = []
            for element in array {
                guard let converted = propertyListValue(json: element, unescapesMembers: unescapesMembers) else { return nil }
                elements.append(converted)
            }
            return .array(elements)
        }
        if let members = object as? [String: Any] {
            var converted: [String: PropertyListValue] = [:]
            for (key, member) in members {
                guard let value = propertyListValue(json: member, unescapesMembers: unescapesMembers) else { return nil }
                converted[unescapesMembers && key.hasPrefix("$$") ? String(key.dropFirst()) : key] = value
            }
            return .dictionary(converted)
        }
        if object is NSNull { return nil }
        return PropertyListValue(foundationObject: object)
    }
}
