#!/usr/bin/env bash
# Copies Plugins/Shared/*.swift into the plugins that use them (each plugin is one source file; see
# Plugins/Shared/PluginCore.swift for why). `--check` changes nothing and exits 1 if a copy differs.
#
#   Scripts/sync-plugin-sources.sh [--check]
set -euo pipefail
cd "$(dirname "$0")/.."
check=${1:-}

# The shared files a plugin holds, in order (PluginSourcesTests lists the same).
uses() {
    case $1 in
        KeyCatalogPlugin) echo PluginCore ;;
        LintKeys | GenerateKeys) echo PluginCore CommandPluginSupport ;;
    esac
}
status=0
for plugin in KeyCatalogPlugin LintKeys GenerateKeys; do
    file=Plugins/$plugin/$plugin.swift
    # The plugin's own text ends at the first copied section's marker.
    own=$(awk '/^\/\/ MARK: - Copied from Plugins\/Shared\//{exit} {print}' "$file")
    {
        printf '%s\n' "$own"
        for shared in $(uses "$plugin"); do
            printf '\n// MARK: - Copied from Plugins/Shared/%s.swift by Scripts/sync-plugin-sources.sh: edit it there\n\n' "$shared"
            # The shared file without its header comment and imports: from its first declaration on.
            awk 'started || /^(\/\/\/|let |var |func |struct |enum |extension |final |private |fileprivate )/ {started=1; print}' \
                "Plugins/Shared/$shared.swift"
        done
    } >"$file.new"
    if [[ $check == --check ]]; then
        if ! cmp -s "$file" "$file.new"; then
            echo "$file: its copy of Plugins/Shared differs; run Scripts/sync-plugin-sources.sh" >&2
            diff -u "$file" "$file.new" >&2 || true
            status=1
        fi
        rm "$file.new"
    else
        mv "$file.new" "$file"
    fi
done
exit $status
