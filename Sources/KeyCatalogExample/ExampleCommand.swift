import Foundation
import KeyCatalog

/// The example: a launch counter that persists across runs, the catalog as a table, and
/// `get` / `set` / `reset` from the command line.
enum ExampleCommand {
    static let usage = """
        usage: keycatalog-example              count this launch and show every key
               keycatalog-example get NAME     print one key's value
               keycatalog-example set NAME VALUE
                                               store a value (JSON or plain text: 3, true, dark, ["a","b"])
               keycatalog-example reset        remove every declared key's value
        """

    static func run(_ arguments: [String]) -> Int32 {
        // No explicit synchronize: KeyCatalog makes UserDefaults writes durable at normal exit.
        let keys = AppKeys(stores: .live)
        switch arguments.first {
        case nil:
            return launch(keys)
        case "get" where arguments.count == 2:
            return get(arguments[1], keys)
        case "set" where arguments.count == 3:
            return set(arguments[1], to: arguments[2], keys)
        case "reset" where arguments.count == 1:
            keys.reset()
            print("Reset \(AppKeys.entries.filter { !$0.isParameterized }.count) keys to their defaults.")
            return 0
        case "help", "-h", "--help":
            print(usage)
            return 0
        default:
            printError("unexpected arguments: \(arguments.joined(separator: " "))\n\(usage)")
            return 64
        }
    }

    private static func launch(_ keys: AppKeys) -> Int32 {
        let report = keys.migrate()
        if !report.isEmpty {
            print(report)
            print()
        }
        keys.launchCount += 1
        keys.sessionStartCount += 1
        let previousLaunch = keys.lastLaunchDate
        keys.lastLaunchDate = Date()
        if keys.installationID == nil {
            keys.installationID = UUID()
        }

        print("KeyCatalog example: launch #\(keys.launchCount)", terminator: "")
        if let previousLaunch {
            print(" (previous: \(previousLaunch.formatted(.iso8601)))")
        } else {
            print(" (first launch)")
        }
        print()
        print(table(keys))
        print()
        print("Try: swift run keycatalog-example set theme dark, then run it again.")
        return 0
    }

    private static func get(_ name: String, _ keys: AppKeys) -> Int32 {
        guard let entry = entry(named: name) else { return 1 }
        guard let store = keys.stores[entry.store], let value = entry.currentValueDescription(in: store) else {
            printError("'\(name)' is parameterized by \(entry.parameters.joined(separator: ", ")); use it from Swift: AppKeys.\(name)(…)")
            return 1
        }
        print(entry.isSecret ? "••••••" : value)
        return 0
    }

    private static func set(_ name: String, to text: String, _ keys: AppKeys) -> Int32 {
        guard let entry = entry(named: name), let store = keys.stores[entry.store] else { return 1 }
        do {
            try entry.setValue(parsing: text, in: store)
        } catch {
            printError("\(error)")
            return 1
        }
        print("\(name) = \(entry.isSecret ? "••••••" : entry.currentValueDescription(in: store) ?? text)")
        return 0
    }

    private static func entry(named name: String) -> KeyCatalogEntry? {
        if let entry = AppKeys.entries.first(where: { $0.name == name }) { return entry }
        let names = AppKeys.entries.map(\.name)
        let suggestion = names.min { distance($0.lowercased(), name.lowercased()) < distance($1.lowercased(), name.lowercased()) }
        var message = "no key named '\(name)'"
        if let suggestion, distance(suggestion.lowercased(), name.lowercased()) <= max(2, name.count / 3) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += "; the keys are: \(names.joined(separator: ", "))"
        }
        printError(message)
        return nil
    }

    /// The catalog as an aligned text table, with each key's current value.
    private static func table(_ keys: AppKeys) -> String {
        let header = ["Name", "Storage key", "Store", "Type", "Default", "Current value"]
        let rows: [[String]] = AppKeys.entries.map { entry in
            let current: String
            if entry.isParameterized {
                current = "(per \(entry.parameters.joined(separator: ", ")))"
            } else if entry.isSecret {
                current = entry.isStored(in: keys.stores[entry.store]!) ? "•••••• (set)" : "(not set)"
            } else {
                current = keys.stores[entry.store].flatMap { entry.currentValueDescription(in: $0) } ?? "?"
            }
            return [entry.name, entry.storageKey, entry.store, entry.typeName, entry.defaultDescription, current]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { min($0[column].count, 40) }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let clipped = cell.count > 40 ? String(cell.prefix(39)) + "…" : cell
                return clipped.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            .joined(separator: "  ")
            .trimmingCharacters(in: .whitespaces)
        }
        return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line))
            .joined(separator: "\n")
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    }

    /// Levenshtein distance, for "did you mean".
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
