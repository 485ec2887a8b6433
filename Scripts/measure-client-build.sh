#!/usr/bin/env bash
# Measures what a client of the KeyCatalog library alone compiles, and what it costs, against a
# client of the runtime alone (BENCHMARKS.md, "Client build"; issue 13, goal 6).
#
#   Scripts/measure-client-build.sh [RUNS]        # default 3 runs a side
#
# Environment:
#   PACKAGE=/path        the KeyCatalog package the client depends on (default: this checkout)
#   MANIFEST_CACHE=none  --manifest-cache of every build: none (default; each build compiles both
#                        manifests, on both sides), local, or shared (~/.cache/org.swift.swiftpm:
#                        the first build of each side fills it, the next ones compile no manifest)
#   KEEP=1               keep the temp dir (its path is printed)
#
# Two client packages are made in a temp dir, identical but for the path they depend on:
#   package/  depends on $PACKAGE (the whole KeyCatalog package: generator, tool, plugins, ...)
#   runtime/  depends on runtime-pkg/, a package named KeyCatalog with ONLY the `KeyCatalog`
#             library target (a copy of Sources/KeyCatalog, same platforms and tools version)
# so both sides resolve two packages and compile two manifests. Each run is a cold debug
# `swift build -v` (the client's .build removed first); the sides alternate (package, runtime,
# package, ...), so a change of load hits both. Per side it reports the modules compiled (the
# `-module-name` of every compiler job `swift build -v` prints, manifests excluded) and the cost:
# CPU user + sys of swift-build and every child it waited for (GNU time), and wall time.
# Hardware instruction counters are not available on this machine (`perf stat -e instructions:u`
# says <not supported>), so CPU is the cost; compare the sides run by run, not across machines.
set -euo pipefail

runs=${1:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
package=${PACKAGE:-$here}
manifest_cache=${MANIFEST_CACHE:-none}

work=$(mktemp -d /tmp/kc-client-measure.XXXXXX)
if [[ -z "${KEEP:-}" ]]; then trap 'rm -rf "$work"' EXIT; else echo "temp dir: $work"; fi

# The platforms and tools version of the package's own manifest, so the runtime copy matches.
tools_line=$(head -n 1 "$package/Package.swift")
platforms_line=$(grep -m 1 'platforms:' "$package/Package.swift" | sed 's/^ *//')

mkdir -p "$work/runtime-pkg/Sources"
cp -R "$package/Sources/KeyCatalog" "$work/runtime-pkg/Sources/KeyCatalog"
cat >"$work/runtime-pkg/Package.swift" <<EOF
$tools_line
import PackageDescription

let package = Package(
    name: "KeyCatalog",
    $platforms_line
    products: [
        .library(name: "KeyCatalog", targets: ["KeyCatalog"]),
    ],
    targets: [
        .target(name: "KeyCatalog"),
    ]
)
EOF

make_client() { # dir, dependency path
    mkdir -p "$1/Sources/Client"
    cat >"$1/Package.swift" <<EOF
$tools_line
import PackageDescription

let package = Package(
    name: "Client",
    $platforms_line
    dependencies: [
        .package(name: "KeyCatalog", path: "$2"),
    ],
    targets: [
        .executableTarget(name: "Client", dependencies: [.product(name: "KeyCatalog", package: "KeyCatalog")]),
    ]
)
EOF
    cat >"$1/Sources/Client/main.swift" <<'EOF'
import KeyCatalog

// One key, read and written once: the client compiles against the runtime and links it.
let launches = PersistentKey<Int>("launchCount", defaultValue: 0)
let store = InMemoryKeyValueStore()
store.set(launches, to: store.get(launches) + 1)
print(store.get(launches))
EOF
}
make_client "$work/package" "$package"
make_client "$work/runtime" "$work/runtime-pkg"

results="$work/results.tsv"
: >"$results"

build() { # side, run
    local side=$1 run=$2 dir="$work/$1" log="$work/$1-$2.log" timef="$work/$1-$2.time"
    rm -rf "$dir/.build" "$dir/Package.resolved"
    local load start
    load=$(cut -d ' ' -f 1-3 /proc/loadavg)
    start=$(date -u +%H:%M:%S)
    if ! /usr/bin/time -f '%U %S %e' -o "$timef" \
        swift build -v --manifest-cache "$manifest_cache" --package-path "$dir" >"$log" 2>&1; then
        echo "build failed: $side run $run (log: $log)" >&2
        tail -n 30 "$log" >&2
        KEEP=1
        exit 1
    fi
    # Compiler jobs: swiftc / swift-frontend command lines with a -module-name; the manifests'
    # (`swift-frontend -frontend -c -primary-file .../Package.swift`) are counted apart.
    local modules manifests warnings
    modules=$(grep -E '(swiftc|swift-frontend)[^ ]* ' "$log" \
        | grep -v '/Package\.swift ' | grep -o -- '-module-name [^ ]*' | awk '{print $2}' \
        | sort -u | paste -sd ',' -)
    manifests=$(grep -c -E 'swift-frontend -frontend -c -primary-file [^ ]*/Package\.swift ' "$log" || true)
    # Compiler diagnostics (FILE:LINE:COL: warning: ...), not the "warning: 'pkg': <command>" lines of -v.
    warnings=$(grep -c -E ':[0-9]+:[0-9]+: warning:' "$log" || true)
    read -r user sys wall <"$timef"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$side" "$run" "$start" "$load" "$user" "$sys" \
        "$(echo "$user + $sys" | bc)" "$wall" "$modules" "$manifests/$warnings" >>"$results"
    printf '%-8s run %s  %s UTC  load %s  user %6.2f  sys %5.2f  cpu %6.2f  wall %6.2f  manifests %s  warnings %s  modules %s\n' \
        "$side" "$run" "$start" "$load" "$user" "$sys" "$(echo "$user + $sys" | bc)" "$wall" "$manifests" "$warnings" "$modules"
}

echo "package: $package ($(git -C "$package" rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "swift: $(swift --version 2>&1 | head -n 1)"
echo "manifest cache: $manifest_cache; runs a side: $runs; $(nproc) cores"
echo "start: $(date -u '+%Y-%m-%d %H:%M:%S') UTC; uptime:$(uptime)"
# One untimed build of each side first: fills the page cache (toolchain, sources) for both.
for side in package runtime; do
    swift build --manifest-cache "$manifest_cache" --package-path "$work/$side" >/dev/null 2>&1 || true
done
for ((run = 1; run <= runs; run++)); do
    if ((run % 2)); then order="package runtime"; else order="runtime package"; fi
    for side in $order; do build "$side" "$run"; done
done
echo "end: $(date -u '+%Y-%m-%d %H:%M:%S') UTC; uptime:$(uptime)"

awk -F '\t' '
    { n[$1]++; cpu = $7 + 0; wall = $8 + 0; sum[$1] += cpu
      if (!($1 in lo) || cpu < lo[$1]) lo[$1] = cpu; if (!($1 in hi) || cpu > hi[$1]) hi[$1] = cpu
      if (!($1 in wlo) || wall < wlo[$1]) wlo[$1] = wall; if (!($1 in whi) || wall > whi[$1]) whi[$1] = wall
      mods[$1] = $9; runcpu[$1, $2] = cpu }
    END {
      printf "\n| side | runs | modules compiled | CPU user+sys s (min-max, mean) | wall s (min-max) |\n|---|---:|---|---:|---:|\n"
      for (s in n) printf "| %s | %d | %s | %.2f-%.2f, %.2f | %.2f-%.2f |\n", s, n[s], mods[s], lo[s], hi[s], sum[s] / n[s], wlo[s], whi[s]
      printf "\nratio package/runtime, CPU: means %.3fx, mins %.3fx; per run:", sum["package"] / n["package"] / (sum["runtime"] / n["runtime"]), lo["package"] / lo["runtime"]
      for (r = 1; r <= n["package"]; r++) printf " %.3f", runcpu["package", r] / runcpu["runtime", r]
      printf "\n"
    }' "$results"
