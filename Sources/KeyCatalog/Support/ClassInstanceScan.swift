import Foundation

/// Whether a value holds a class instance anywhere inside it: a struct with a class-typed
/// property, an array of such structs, an enum case carrying one.
///
/// A value kept to be handed to every later reader (the Codable memo, an in-memory store's decoded
/// collection) must hold none: a reader that changed such an instance in place would change what
/// every other reader gets, and the value would no longer be what is stored.
///
/// Foundation's value types (`Data`, `URL`, `Date`, `UUID`, `Decimal`, `Locale`, `TimeZone`,
/// `Calendar`) and strings count as values whatever they use inside, as they share nothing a
/// reader can change. The scan reflects the value (`Mirror`), so it costs about a fifth of what
/// decoding it does (`keycatalog-benchmarks --memo-miss`); stores call it only when they are about
/// to keep a value they decoded, never on a read they answer from one kept. It cannot see a class
/// that a struct's own custom mirror leaves out.
enum _ClassInstanceScan {
    static func holdsClassInstance<Value>(_ value: Value) -> Bool {
        if _isPOD(Value.self) || leaves.contains(ObjectIdentifier(Value.self)) { return false }
        return holds(value)
    }

    private static func holds(_ value: Any) -> Bool {
        let type = type(of: value)
        // By its type first: a class with a custom mirror reflects with no display style.
        if type is AnyClass { return true }
        if leaves.contains(ObjectIdentifier(type)) { return false }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .class { return true }
        for child in mirror.children where holds(child.value) { return true }
        return false
    }

    /// Types that hold no class instance a reader could change, known without reflecting them
    /// (reflecting an `Int` costs about 200 ns).
    private static let leaves: Set<ObjectIdentifier> = [
        ObjectIdentifier(String.self), ObjectIdentifier(Substring.self), ObjectIdentifier(Character.self),
        ObjectIdentifier(Data.self), ObjectIdentifier(URL.self), ObjectIdentifier(Date.self),
        ObjectIdentifier(UUID.self), ObjectIdentifier(Decimal.self), ObjectIdentifier(Locale.self),
        ObjectIdentifier(TimeZone.self), ObjectIdentifier(Calendar.self),
        ObjectIdentifier(Bool.self), ObjectIdentifier(Double.self), ObjectIdentifier(Float.self),
        ObjectIdentifier(Int.self), ObjectIdentifier(Int8.self), ObjectIdentifier(Int16.self),
        ObjectIdentifier(Int32.self), ObjectIdentifier(Int64.self), ObjectIdentifier(UInt.self),
        ObjectIdentifier(UInt8.self), ObjectIdentifier(UInt16.self), ObjectIdentifier(UInt32.self),
        ObjectIdentifier(UInt64.self),
        ObjectIdentifier([String].self), ObjectIdentifier([Int].self), ObjectIdentifier([Double].self),
        ObjectIdentifier([Bool].self), ObjectIdentifier([Data].self), ObjectIdentifier([Date].self),
        ObjectIdentifier([URL].self), ObjectIdentifier([String: String].self), ObjectIdentifier([String: Int].self),
        ObjectIdentifier([String: Double].self), ObjectIdentifier([String: Bool].self),
    ]
}
