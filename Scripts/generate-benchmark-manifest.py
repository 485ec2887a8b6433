#!/usr/bin/env python3
"""Writes a keys.json with N keys that mix every kind of key, for the generator benchmark.

    Scripts/generate-benchmark-manifest.py 1000 > keys.json

The manifest lints clean (no errors, no warnings) and is deterministic for a given N: scalars,
optionals, arrays, dictionaries, dates with representations, declared enums, parameterized and
debug keys, docs, deprecations and several stores.
"""
import json
import sys


def manifest(count: int) -> dict:
    kinds = [
        lambda i: {"type": "Int", "default": i},
        lambda i: {"type": "Bool", "default": i % 2 == 0},
        lambda i: {"type": "String", "default": f"value {i}"},
        lambda i: {"type": "Double", "default": i / 4},
        lambda i: {"type": "String?", "default": None},
        lambda i: {"type": "[String]", "default": ["a", f"b{i}"]},
        lambda i: {"type": "[String: Int]", "default": {"x": i, "y": 2}},
        lambda i: {"type": "Date", "default": "2026-01-01T00:00:00Z", "representation": "iso8601"},
        lambda i: {"type": "Theme", "default": ["system", "light", "dark"][i % 3]},
        lambda i: {"type": "URL", "default": f"https://example.com/{i}"},
        lambda i: {"type": "UUID?", "default": None},
        lambda i: {"type": "Int64", "default": -i},
        lambda i: {"type": "Bool", "debugDefault": True, "releaseDefault": False},
        lambda i: {"type": "Double?", "default": None, "key": f"Value{i}_{{listID}}", "parameters": {"listID": "String"}},
        lambda i: {"type": "Level", "default": "high"},
        lambda i: {"type": "[Int]", "default": [1, 2, 3], "store": "settingsFile"},
    ]
    keys = []
    for i in range(count):
        key = {"name": f"key{i}", "key": f"Key{i}"}
        key.update(kinds[i % len(kinds)](i))
        if i % 7 == 0:
            key["doc"] = f"Key number {i}, documented."
        if i % 50 == 49 and "parameters" not in key:
            key["deprecated"] = f"Use key{i - 1}."
        if i % 5 == 3 and "store" not in key:
            key["store"] = "shared"
        keys.append(key)
    return {
        "version": 1,
        "catalog": "BenchmarkKeys",
        "stores": {
            "shared": {"kind": "userDefaults", "suite": "com.example.benchmark"},
            "settingsFile": {"kind": "file", "path": "benchmark/settings.plist"},
        },
        "types": {
            "Theme": {"kind": "enum", "rawType": "String", "cases": ["system", "light", "dark"]},
            "Level": {"kind": "enum", "rawType": "Int", "cases": ["low", {"name": "high", "rawValue": 10}]},
        },
        "keys": keys,
    }


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit("usage: generate-benchmark-manifest.py COUNT > keys.json")
    json.dump(manifest(int(sys.argv[1])), sys.stdout, indent=2)
    sys.stdout.write("\n")
