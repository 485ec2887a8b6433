import Foundation
import KeyCatalog

// The app's own types that the custom-types golden (Tests/Fixtures/Goldens/custom-types) names.

/// A type with its own `KeyValuePersistible` conformance: keys need no `representation`.
nonisolated struct GoldenWindowFrame: Sendable, Codable, Equatable, KeyValuePersistible {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    static var persistentKeyValueRepresentation: CodablePersistentKeyValueRepresentation<GoldenWindowFrame, JSONEncoder, JSONDecoder> {
        CodablePersistentKeyValueRepresentation()
    }
}

/// A `Codable` type stored with `"representation": "codable"`.
nonisolated struct GoldenContact: Sendable, Codable, Equatable {
    var nickname: String
    var age: Int
}

/// A `RawRepresentable` struct stored with `"representation": "rawValue"`.
nonisolated struct GoldenAccountKind: RawRepresentable, Sendable, Equatable {
    var rawValue: String
    init(rawValue: String) { self.rawValue = rawValue }
}

/// A `LosslessStringConvertible` type stored with `"representation": "string"`.
nonisolated struct GoldenCelsius: LosslessStringConvertible, Sendable, Equatable {
    var degrees: Double
    init(_ degrees: Double) { self.degrees = degrees }
    init?(_ description: String) {
        guard let degrees = Double(description) else { return nil }
        self.degrees = degrees
    }
    var description: String { "\(degrees)" }
}

/// The shadowing golden's app type named like `PersistentKey`'s `id` property.
// swift-format-ignore: TypeNamesShouldBeCapitalized
nonisolated struct id: LosslessStringConvertible, KeyValuePersistible, Sendable, Equatable {
    var number: Int
    init(_ number: Int) { self.number = number }
    init?(_ description: String) {
        guard let number = Int(description) else { return nil }
        self.number = number
    }
    var description: String { "\(number)" }
    static var persistentKeyValueRepresentation: LosslessStringConvertiblePersistentKeyValueRepresentation<id> { .init() }
}

/// The stores golden's migration transform: an old percentage becomes a 0...1 volume.
@Sendable nonisolated func goldenVolumeFromPercent(_ percent: Int) -> Double? {
    (0...100).contains(percent) ? Double(percent) / 100 : nil
}

/// The representations golden's migration transform: a source without `fromType`, read as the
/// key stores its values (an ISO 8601 string), moves one day later.
@Sendable nonisolated func goldenDateNextDay(_ date: Date) -> Date? {
    date.addingTimeInterval(86_400)
}

/// A type named by a keyword (`"type": "GoldenKeywords.default"`), found by the fuzz.
nonisolated enum GoldenKeywords {
    struct `default`: RawRepresentable, Sendable, Equatable {
        var rawValue: String
        init(rawValue: String) { self.rawValue = rawValue }
    }
}

/// Globals named as the large-defaults golden's builders named their variables before they took
/// a leading `_` (`value`, `element1`): its key `bigOffsets` has Swift elements that name these.
nonisolated let value = 1
nonisolated let element1 = 2

/// A generic type of the app's own: the keywords golden names it with a declared enum named like
/// a keyword as its argument (`GoldenBox<each>`).
nonisolated struct GoldenBox<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    var value: Value
}

/// A generic type of the app's own with its own representation: the shadowing golden's
/// `boxCount` migrates from it under a parameter named `GoldenCounter`.
nonisolated struct GoldenCounter<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable, KeyValuePersistible {
    var value: Value

    static var persistentKeyValueRepresentation: CodablePersistentKeyValueRepresentation<GoldenCounter<Value>, JSONEncoder, JSONDecoder> {
        CodablePersistentKeyValueRepresentation()
    }
}

/// The shadowing golden's migration transform from `GoldenCounter<Int>`.
nonisolated func countFromGoldenCounter(_ counter: GoldenCounter<Int>) -> Int? {
    counter.value >= 0 ? counter.value : nil
}

/// A name with a dot for the shadowing golden's generic argument (`GoldenCounter<GoldenCounts.Whole>`).
nonisolated enum GoldenCounts {
    typealias Whole = Int
}
