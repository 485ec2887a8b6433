// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "KeyCatalog",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "KeyCatalog", targets: ["KeyCatalog"]),
        .executable(name: "keycatalog", targets: ["keycatalog"]),
        .executable(name: "keycatalog-example", targets: ["KeyCatalogExample"]),
        .executable(name: "keycatalog-benchmarks", targets: ["KeyCatalogBenchmarks"]),
        .plugin(name: "KeyCatalogPlugin", targets: ["KeyCatalogPlugin"]),
        .plugin(name: "LintKeys", targets: ["LintKeys"]),
        .plugin(name: "GenerateKeys", targets: ["GenerateKeys"]),
    ],
    targets: [
        // The thin runtime that generated catalogs (and people) compile against.
        .target(name: "KeyCatalog"),

        // The generator's core: manifest parsing, lint rules, Swift rendering.
        .target(name: "KeyCatalogGenerator"),

        // The `keycatalog` command: argument parsing and file I/O only.
        .executableTarget(name: "keycatalog", dependencies: ["KeyCatalogGenerator"]),

        // Build plugin: generates a target's catalog from the keys.json in its folder.
        .plugin(name: "KeyCatalogPlugin", capability: .buildTool(), dependencies: ["keycatalog"]),

        // `swift package lint-keys`: read-only, so CI runs it without flags.
        .plugin(
            name: "LintKeys",
            capability: .command(
                intent: .custom(verb: "lint-keys", description: "Lint the keys.json of every target that has one"),
                permissions: []
            ),
            dependencies: ["keycatalog"]
        ),

        // `swift package --allow-writing-to-package-directory generate-keys`: commits generated code.
        .plugin(
            name: "GenerateKeys",
            capability: .command(
                intent: .custom(verb: "generate-keys", description: "Write each target's generated key catalog into the target"),
                permissions: [.writeToPackageDirectory(reason: "Writes KeyCatalog.generated.swift into each target that has a keys.json")]
            ),
            dependencies: ["keycatalog"]
        ),

        // The README's main command: a launch counter and a settings table.
        // keys.json here is a symlink to the top-level example catalog.
        .executableTarget(name: "KeyCatalogExample", dependencies: ["KeyCatalog"], plugins: ["KeyCatalogPlugin"]),

        // `swift run -c release keycatalog-benchmarks`: typed vs. raw access, ns/op.
        .executableTarget(name: "KeyCatalogBenchmarks", dependencies: ["KeyCatalog"]),

        // A child process for KeyCatalogTests' durability tests (writes, then exits or is killed).
        .executableTarget(name: "KeyCatalogTestHelper", dependencies: ["KeyCatalog"]),

        // A child process for the migration crash tests (runs a migration, is killed mid-way).
        .executableTarget(name: "KeyCatalogMigrationHelper", dependencies: ["KeyCatalog"]),

        .testTarget(name: "KeyCatalogTests", dependencies: ["KeyCatalog", "KeyCatalogTestHelper", "KeyCatalogMigrationHelper"]),
        .testTarget(name: "KeyCatalogGeneratorTests", dependencies: ["KeyCatalogGenerator", "keycatalog"]),

        // The golden generated catalogs (symlinked from Tests/Fixtures/Goldens), compiled and
        // exercised against real stores: a golden that does not compile or misbehaves fails.
        .testTarget(name: "GeneratedCatalogTests", dependencies: ["KeyCatalog"]),

        // Real `swift build` / `swift package` runs on Tests/Fixtures packages; enabled by
        // KEYCATALOG_END_TO_END=1 (CI sets it).
        .testTarget(name: "PluginEndToEndTests"),
    ]
)
