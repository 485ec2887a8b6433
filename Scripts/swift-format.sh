#!/usr/bin/env bash
# The project's Swift files through the toolchain's swift-format, with the committed .swift-format:
#   Scripts/swift-format.sh lint     # CI: fails on any finding
#   Scripts/swift-format.sh format   # rewrites the files in place
# Generated code is left out: the goldens and the example's committed catalog are the generator's
# output, byte for byte (tests and CI compare them with what it writes).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.swift' | grep -v -e '^Tests/Fixtures/' -e '^Tests/GeneratedCatalogTests/Goldens/' -e 'KeyCatalog\.generated\.swift$')
case "${1:-lint}" in
    lint) swift format lint --strict --parallel "${files[@]}" ;;
    format) swift format format --in-place --parallel "${files[@]}" ;;
    *) echo "usage: $0 [lint|format]" >&2; exit 64 ;;
esac
