// swift-tools-version: 6.2
// A client of KeyCatalog through its build plugin, used by the end-to-end tests.
import PackageDescription

let package = Package(
    name: "PluginClient",
    dependencies: [.package(name: "KeyCatalog", path: "../../..")],
    targets: [
        // Builds, and checks its generated catalog against real stores when run.
        .executableTarget(
            name: "PluginClient",
            dependencies: [.product(name: "KeyCatalog", package: "KeyCatalog"), "Models"],
            plugins: [.plugin(name: "KeyCatalogPlugin", package: "KeyCatalog")]
        ),
        // A type PluginClient's keys store, declared in another module (keys.json `imports`).
        .target(name: "Models"),
        // Its keys.json has errors at known positions: building it must fail with them.
        .target(
            name: "BrokenManifest",
            dependencies: [.product(name: "KeyCatalog", package: "KeyCatalog")],
            plugins: [.plugin(name: "KeyCatalogPlugin", package: "KeyCatalog")]
        ),
        // Its default isolation is the main actor, as Xcode 26's new app targets' is.
        .target(
            name: "MainActorClient",
            dependencies: [.product(name: "KeyCatalog", package: "KeyCatalog")],
            // Warnings as errors: a build that succeeded, also one found up to date, had none.
            swiftSettings: [.defaultIsolation(MainActor.self), .unsafeFlags(["-warnings-as-errors"])],
            plugins: [.plugin(name: "KeyCatalogPlugin", package: "KeyCatalog")]
        ),
        // Its keys.json names a migration transform this target does not define.
        .target(
            name: "MissingTransform",
            dependencies: [.product(name: "KeyCatalog", package: "KeyCatalog")],
            plugins: [.plugin(name: "KeyCatalogPlugin", package: "KeyCatalog")]
        ),
    ]
)
