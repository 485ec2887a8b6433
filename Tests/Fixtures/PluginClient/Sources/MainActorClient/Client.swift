// A target whose default isolation is the main actor, as Xcode 26's new app targets are: its
// generated catalog must compile, and be usable on the main actor and off it.
import Foundation
import KeyCatalog

/// The app's own type that keys.json names: declared `nonisolated`, as such an app declares
/// the types it stores, so that its conformances can be used off the main actor.
nonisolated struct WindowFrame: Codable, Sendable, Equatable {
    var width: Double
    var height: Double
}

/// The migration transform keys.json names, `nonisolated` for the same reason.
nonisolated func volumeFromPercent(_ percent: Int) -> Double? {
    Double(percent) / 100
}

/// On the main actor: every key, read and written.
func useOnTheMainActor(_ keys: MainActorKeys) -> Int {
    keys.launchCount += 1
    keys.layout = .grid
    keys.setScale(2, documentID: "a")
    _ = keys.frame
    return increment(keys.$launchCount)
}

/// Off the main actor, a key bound on it: a `CatalogKey` works on any thread.
nonisolated func increment(_ key: CatalogKey<Int>) -> Int {
    key.value += 1
    return key.value
}

/// Off the main actor: the catalog's initializer, its registration table, its migrations, its
/// parameterized keys and its stores.
nonisolated func useOffTheMainActor() -> Int {
    let keys = MainActorKeys(stores: .inMemory())
    _ = keys.migrate()
    keys.scaleKey(documentID: "a").value = 3
    return MainActorKeys.entries.count + Int(keys.scale(documentID: "a"))
}
