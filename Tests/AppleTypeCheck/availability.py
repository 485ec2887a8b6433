#!/usr/bin/env python3
"""Checks that code uses no API newer than the package's Apple platform minimums.

A Linux target does not enforce `@available(macOS …, iOS …)`, but the toolchain's modules and
the stand-ins still carry it. This script joins two things the compiler writes:

- what each declaration requires: `swift symbolgraph-extract` of the toolchain's modules
  (Swift, _Concurrency, _StringProcessing, Foundation, FoundationEssentials, Dispatch,
  Observation, Synchronization, ...) and of the stand-in modules, whose `availability` lists the
  version each Apple platform introduced it in;
- what the code references: `swiftc -dump-ast` of the checked files, where every reference
  names its declaration (`decl="FoundationEssentials.(file).URL extension.init(filePath:…)"`)
  and its position, and every `@available` attribute, `if #available` and `guard #available`
  shows the range it covers.

A reference is an error when, on some platform, the declaration (or the type it is a member
of) was introduced after the minimum in force at that position: the package's minimum
(Package.swift `platforms:`), raised inside `@available(…)` declarations and `#available`
branches. Overloads that share a name are taken at their oldest (no false alarm, at the price
of missing a newer overload picked by the type checker).

    availability.py --package Package.swift --symbols DIR [--minimums "macOS 12, iOS 15"]
                    [--platforms macOS] DUMP...

Exit status 1 when a reference is too new, 0 otherwise.
"""
import argparse
import collections
import glob
import json
import os
import re
import sys

PLATFORMS = ("macOS", "iOS", "tvOS", "watchOS", "visionOS")


def version(text):
    parts = [int(x) for x in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def package_minimums(path):
    """`.macOS(.v13)`, `.iOS("15.4")` -> {"macOS": (13,), "iOS": (15, 4)}."""
    text = open(path, encoding="utf-8").read()
    block = re.search(r"platforms:\s*\[(.*?)\]", text, re.S)
    if not block:
        sys.exit("error: %s declares no platforms:" % path)
    minimums = {}
    for name, enum, literal in re.findall(r'\.(\w+)\((?:\.v([\d_]+)|"([\d.]+)")\)', block.group(1)):
        minimums[name] = version(enum.replace("_", ".") if enum else literal)
    return minimums


def shown(v):
    return ".".join(str(x) for x in (v[:2] if v[2] == 0 else v))


def load_symbols(folder):
    """(module, path components) -> {platform: introduced}, the oldest of same-named overloads."""
    table = {}
    for file in glob.glob(os.path.join(folder, "*.symbols.json")):
        module = os.path.basename(file).split("@")[0].split(".symbols.json")[0]
        for symbol in json.load(open(file, encoding="utf-8"))["symbols"]:
            key = (module, tuple(symbol["pathComponents"]))
            introduced = {}
            for entry in symbol.get("availability", []):
                if entry.get("domain") in PLATFORMS and "introduced" in entry:
                    i = entry["introduced"]
                    introduced[entry["domain"]] = (i["major"], i.get("minor", 0), i.get("patch", 0))
            if key in table:
                # Overloads: a platform is required only if every overload requires it.
                old = table[key]
                table[key] = {p: min(old[p], introduced[p]) for p in old.keys() & introduced.keys()}
            else:
                table[key] = introduced
    by_path = collections.defaultdict(list)
    for (module, path), introduced in table.items():
        by_path[path].append(introduced)
    return table, by_path


REFERENCE = re.compile(r'(?:decl|bind)="([A-Za-z_][A-Za-z0-9_]*)\.\(file\)\.([^"@]+?)(?: \[with [^"]*)?"')
LOCATION = re.compile(r"location=([^ ]+):(\d+):(\d+)")
ATTRIBUTE = re.compile(r"\(available_attr (?!implicit).*?domain=(\w+) introduced=([\d.]+)")
SPEC = re.compile(r"\(availability_spec domain=(\w+) version=([\d.]+)\)")


class Node:
    def __init__(self, indent, text, parent):
        self.indent, self.text, self.parent, self.children = indent, text, parent, []


def parse(dump):
    root = Node(-1, "", None)
    stack = [root]
    for line in open(dump, encoding="utf-8", errors="replace"):
        stripped = line.lstrip(" ")
        if not stripped.startswith("("):
            continue
        indent = len(line) - len(stripped)
        while stack[-1].indent >= indent:
            stack.pop()
        node = Node(indent, stripped, stack[-1])
        stack[-1].children.append(node)
        stack.append(node)
    return root


def available_specs(node):
    """{platform: version} of the `#available(...)` in an if/guard statement's conditions."""
    specs = {}
    for child in node.children:
        if child.text.startswith("(brace_stmt"):
            continue
        for sub in walk(child):
            if sub.text.startswith("(#available"):
                for spec in sub.children:
                    s = SPEC.match(spec.text)
                    if s:
                        specs[s.group(1)] = version(s.group(2))
    return specs


def raise_floors(floors, versions):
    return {p: max(v, versions.get(p, v)) for p, v in floors.items()}


def references(node, floors):
    """Yields (node, floors in force there): the tree carries the floors down, so code that a
    macro expanded (its positions are in another buffer) is covered by its declaration's."""
    raised = {}
    for child in node.children:
        m = ATTRIBUTE.match(child.text)
        if m:
            raised[m.group(1)] = version(m.group(2))
    if raised:
        floors = raise_floors(floors, raised)
    yield node, floors
    if node.text.startswith("(if_stmt"):
        specs = available_specs(node)
        first_brace = True
        for child in node.children:
            if child.text.startswith("(brace_stmt") and first_brace and specs:
                first_brace = False
                yield from references(child, raise_floors(floors, specs))
            else:
                yield from references(child, floors)
        return
    for child in node.children:
        yield from references(child, floors)
        if child.text.startswith("(guard_stmt"):
            specs = available_specs(child)
            if specs:
                floors = raise_floors(floors, specs)


def walk(node):
    yield node
    for child in node.children:
        yield from walk(child)


def split_path(path):
    """`URL extension.init(filePath:directoryHint:relativeTo:)` -> ("URL", "init(filePath:…)")."""
    path = path.replace(" extension", "")
    parts, depth, current = [], 0, ""
    for ch in path:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "." and depth == 0 and current and not current.endswith("."):
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return tuple(parts)


def requirement(table, by_path, module, path):
    """{platform: introduced} the declaration needs, with that of the types it is nested in."""
    needed = {}
    for length in range(1, len(path) + 1):
        prefix = path[:length]
        introduced = table.get((module, prefix))
        if introduced is None and length < len(path):
            candidates = by_path.get(prefix, [])
            introduced = {p: min(c[p] for c in candidates) for p in set.intersection(*(set(c) for c in candidates))} if candidates else None
        for platform, v in (introduced or {}).items():
            needed[platform] = max(needed.get(platform, v), v)
    return needed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--package", required=True)
    ap.add_argument("--symbols", required=True)
    ap.add_argument("--minimums", help='instead of Package.swift\'s: "macOS 12, iOS 15, ..."')
    ap.add_argument("--platforms", default=",".join(PLATFORMS), help="comma-separated platforms to check")
    ap.add_argument("--root", default=os.getcwd(), help="paths are reported relative to this folder")
    ap.add_argument("dumps", nargs="+")
    args = ap.parse_args()
    if args.minimums:
        declared = {p: version(v) for p, v in re.findall(r"(\w+) ([\d.]+)", args.minimums)}
    else:
        declared = package_minimums(args.package)
    minimums = {p: v for p, v in declared.items() if p in args.platforms.split(",")}
    table, by_path = load_symbols(args.symbols)
    if not table:
        sys.exit("error: no symbol graphs in %s" % args.symbols)
    problems = set()
    count = 0
    for dump in args.dumps:
        for node, floors in references(parse(dump), minimums):
            ref, loc = REFERENCE.search(node.text), LOCATION.search(node.text)
            if not ref or not loc:
                continue
            count += 1
            module, path = ref.group(1), split_path(ref.group(2))
            needed = requirement(table, by_path, module, path)
            for platform, floor in floors.items():
                if platform in needed and needed[platform] > floor:
                    problems.add("%s:%s:%s: error: '%s' needs %s %s; the minimum there is %s %s (raise it, or guard the use with @available / #available)" % (
                        os.path.relpath(loc.group(1), args.root), loc.group(2), loc.group(3), ".".join(path),
                        platform, shown(needed[platform]), platform, shown(floor)))
    for problem in sorted(problems):
        print(problem)
    print("availability: %d references checked against %s: %d too new" % (
        count, ", ".join("%s %s" % (p, shown(v)) for p, v in sorted(minimums.items())), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
