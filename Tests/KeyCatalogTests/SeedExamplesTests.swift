// The examples of PersistentKeyValueKit's README, unchanged but for `import KeyCatalog`.
// (UIContentSizeCategory and SwiftUI do not exist on Linux. The README's conformances of `Date`
// and `Character` are KeyCatalog's own, public ones, exercised below: outside the library they
// could not compile, a public protocol's witness for a public type must be public.)
import Foundation
import KeyCatalog
import Testing

enum RuntimeColorScheme: String {
    case dark
    case light
    case system
}

extension RuntimeColorScheme: KeyValuePersistible {
    static var persistentKeyValueRepresentation: some PersistentKeyValueRepresentation<Self> {
        RawRepresentablePersistentKeyValueRepresentation()
    }
}

extension PersistentKeyProtocol where Self == PersistentKey<RuntimeColorScheme> {
    static var runtimeColorScheme: Self {
        Self("RuntimeColorScheme", defaultValue: .system)
    }
}

extension PersistentKeyProtocol where Self == PersistentKey<Date> {
    static var mostRecentLaunchDate: Self {
        Self("MostRecentLaunchDate", defaultValue: .distantPast)
    }
}

extension PersistentKeyProtocol where Self == PersistentKey<String?> {
    static func selectedLayoutID(forListID listID: String) -> Self {
        Self("\(listID)::SelectedLayoutID", defaultValue: nil)
    }
}

extension PersistentKeyProtocol where Self == PersistentDebugKey<Bool> {
    static var isAppStoreRatingEnabled: Self {
        Self(
            "IsAppStoreRatingEnabled",
            debugDefaultValue: false,
            releaseDefaultValue: true
        )
    }
}

enum NotificationFrequency: String {
    case daily
    case weekly
    case monthly
}
extension NotificationFrequency: KeyValuePersistible {
    static var persistentKeyValueRepresentation: some PersistentKeyValueRepresentation<Self> {
        RawRepresentablePersistentKeyValueRepresentation()
    }
}

struct Contact: Codable, Sendable {
    let nickname: String
    let dateOfBirth: Date
}
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
extension Contact: KeyValuePersistible {
    static var persistentKeyValueRepresentation: some PersistentKeyValueRepresentation<Self> {
        CodablePersistentKeyValueRepresentation()
    }
}

extension PersistentKeyProtocol where Self == PersistentKey<Date?> {
    static var mostRecentAppStoreReviewRequestDate: Self {
        Self(
            "MostRecentAppStoreReviewRequestDate",
            defaultValue: nil,
            representation: ProxyPersistentKeyValueRepresentation(
                to: { date in date.ISO8601Format() },
                from: { string in try? Date.ISO8601FormatStyle().parse(string) }
            )
        )
    }
}

extension PersistentKeyProtocol where Self == PersistentKey<Int> {
    static var launchCount: Self {
        Self("LaunchCount", defaultValue: 1)
    }
}

// The README's two declarations of `arePushNotificationsEnabled`, under distinct names.
extension PersistentKeyProtocol where Self == PersistentKey<Bool?> {
    static var arePushNotificationsEnabled: Self {
        Self("ArePushNotificationsEnabled", defaultValue: nil)
    }
}

extension PersistentKeyProtocol where Self == PersistentKey<Bool> {
    static var arePushNotificationsEnabledNonOptional: Self {
        Self("ArePushNotificationsEnabled", defaultValue: true)
    }
}

@Suite("Seed examples (PersistentKeyValueKit README)")
struct SeedExamplesTests {
    let suite = TemporarySuite()
    var userDefaults: UserDefaults { suite.defaults }

    @Test func quickStart() {
        #expect(userDefaults.get(.runtimeColorScheme) == .system)
        userDefaults.set(.runtimeColorScheme, to: .dark)
        #expect(userDefaults.get(.runtimeColorScheme) == .dark)
        #expect(userDefaults.string(forKey: "RuntimeColorScheme") == "dark")
    }

    @Test func staticAndParameterizedKeys() {
        let now = Date(timeIntervalSinceReferenceDate: 800_000_000.25)
        #expect(userDefaults.get(.mostRecentLaunchDate) == .distantPast)
        userDefaults.set(.mostRecentLaunchDate, to: now)
        #expect(userDefaults.get(.mostRecentLaunchDate) == now)
        // Date is stored as its time interval since the reference date, as the README says.
        #expect(userDefaults.double(forKey: "MostRecentLaunchDate") == now.timeIntervalSinceReferenceDate)

        let listID = "inbox"
        #expect(userDefaults.get(.selectedLayoutID(forListID: listID)) == nil)
        userDefaults.set(.selectedLayoutID(forListID: listID), to: "grid")
        if let layoutID = userDefaults.get(.selectedLayoutID(forListID: listID)) {
            #expect(layoutID == "grid")
        } else {
            Issue.record("expected a stored layout ID")
        }
        #expect(userDefaults.string(forKey: "inbox::SelectedLayoutID") == "grid")
        #expect(userDefaults.get(.selectedLayoutID(forListID: "archive")) == nil)
    }

    @Test(.debugBuildsOnly) func debugKeys() {
        userDefaults.set(.isAppStoreRatingEnabled, to: false)
        // Tests are built in Debug.
        #expect(userDefaults.get(.isAppStoreRatingEnabled) == false)
        userDefaults.set(.isAppStoreRatingEnabled, to: true)
        #expect(userDefaults.get(.isAppStoreRatingEnabled) == true)

        let release = PersistentDebugKey<Bool>(
            "IsAppStoreRatingEnabled", debugDefaultValue: false, releaseDefaultValue: true, configuration: .release
        )
        userDefaults.set(release, to: false)
        #expect(userDefaults.get(release) == true, "Release reads return the release default")
        #expect(userDefaults.bool(forKey: "IsAppStoreRatingEnabled") == true, "the Debug write above is all that is stored")
    }

    @Test func representations() {
        let frequency = PersistentKey<NotificationFrequency>("NotificationFrequency", defaultValue: .weekly)
        userDefaults.set(frequency, to: .monthly)
        #expect(userDefaults.get(frequency) == .monthly)
        #expect(userDefaults.string(forKey: "NotificationFrequency") == "monthly")

        let contactKey = PersistentKey<Contact?>("Contact", defaultValue: nil)
        let contact = Contact(nickname: "Ann", dateOfBirth: Date(timeIntervalSince1970: 0))
        userDefaults.set(contactKey, to: contact)
        #expect(userDefaults.get(contactKey)?.nickname == "Ann")
        #expect(userDefaults.get(contactKey)?.dateOfBirth == contact.dateOfBirth)
        #expect(userDefaults.data(forKey: "Contact") != nil, "Codable values are stored as Data")

        let initial = PersistentKey<Character>("Initial", defaultValue: "?")
        userDefaults.set(initial, to: "é")
        #expect(userDefaults.get(initial) == "é")
        #expect(userDefaults.string(forKey: "Initial") == "é")
    }

    @Test func customRepresentationForOneKey() {
        #expect(userDefaults.get(.mostRecentAppStoreReviewRequestDate) == nil)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        userDefaults.set(.mostRecentAppStoreReviewRequestDate, to: date)
        #expect(userDefaults.get(.mostRecentAppStoreReviewRequestDate) == date)
        #expect(userDefaults.string(forKey: "MostRecentAppStoreReviewRequestDate") == "2023-11-14T22:13:20Z")
        userDefaults.set(.mostRecentAppStoreReviewRequestDate, to: nil)
        #expect(userDefaults.object(forKey: "MostRecentAppStoreReviewRequestDate") == nil)
    }

    @Test func registration() async {
        // The registration domain is process-wide: "LaunchCount" registered here would be read by
        // every other test's suite. So this runs in a child process of its own.
        await #expect(processExitsWith: .success) {
            let suite = TemporarySuite("registration")
            let userDefaults = suite.defaults
            userDefaults.register(.launchCount)
            #expect(userDefaults.integer(forKey: "LaunchCount") == 1)
            #expect(userDefaults.get(.launchCount) == 1)
            #expect(!userDefaults.contains(.launchCount), "a registered default is not a stored value")
            userDefaults.set(.launchCount, to: 5)
            #expect(userDefaults.contains(.launchCount))
            withExtendedLifetime(suite) {}
        }
    }

    @Test func noImplicitDefaults() {
        #expect(userDefaults.get(.arePushNotificationsEnabled) == nil)
        #expect(userDefaults.get(.arePushNotificationsEnabledNonOptional) == true)
        userDefaults.set(.arePushNotificationsEnabled, to: false)
        #expect(userDefaults.get(.arePushNotificationsEnabled) == false)
        #expect(userDefaults.get(.arePushNotificationsEnabledNonOptional) == false)
    }

    @Test func dateConformanceIsTheReadmesProxy() throws {
        // The README shows Date's conformance as a proxy to timeIntervalSinceReferenceDate.
        let readme = ProxyPersistentKeyValueRepresentation<Date, Double>(
            to: \.timeIntervalSinceReferenceDate,
            from: Date.init(timeIntervalSinceReferenceDate:)
        )
        let date = Date(timeIntervalSinceReferenceDate: 12.5)
        #expect(try readme.persistentValue(for: date) == Date.persistentKeyValueRepresentation.persistentValue(for: date))
        #expect(try readme.value(from: .double(12.5)) == date)
    }
}
