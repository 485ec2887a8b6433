import Foundation
import KeyCatalog

/// The window layout, a Codable type written in Swift; keys.json stores it with `"representation": "codable"`.
struct WindowLayout: Codable, Sendable, Equatable, CustomStringConvertible {
    var columns: Int
    var showsSidebar: Bool

    var description: String { "\(columns) columns, sidebar \(showsSidebar ? "shown" : "hidden")" }
}

/// The transform keys.json names for `theme`'s migration: older versions stored the theme as an index.
func themeFromIndex(_ index: Int) -> Theme? {
    switch index {
    case 0: .system
    case 1: .light
    case 2: .dark
    default: nil
    }
}
