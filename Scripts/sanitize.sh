#!/usr/bin/env bash
# Runs the runtime's tests (the KeyCatalogTests module, with the test helper's child processes)
# under a sanitizer; any report fails the run.
#
#   Scripts/sanitize.sh [thread|address] [more swift test arguments, e.g. --filter Durability]
#
# thread:  ThreadSanitizer. The build defines KEYCATALOG_TSAN_VISIBLE_LOCK, so that the runtime's
#          lock is a pthread mutex, which the sanitizer sees (Synchronization.Mutex hands a
#          contended lock over in the kernel, where it cannot: every guarded state then reads as
#          raced). Every process, the test helper's children included, stops at its first report.
# address: AddressSanitizer, without leak checks, and without the quarantine that keeps freed
#          memory from being reused (a test of released UserDefaults instances needs an address
#          reused).
# Each sanitizer builds into a scratch folder of its own (.build-<sanitizer>-sanitized).
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizer=${1:-thread}
shift || true
flags=()
case "$sanitizer" in
    thread)
        flags=(-Xswiftc -DKEYCATALOG_TSAN_VISIBLE_LOCK)
        export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
        ;;
    address)
        export ASAN_OPTIONS="detect_leaks=0:quarantine_size_mb=0:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
        ;;
    *)
        echo "usage: $0 [thread|address] [swift test arguments]" >&2
        exit 2
        ;;
esac

scratch=".build-$sanitizer-sanitized"
swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" "${flags[@]}"
swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" "${flags[@]}" --filter KeyCatalogTests "$@"
