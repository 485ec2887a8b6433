// swift-tools-version: 6.1
// A target that uses the build plugin without a keys.json: the build must say how to fix it.
import PackageDescription

let package = Package(
    name: "MissingManifest",
    dependencies: [.package(name: "KeyCatalog", path: "../../..")],
    targets: [
        .target(
            name: "NoManifest",
            dependencies: [.product(name: "KeyCatalog", package: "KeyCatalog")],
            plugins: [.plugin(name: "KeyCatalogPlugin", package: "KeyCatalog")]
        )
    ]
)
