#!/usr/bin/env bash
# Builds the DocC documentation of KeyCatalog and KeyCatalogGenerator with the toolchain's own
# docc and swift-symbolgraph-extract (no package dependency), into .build/docs/<Module>.doccarchive.
# The archives are transformed for static hosting: open one in Xcode, or serve it with
#   python3 -m http.server -d .build/docs/KeyCatalog.doccarchive 8000
# and open http://localhost:8000/documentation/keycatalog.
#
# Fails on any documentation warning (an unresolved link, a bad topic) and on any public symbol
# declared in Sources/ without a doc comment.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(KeyCatalog KeyCatalogGenerator)
out=.build/docs

for module in "${modules[@]}"; do
    swift build --target "$module" 2>&1 | grep -Ev '^\[[0-9]+/[0-9]+\]' || true
done
bin=$(swift build --show-bin-path)
include="$bin/Modules"
[ -d "$include" ] || include="$bin"
triple=$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -n 1)
sdk=()
if command -v xcrun >/dev/null 2>&1; then sdk=(-sdk "$(xcrun --show-sdk-path --sdk macosx)"); fi

status=0
for module in "${modules[@]}"; do
    graphs="$out/symbol-graphs/$module"
    rm -rf "$graphs" "$out/$module.doccarchive"
    mkdir -p "$graphs"
    swift-symbolgraph-extract -module-name "$module" -I "$include" -target "$triple" "${sdk[@]}" \
        -minimum-access-level public -output-dir "$graphs"

    # Every public symbol declared in Sources/ has a doc comment (underscored ones are not API).
    undocumented=$(python3 - "$graphs" "$PWD/Sources/" <<'PY'
import glob, json, sys
graphs, sources = sys.argv[1], sys.argv[2]
for path in sorted(glob.glob(graphs + "/*.symbols.json")):
    for symbol in json.load(open(path))["symbols"]:
        uri = symbol.get("location", {}).get("uri", "")
        # A member that implements a documented protocol requirement inherits its doc comment.
        if sources not in uri or symbol.get("docComment"):
            continue
        if any(part.startswith("_") for part in symbol["pathComponents"]):
            continue
        line = symbol["location"]["position"]["line"] + 1
        print(f"{uri.split(sources)[1]}:{line}: error: public '{'.'.join(symbol['pathComponents'])}' has no doc comment")
PY
)
    if [ -n "$undocumented" ]; then
        echo "$undocumented" >&2
        status=1
    fi

    log=$(mktemp)
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "dev.keycatalog.$module" \
        --transform-for-static-hosting \
        --warnings-as-errors \
        --output-path "$out/$module.doccarchive" 2>&1 | tee "$log" | grep -v '^Progress' || true
    if grep -Eq '(warning|error):' "$log" || [ ! -d "$out/$module.doccarchive/data" ]; then
        echo "error: docc reported problems in $module (above)" >&2
        status=1
    fi
    rm -f "$log"
done

[ "$status" -eq 0 ] && echo "Documentation: $(printf "$out/%s.doccarchive " "${modules[@]}")"
exit "$status"
