#!/usr/bin/env bash
# Every golden catalog type-checks with no error and no warning in a module whose default
# isolation is the main actor (SwiftPM's `.defaultIsolation(MainActor.self)`, Xcode 26's new app
# targets), in Swift 6 and Swift 5 modes, beside the app types and transforms the goldens name,
# declared `nonisolated` as such an app declares them. (The compile fuzz checks random manifests
# the same way; the end-to-end tests build one such target through the plugin.)
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --target KeyCatalog
modules="$(swift build --show-bin-path)/Modules"
for mode in 6 5; do
    swiftc -typecheck -I "$modules" -package-name Goldens -swift-version "$mode" \
        -default-isolation MainActor -warnings-as-errors \
        Tests/GeneratedCatalogTests/Goldens/*.swift \
        Tests/GeneratedCatalogTests/Support/GoldenTypes.swift \
        Tests/GeneratedCatalogTests/Support/TransformFunctions.swift
    echo "goldens, Swift $mode, default isolation MainActor: no errors, no warnings"
done
