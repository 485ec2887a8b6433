#if !canImport(Darwin)
import CoreFoundation
import Foundation
import Testing

@testable import KeyCatalog

/// On Linux KeyCatalog writes a suite whose name it knows through CoreFoundation's preferences,
/// without `UserDefaults.set(_:forKey:)` in between (`PreferencesDomain`): what it stores must be
/// what `set(_:forKey:)` stores, object for object and in the file. (`.standard`, the current
/// application's domain, is written so by the durability tests' child processes.)
@Suite("UserDefaults on Linux: writes through CoreFoundation store what UserDefaults.set stores")
struct PreferencesDomainTests {
    static let values: [PropertyListValue] = [
        .bool(true), .bool(false),
        .int(0), .int(-1), .int(.max), .int(.min),
        .uint(.max),
        .double(1.5), .double(.infinity), .double(1e-300),
        .string(""), .string("héllo"), .string("👩‍👩‍👧 tab\tnewline\n<&>"),
        .data(Data()), .data(Data([0, 1, 2, 255])),
        .date(Date(timeIntervalSinceReferenceDate: 123_456)),
        .array([]), .array([.string("a"), .string("b")]), .array([.int(1), .string("mixed"), .bool(true), .double(2.5)]),
        .dictionary([:]),
        .dictionary(["nested": .array([.dictionary(["deep": .date(Date(timeIntervalSinceReferenceDate: 0))])]), "n": .uint(7)]),
    ]

    @Test func everyKindOfValueIsStoredAsUserDefaultsStoresIt() throws {
        let direct = TemporarySuite(), foundation = TemporarySuite()
        // An instance KeyCatalog does not know: written through `set(_:forKey:)`.
        let plain = UnopenedSuiteInstance(foundation).defaults
        #expect(UserDefaultsPersistence.preferencesDomain(of: direct.defaults) != nil, "KeyCatalog knows the suite it opened")
        #expect(UserDefaultsPersistence.preferencesDomain(of: plain) == nil)
        for (index, value) in Self.values.enumerated() {
            try direct.defaults.setPersistentValue(value, forKey: "value\(index)")
            plain.set(value.userDefaultsObject, forKey: "value\(index)")
        }
        let directDomain = PreferencesDomain(suiteName: direct.name), foundationDomain = PreferencesDomain(suiteName: foundation.name)
        for (index, value) in Self.values.enumerated() {
            let name = PreferencesDomain.name("value\(index)")
            let stored = try #require(directDomain.object(forName: name)), expected = try #require(foundationDomain.object(forName: name))
            #expect(type(of: stored) == type(of: expected), "\(value)")
            let read = try #require(direct.defaults.object(forKey: "value\(index)")), readExpected = try #require(plain.object(forKey: "value\(index)"))
            #expect(type(of: read) == type(of: readExpected), "\(value)")
            #expect(PropertyListValue(foundationObject: read) == PropertyListValue(foundationObject: readExpected), "\(value)")
        }
        #expect(direct.defaults.synchronize() && plain.synchronize())
        #expect(try Data(contentsOf: direct.fileURL) == Data(contentsOf: foundation.fileURL), "the same file")

        // Removals too.
        for index in Self.values.indices where index.isMultiple(of: 2) {
            direct.defaults.removePersistentValue(forKey: "value\(index)")
            plain.removeObject(forKey: "value\(index)")
        }
        #expect(direct.defaults.synchronize() && plain.synchronize())
        #expect(try Data(contentsOf: direct.fileURL) == Data(contentsOf: foundation.fileURL), "the same file after removals")
        #expect(direct.defaults.object(forKey: "value0") == nil)
    }
}
#endif
