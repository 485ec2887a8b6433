#!/usr/bin/env bash
# Every golden catalog type-checks with no error and no warning under the settings a client target
# may choose, in Swift 6 and Swift 5 modes:
# - default isolation on the main actor (SwiftPM's `.defaultIsolation(MainActor.self)`, Xcode
#   26's new app targets), beside the app types and transforms the goldens name, declared
#   `nonisolated` as such an app declares them;
# - imports internal by default (the upcoming feature InternalImportsByDefault).
# (The compile fuzz checks random manifests with the first; the end-to-end tests build one such
# target through the plugin.)
set -euo pipefail
cd "$(dirname "$0")/.."
# The compiler driver leaves a folder in TMPDIR for each run: this script's own, removed at the end.
TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/check-client-settings.XXXXXX")
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT

swift build --target KeyCatalog
modules="$(swift build --show-bin-path)/Modules"
check() {
    local label=$1; shift
    swiftc -typecheck -I "$modules" -package-name Goldens -warnings-as-errors "$@" \
        Tests/GeneratedCatalogTests/Goldens/*.swift \
        Tests/GeneratedCatalogTests/Support/GoldenTypes.swift \
        Tests/GeneratedCatalogTests/Support/TransformFunctions.swift
    echo "goldens, $label: no errors, no warnings"
}
for mode in 6 5; do
    check "Swift $mode, default isolation MainActor" -swift-version "$mode" -default-isolation MainActor
    check "Swift $mode, InternalImportsByDefault" -swift-version "$mode" -enable-upcoming-feature InternalImportsByDefault
done
# Each golden alone beside files with plain imports, as a client's other files are: together, one
# catalog's imports would hide another's (a `package import` beside a plain one is an error).
# (The transforms golden declares the type the support's transforms extend.)
transforms=Tests/GeneratedCatalogTests/Goldens/Transforms.generated.swift
for golden in Tests/GeneratedCatalogTests/Goldens/*.swift; do
    companions=(Tests/GeneratedCatalogTests/Support/GoldenTypes.swift Tests/GeneratedCatalogTests/Support/TransformFunctions.swift)
    [ "$golden" = "$transforms" ] || companions+=("$transforms")
    for settings in "" "-enable-upcoming-feature InternalImportsByDefault"; do
        # shellcheck disable=SC2086
        swiftc -typecheck -I "$modules" -package-name Goldens -warnings-as-errors -swift-version 6 $settings "$golden" "${companions[@]}"
    done
done
echo "each golden alone, beside plain imports, with and without InternalImportsByDefault: no errors, no warnings"
