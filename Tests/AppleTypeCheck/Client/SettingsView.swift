// An app's SwiftUI code as KeyCatalog's README shows it: checked against the stand-in SwiftUI.
// The catalog it uses is the `basic` golden (Tests/Fixtures/Goldens/basic/Expected.swift),
// compiled into this module the way the build plugin compiles one into an app target.
import Foundation
import KeyCatalog
import SwiftUI

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
struct SettingsView: View {
    @PersistentValue(.launchCount) var launchCount
    @PersistentValue(.hasSeenOnboarding) var hasSeenOnboarding: Bool
    @PersistentValue(.username, store: UbiquitousKeyValueStore.default) var username

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
            Toggle("Seen onboarding", isOn: Binding(get: { keys.hasSeenOnboarding }, set: { keys.hasSeenOnboarding = $0 }))
        }
    }
}

/// The environment's default store, replaced for a subtree.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
struct RootView: View {
    var body: some View {
        VStack {
            SettingsView()
                .defaultPersistentKeyValueStore(UserDefaults(suiteName: "group.com.example.app")!)
            SettingsView()
                .defaultPersistentKeyValueStore(UbiquitousKeyValueStore.default)
            CatalogView()
        }
    }
}
