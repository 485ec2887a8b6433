import Foundation

// The transforms golden's migration functions, written as a client would from the README: plain
// global functions (not @Sendable), several named like the key or a member of the catalog.

nonisolated func goldenModeFromIndex(_ oldValue: Int) -> GoldenMode? { oldValue == 1 ? .dark : oldValue == 0 ? .light : nil }
nonisolated func percent(_ value: Int) -> Double? { Double(value) / 100 }
nonisolated func entries(_ value: Int) -> Double? { Double(value) + 0.1 }
nonisolated func stores(_ value: Int) -> Double? { Double(value) + 0.2 }
nonisolated func register(_ value: Int) -> Double? { Double(value) + 0.3 }
nonisolated func migrations(_ value: Int) -> Double? { Double(value) + 0.4 }
nonisolated func `default`(_ value: Int) -> Bool? { value != 0 }
nonisolated func oldValue(_ value: String) -> Bool? { value == "yes" ? true : value == "no" ? false : nil }
nonisolated func level(_ value: String) -> Int? { Int(value) }

nonisolated extension GoldenMode {
    /// The transforms golden's static transform, from a type that a key's name would hide.
    static func index(_ mode: GoldenMode) -> Int? { mode == .dark ? 1 : 0 }
}
