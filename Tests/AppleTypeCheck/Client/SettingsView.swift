// An app's SwiftUI code as KeyCatalog's README shows it: checked against the stand-in SwiftUI.
// The catalog it uses is the `basic` golden (Tests/Fixtures/Goldens/basic/Expected.swift),
// compiled into this module the way the build plugin compiles one into an app target.
import Foundation
import KeyCatalog
import SwiftUI

// Keys declared by hand, as apps without a keys.json do; any store takes them.
extension PersistentKeyProtocol where Self == PersistentKey<Int> {
    static var handLaunchCount: Self { Self("HandLaunchCount", defaultValue: 0) }
}

extension PersistentKeyProtocol where Self == PersistentKey<Bool> {
    static var handHasSeenOnboarding: Self { Self("HandHasSeenOnboarding", defaultValue: false) }
}

extension PersistentKeyProtocol where Self == PersistentKey<String> {
    static var handUsername: Self { Self("HandUsername", defaultValue: "") }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
struct SettingsView: View {
    @PersistentValue(.handLaunchCount) var launchCount
    @PersistentValue(.handHasSeenOnboarding) var hasSeenOnboarding: Bool
    @PersistentValue(.handUsername, store: UbiquitousKeyValueStore.default) var username
    // PersistentKeyValueKit's README forms.
    @PersistentValue(.handHasSeenOnboarding, store: .ubiquitous) var hasSeenOnboardingEverywhere

    var body: some View {
        VStack {
            Text("Launched \(launchCount) times")
            Toggle("Seen onboarding", isOn: $hasSeenOnboarding)
            Stepper("Launches", value: $launchCount, in: 0...1_000)
            TextField("User name", text: $username)
            if hasSeenOnboarding {
                Text(verbatim: username)
            }
        }
    }
}

/// A generated catalog read and written from a view.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
struct CatalogView: View {
    let keys = Keys(stores: .inMemory())

    var body: some View {
        VStack {
            Text("Launches: \(keys.launchCount)")
            Toggle("Seen onboarding", isOn: keys.$hasSeenOnboarding.binding)
            TextField("User name", text: keys.$username.binding)
        }
    }
}

/// Catalog keys by key path: each in its declared store, in the environment's catalog.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
struct CatalogSettingsView: View {
    @PersistentValue(\Keys.$launchCount) var launchCount
    @PersistentValue(\Keys.$hasSeenOnboarding) var hasSeenOnboarding: Bool
    @PersistentValue(\Keys.$username) var username

    var body: some View {
        VStack {
            Stepper("Launches", value: $launchCount, in: 0...1_000)
            Toggle("Seen onboarding", isOn: $hasSeenOnboarding)
            TextField("User name", text: $username)
            Text(verbatim: "\(launchCount) \(hasSeenOnboarding) \(username)")
        }
    }
}

/// The environment's default store, replaced for a subtree.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
struct RootView: View {
    var body: some View {
        VStack {
            SettingsView()
                .defaultPersistentKeyValueStore(UserDefaultsPersistence.suite(named: "group.com.example.app")!)
            SettingsView()
                .defaultPersistentKeyValueStore(UbiquitousKeyValueStore.default)
            SettingsView()
                .defaultPersistentKeyValueStore(.ubiquitous)
            CatalogView()
            CatalogSettingsView()
            CatalogSettingsView()
                .keyCatalog(Keys(stores: .inMemory()))  // tests and previews: one place
        }
    }
}
