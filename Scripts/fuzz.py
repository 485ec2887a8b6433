#!/usr/bin/env python3
"""Generative compile fuzz for KeyCatalog (issue 10).

The promise it checks: if `keycatalog lint` passes, the generated catalog compiles with zero
warnings in Swift 6 and Swift 5 modes, Debug and Release, also in a module whose default isolation
is the main actor (Xcode 26's new app targets), and every key reads its default and
round-trips another value through every store kind, also in a fresh process.

For each seed it writes a random manifest (from the README's manifest reference), lints it, and
generates its catalog. Lint-clean manifests are compiled in batches (many catalogs in one module;
every global name is unique across the batch) together with generated app types, transform
functions and a smoke test: Swift 6 Debug and Release executables, run twice each (write, then a
fresh process reads back), and a Swift 5 Debug and Release module build. A batch that fails is
split to its failing manifests, each shrunk to a minimal manifest (keys, then fields) written
with the compiler or run output to the failures folder.

    Scripts/fuzz.py --seeds 0-99                 # CI: a bounded run
    Scripts/fuzz.py --seeds 1000-3999 --batch 12 # a longer run
    Scripts/fuzz.py --emit 7                      # print the manifest of seed 7

Needs only python3, swiftc and a built `keycatalog` (built with `swift build --product
keycatalog` unless --keycatalog names one). The runtime is compiled once per run with swiftc.
"""

import argparse
import base64
import hashlib
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# --- The manifest format, from the README -------------------------------------------------

INT_RANGES = {
    "Int": (-2**63, 2**63 - 1), "Int8": (-2**7, 2**7 - 1), "Int16": (-2**15, 2**15 - 1),
    "Int32": (-2**31, 2**31 - 1), "Int64": (-2**63, 2**63 - 1),
    "UInt": (0, 2**64 - 1), "UInt8": (0, 2**8 - 1), "UInt16": (0, 2**16 - 1),
    "UInt32": (0, 2**32 - 1), "UInt64": (0, 2**64 - 1),
}
PRIMS = list(INT_RANGES) + ["Bool", "Double", "Float", "String", "Data", "Date", "URL", "UUID"]
SWIFT_PRIM = {p: "Swift." + p for p in list(INT_RANGES) + ["Bool", "Double", "Float", "String"]}
SWIFT_PRIM.update({"Data": "Foundation.Data", "Date": "Foundation.Date", "URL": "Foundation.URL",
                   "UUID": "Foundation.UUID"})
REPRESENTATIONS = ["native", "rawValue", "codable", "string", "iso8601", "timeInterval"]
ACCESSIBILITY = ["afterFirstUnlock", "afterFirstUnlockThisDeviceOnly", "whenUnlocked",
                 "whenUnlockedThisDeviceOnly", "whenPasscodeSetThisDeviceOnly"]
KEYWORDS = """default class func self Type init protocol return in is as where case switch enum
struct let var nil true false Any Self some any async await actor inout operator subscript deinit
extension import internal public private fileprivate open static throws rethrows try catch defer
guard if else for while repeat break continue fallthrough do super associatedtype typealias
precedencegroup get set willSet didSet mutating nonmutating lazy weak unowned optional required
convenience dynamic final indirect override prefix postfix infix none description hashValue
entries stores register reset migrate migrations live inMemory Stores Swift Foundation KeyCatalog
String Int Bool Value Key Element newValue oldValue key store value id rawValue""".split()
UNICODE_NAMES = ["naïve", "größe", "π", "日本語", "λx", "café", "cafe\u0301", "ａｂｃ", "Ωmega",
                 "😀", "x\u0301", "ñandú", "αβγ", "_", "__x", "ℵ", "Ǆ", "x٣", "مرحبا", "שלום"]
WORDS = ["count", "flag", "name", "theme", "volume", "token", "date", "items", "limit", "mode",
         "score", "ratio", "level", "color", "size", "title", "path", "list", "map", "when"]
HOSTILE = ["*/", "/*", '"""', "\\", "\\(x)", '"', "'", "\u202e", "\u200f", "\u200b", "👨‍👩‍👧",
           "🏳️‍🌈", "\ufeff", "e\u0301", "\u2028", "\u2029", "#", "#\"", "\"#", "// x", "///",
           "`", "$0", "%@", "{", "}", "<>&", "\r\n", "\n", "\t", "\x00", "\x01", "\x1b", "\x7f",
           "\u0085", "\ud7ff", "\U0010ffff", "\ufffe", "ﷺ", "中文", " ", "  ", "\\u{41}"]
CONTROL = {"\x00", "\x01", "\x1b", "\x7f", "\t", "\n", "\r\n", "\u0085"}

DOUBLES = [0.0, -0.0, 1.0, -1.5, 0.1, 5e-324, -5e-324, 2.2250738585072014e-308,
           2.225073858507201e-308, 1.7976931348623157e308, -1.7976931348623157e308, 1e300,
           123456789.125, 9007199254740993.0, 1e-7, 3.141592653589793]
FLOATS = ["0.0", "-0.0", "1.0", "0.1", "-2.5", "3.4028235e+38", "-3.4028235e+38", "1.4e-45",
          "1.1754944e-38", "16777216.0", "1e-07"]


class Names:
    """Batch-wide name allocation: global declarations and key names are unique in a module."""

    def __init__(self):
        self.used = set()

    def take(self, rng, tag, risky=0.3):
        for _ in range(20):
            r = rng.random()
            if r < risky * 0.6:
                n = rng.choice(KEYWORDS)
            elif r < risky:
                n = rng.choice(UNICODE_NAMES)
            else:
                n = rng.choice(WORDS) + tag
            if n not in self.used:
                self.used.add(n)
                return n
        n = "n%s_%d" % (tag, len(self.used))
        self.used.add(n)
        return n


class T:
    """A value type: kind in prim/opt/arr/dict/enum/custom."""

    def __init__(self, kind, arg=None, info=None):
        self.kind, self.arg, self.info = kind, arg, info

    def manifest(self):
        if self.kind == "prim":
            return self.arg
        if self.kind == "opt":
            return self.arg.manifest() + "?"
        if self.kind == "arr":
            return "[" + self.arg.manifest() + "]"
        if self.kind == "dict":
            return "[String: " + self.arg.manifest() + "]"
        return self.arg  # enum or custom: its name

    def swift(self):
        if self.kind == "prim":
            return SWIFT_PRIM[self.arg]
        if self.kind == "opt":
            return self.arg.swift() + "?"
        if self.kind == "arr":
            return "[" + self.arg.swift() + "]"
        if self.kind == "dict":
            return "[Swift.String: " + self.arg.swift() + "]"
        return swift_ident(self.arg)


def custom_kinds(t):
    """The kinds of the app types inside `t` (codable, rawValue, string)."""
    if t.kind == "custom":
        return {t.info}
    if t.kind in ("opt", "arr", "dict"):
        return custom_kinds(t.arg)
    return set()


def swift_ident(name):
    return "`" + name + "`"


def swift_string(s):
    out = []
    for ch in s:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif 0x20 <= o < 0x7f:
            out.append(ch)
        else:
            out.append("\\u{%x}" % o)
    return '"' + "".join(out) + '"'


def rand_string(rng, hostile=0.5, control=0.0):
    parts = []
    for _ in range(rng.randint(0, 4)):
        if rng.random() < hostile:
            p = rng.choice(HOSTILE)
            if p in CONTROL and rng.random() >= control:
                p = "x"
            parts.append(p)
        else:
            parts.append(rng.choice(WORDS))
    return "".join(parts)


def has_control(s):
    return any(ord(c) < 0x20 or c == "\x7f" for c in s)


class Value:
    """A value as manifest JSON and as a Swift expression of its type."""

    def __init__(self, json_value, swift):
        self.json, self.swift = json_value, swift


def gen_value(rng, t, role, ctx):
    """role: 'default' (lint-checked JSON) or 'other' (only Swift)."""
    hostile_ctrl = 0.05 if role == "default" else 0.4
    if t.kind == "opt":
        if role == "default" or rng.random() < 0.2:
            return Value(None, "nil")
        inner = gen_value(rng, t.arg, role, ctx)
        return Value(inner.json, inner.swift)
    if t.kind == "arr":
        items = [gen_value(rng, t.arg, role, ctx) for _ in range(rng.randint(0, 3))]
        return Value([i.json for i in items], "[" + ", ".join(i.swift for i in items) + "]")
    if t.kind == "dict":
        keys = []
        for _ in range(rng.randint(0, 3)):
            k = rand_string(rng, 0.5, hostile_ctrl)
            if k not in keys:
                keys.append(k)
        items = [(k, gen_value(rng, t.arg, role, ctx)) for k in keys]
        if not items:
            return Value({}, "[:]")
        return Value({k: v.json for k, v in items},
                     "[" + ", ".join(swift_string(k) + ": " + v.swift for k, v in items) + "]")
    if t.kind == "enum":
        name, cases = t.arg, t.info
        c = rng.choice(cases)
        return Value(c, swift_ident(name) + "." + swift_ident(c))
    if t.kind == "custom":
        return ctx.custom_value(rng, t)
    p = t.arg
    if p in INT_RANGES:
        lo, hi = INT_RANGES[p]
        v = rng.choice([lo, hi, 0, 1, -1 if lo < 0 else 2, rng.randint(lo, hi)])
        return Value(v, "(%d as %s)" % (v, SWIFT_PRIM[p]))
    if p == "Bool":
        v = rng.random() < 0.5
        return Value(v, "true" if v else "false")
    if p == "Double":
        v = rng.choice(DOUBLES) if rng.random() < 0.8 else rng.uniform(-1e6, 1e6)
        bits = struct.unpack(">Q", struct.pack(">d", v))[0]
        return Value(v, "Swift.Double(bitPattern: 0x%016x)" % bits)
    if p == "Float":
        s = rng.choice(FLOATS)
        bits = struct.unpack(">I", struct.pack(">f", float(s)))[0]
        return Value(float(s), "Swift.Float(bitPattern: 0x%08x)" % bits)
    if p == "String":
        s = rand_string(rng, 0.6, hostile_ctrl)
        if role == "other" and rng.random() < 0.15:
            s = "\ufeff" + s
        return Value(s, swift_string(s))
    if p == "Data":
        b = bytes(rng.randrange(256) for _ in range(rng.randint(0, 12)))
        return Value(base64.b64encode(b).decode(),
                     "Foundation.Data([" + ", ".join(str(x) for x in b) + "] as [Swift.UInt8])")
    if p == "Date":
        # Whole seconds or milliseconds: every representation holds them exactly.
        secs = rng.choice([0, 1, -1, 1772600767, -62135596800, 253402300799,
                           rng.randint(-2**31, 2**33)])
        ms = rng.choice([0, 0, 0, 1, 500, 999, 123])
        iso = time_iso(secs, ms, rng)
        # The Double nearest the instant, as the generator writes a default and the iso8601
        # representation reads one: milliseconds since 2001 as an exact decimal.
        units = (secs - 978307200 + julian_shift(secs)) * 1000 + ms
        decimal = "%s%d.%03d" % ("-" if units < 0 else "", abs(units) // 1000, abs(units) % 1000)
        return Value(iso, "Foundation.Date(timeIntervalSinceReferenceDate: %s)" % decimal)
    if p == "URL":
        u = rng.choice(["https://example.com/a", "https://example.com/a%20b?q=1&r=%E2%82%AC#frag",
                        "file:///tmp/x%20y", "mailto:someone@example.com", "urn:isbn:0451450523",
                        "https://user:pw@例え.jp:8080/パス", "ftp://h/p;type=a", "x-app://open?\u00e9"])
        return Value(u, "Foundation.URL(string: %s)!" % swift_string(u))
    if p == "UUID":
        u = str(uuid.UUID(int=rng.getrandbits(128))).upper()
        return Value(u, "Foundation.UUID(uuidString: %s)!" % swift_string(u))
    raise ValueError(p)


def julian_shift(secs):
    """Seconds that reading a date's text moves it by before 1582-10-15, where Foundation's ISO
    8601 formats (and the generator) take its year, month and day for a Julian date."""
    import datetime
    if secs >= -12219292800:
        return 0
    d = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(seconds=secs)
    a = (14 - d.month) // 12
    y, m = d.year + 4800 - a, d.month + 12 * a - 3
    common = d.day + (153 * m + 2) // 5 + 365 * y + y // 4
    return ((common - 32083) - (common - y // 100 + y // 400 - 32045)) * 86400


def time_iso(secs, ms, rng):
    import datetime
    d = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(seconds=secs)
    frac = ".%03d" % ms if ms or rng.random() < 0.2 else ""
    if rng.random() < 0.3 and 1 < d.year < 9999:
        off = rng.choice([90, -330, 14 * 60])
        d2 = d + datetime.timedelta(minutes=off)
        sign = "+" if off >= 0 else "-"
        return "%04d-%02d-%02dT%02d:%02d:%02d%s%s%02d:%02d" % (d2.year, d2.month, d2.day, d2.hour, d2.minute, d2.second,
                                                         frac, sign, abs(off) // 60, abs(off) % 60)
    return "%04d-%02d-%02dT%02d:%02d:%02d%sZ" % (d.year, d.month, d.day, d.hour, d.minute, d.second, frac)


# --- One manifest and its Swift companions --------------------------------------------------

class Manifest:
    def __init__(self, seed, names):
        self.seed = seed
        self.tag = str(seed)
        rng = self.rng = random.Random(seed)
        self.names = names
        self.support = []      # Swift declarations: app types, transforms
        self.customs = []
        self.checks = []       # smoke-test statements
        self.eqs = {}
        self.n = 0
        self.doc = self.build()

    def fresh(self, prefix):
        self.n += 1
        return "%s%s_%d" % (prefix, self.tag, self.n)

    def custom_value(self, rng, t):
        kind = t.info
        if kind == "codable":
            s = rand_string(rng, 0.3)
            i = rng.randint(-5, 5)
            return Value({"swift": "%s(a: %d, b: %s)" % (swift_ident(t.arg), i, swift_string(s))},
                         "%s(a: %d, b: %s)" % (swift_ident(t.arg), i, swift_string(s)))
        if kind == "rawValue":
            s = rand_string(rng, 0.3)
            return Value({"swift": "%s(rawValue: %s)" % (swift_ident(t.arg), swift_string(s))},
                         "%s(rawValue: %s)" % (swift_ident(t.arg), swift_string(s)))
        i = rng.randint(-100, 100)
        return Value({"swift": "%s(%d)" % (swift_ident(t.arg), i)}, "%s(%d)" % (swift_ident(t.arg), i))

    def gen_type(self, rng, depth=0):
        r = rng.random()
        if depth < 2 and r < 0.12:
            return T("opt", self.gen_type(rng, 3))  # no optionals inside optionals
        if depth < 2 and r < 0.24:
            return T("arr", self.gen_type(rng, depth + 1))
        if depth < 2 and r < 0.34:
            return T("dict", self.gen_type(rng, depth + 1))
        if r < 0.42 and self.enums:
            name = rng.choice(list(self.enums))
            return T("enum", name, self.enums[name])
        if r < 0.47:
            kind = rng.choice(["codable", "rawValue", "string"])
            name = self.names.take(rng, "C" + self.tag, 0.1)
            while name in SWIFT_PRIM:
                # keys.json's "String" is Swift's: an app type of that name cannot be named there.
                name = self.names.take(rng, "C" + self.tag, 0.1)
            self.customs.append((name, kind))
            return T("custom", name, kind)
        return T("prim", rng.choice(PRIMS))

    def representation_for(self, rng, t):
        base = t.arg if t.kind == "opt" else t
        customs = custom_kinds(t)
        # Any representation, fitting or not: lint must reject what does not fit. Not with an
        # app type inside, whose conformances lint cannot see (a wrong one fails to compile, as
        # the README says of app types).
        if rng.random() < 0.05 and not customs:
            return rng.choice(REPRESENTATIONS)
        if base.kind == "custom":
            return base.info
        if rng.random() < 0.5:
            return None
        options = ["native"]
        if base.kind in ("arr", "dict"):
            options = ["native", "codable"] if customs <= {"codable"} else ["native"]
        elif base.kind == "enum":
            options = ["rawValue", "codable"]
        elif base.arg in INT_RANGES or base.arg in ("Bool", "Double", "Float", "String"):
            options = ["native", "codable", "string"]
        elif base.arg == "Date":
            options = ["iso8601", "timeInterval", "codable"]
        elif base.arg in ("URL", "UUID", "Data"):
            options = ["native", "codable"]
        return rng.choice(options)

    def build(self):
        rng = self.rng
        doc = {"version": 1}
        self.catalog = self.names.take(rng, "K" + self.tag, 0.3)
        doc["catalog"] = self.catalog
        self.access = rng.choice(["internal", "public", "package", None])
        if self.access:
            doc["access"] = self.access
        # Stores
        stores = {}
        self.store_kinds = {"standard": "userDefaults"}
        for i in range(rng.randint(0, 4)):
            sname = self.names.take(rng, "S" + self.tag, 0.3)
            kind = rng.choice(["userDefaults", "userDefaults", "file", "file", "memory", "keychain", "ubiquitous"])
            if kind == "userDefaults":
                s = {"kind": kind}
                if rng.random() < 0.85:
                    s["suite"] = "fz.%s.%d%s" % (self.tag, i, rng.choice(["", "-ü", " x", "/y"]))
            elif kind == "file":
                s = {"kind": kind, "path": rng.choice(["fz/%s/%d.plist", "~/fz %s/ä%d.plist", "fz-%s-%d"]) % (self.tag, i)}
            elif kind == "keychain":
                s = {"kind": kind, "service": "fz.%s.svc%d" % (self.tag, i)}
                if rng.random() < 0.3:
                    s["accessGroup"] = "TEAM.fz.%s" % self.tag
                if rng.random() < 0.5:
                    s["accessibility"] = rng.choice(ACCESSIBILITY)
            else:
                s = {"kind": kind}
            stores[sname] = s
            self.store_kinds[sname] = kind
        if stores:
            doc["stores"] = stores
        if stores and rng.random() < 0.4:
            doc["defaultStore"] = rng.choice(list(stores))
        self.default_store = doc.get("defaultStore", "standard")
        # Types
        self.enums = {}
        types = {}
        for _ in range(rng.randint(0, 2)):
            ename = self.names.take(rng, "E" + self.tag, 0.15)
            raw = rng.choice(["String", "Int"])
            cases, seen = [], set()
            names = []
            next_raw = 0
            for _ in range(rng.randint(1, 4)):
                cname = rng.choice(KEYWORDS + UNICODE_NAMES + WORDS) if rng.random() < 0.5 else rng.choice(WORDS)
                if cname in seen:
                    continue
                seen.add(cname)
                names.append(cname)
                r = rng.random()
                if raw == "Int" and r < 0.4:
                    v = rng.choice([-2**63, 2**63 - 1 if rng.random() < 0.2 else next_raw + 5, -1, 7])
                    cases.append({"name": cname, "rawValue": v})
                    next_raw = v + 1
                elif raw == "String" and r < 0.4:
                    cases.append({"name": cname, "rawValue": rand_string(rng, 0.5, 0.02)})
                else:
                    cases.append(cname)
                    next_raw += 1
            types[ename] = {"kind": "enum", "rawType": raw, "cases": cases}
            self.enums[ename] = names
        if types:
            doc["types"] = types
        # Keys
        keys = []
        self.key_info = []
        for i in range(rng.randint(1, 8)):
            keys.append(self.gen_key(rng, i))
        doc["keys"] = keys
        return doc

    def gen_key(self, rng, i):
        name = self.names.take(rng, "k" + self.tag, 0.35)
        t = self.gen_type(rng)
        k = {"name": name}
        params = {}
        storage = None
        if rng.random() < 0.15:
            for _ in range(rng.randint(1, 2)):
                p = rng.choice(["id", "level", "x", "default", "in", "ñ", "user"])
                params[p] = rng.choice(["String", "Int", "UUID"])
            storage = "z%sk%d-" % (self.tag, i) + "".join("{%s}/" % p for p in params)
        elif rng.random() < 0.4:
            storage = "z%sk%d-%s" % (self.tag, i, rand_string(rng, 0.3, 0.0).replace(".", "").replace("{", "").replace("}", ""))
        else:
            # the storage key is the name: unique in the batch already
            pass
        if storage is not None:
            k["key"] = storage
        if params:
            k["parameters"] = params
        k["type"] = t.manifest()
        store = self.default_store
        if rng.random() < 0.5:
            store = rng.choice(list(self.store_kinds))
            k["store"] = store
        secret = self.store_kinds[store] == "keychain" and rng.random() < 0.5
        debug = rng.random() < 0.12
        if secret:
            k["secret"] = True
        if debug:
            dv = gen_value(rng, t, "default", self)
            rv = gen_value(rng, t, "default", self)
            if t.kind == "opt" and rng.random() < 0.5:
                dv = gen_value(rng, t.arg, "default", self)
            k["debugDefault"], k["releaseDefault"] = dv.json, rv.json
            defaults = (dv, rv)
        else:
            if secret:
                dv = Value(None, "nil") if t.kind == "opt" else (
                    Value("", '""') if t.manifest() == "String" else gen_value(rng, t, "default", self))
            elif t.kind == "custom" or rng.random() < 0.08:
                dv = gen_value(rng, t, "default", self)
                if not (isinstance(dv.json, dict) and "swift" in dv.json):
                    dv = Value({"swift": dv.swift}, dv.swift)
            else:
                dv = gen_value(rng, t, "default", self)
            k["default"] = dv.json
            defaults = (dv, dv)
        rep = self.representation_for(rng, t)
        if rep:
            k["representation"] = rep
        if rng.random() < 0.4:
            k["doc"] = rand_string(rng, 0.8, 0.1)
        deprecated = rng.random() < 0.08
        if deprecated:
            k["deprecated"] = rand_string(rng, 0.6, 0.05)
        if rng.random() < 0.25:
            k["migrations"] = self.gen_migrations(rng, t, name, store, params)
        other = gen_value(rng, t, "other", self)
        # README: optionals store nil as "no value", so writing nil reads the default back; with a
        # non-nil default (a debug key's, in a debug build) that is the default, not nil.
        restores = t.kind == "opt" and other.swift == "nil" and defaults[0].swift != "nil"
        self.key_info.append(dict(name=name, type=t, store=store, params=params, debug=debug,
                                  defaults=defaults, other=other, deprecated=deprecated, restores=restores))
        return k

    def gen_migrations(self, rng, t, name, store, params):
        migs = []
        for j in range(rng.randint(1, 3)):
            m = {"fromKey": "old%s-%s-%d" % (self.tag, name, j) + "".join("{%s}" % p for p in params)}
            if rng.random() < 0.4:
                m["fromStore"] = rng.choice(list(self.store_kinds))
            if rng.random() < 0.5:
                old = self.gen_type(rng, 1)
                m["fromType"] = old.manifest()
                if rng.random() < 0.3:
                    m["fromRepresentation"] = self.representation_for(rng, old) or "native"
                m["transform"] = self.gen_transform(rng, old, t)
            elif rng.random() < 0.3:
                m["transform"] = self.gen_transform(rng, t, t)
            migs.append(m)
        return migs

    def gen_transform(self, rng, old, new):
        base = new.arg if new.kind == "opt" else new
        if base.kind == "enum" and rng.random() < 0.4:
            fname = self.names.take(rng, "t" + self.tag, 0.2)
            self.support.append("nonisolated extension %s {\n    static func %s(_ oldValue: %s) -> %s? { nil }\n}"
                                % (swift_ident(base.arg), swift_ident(fname), old.swift(), new.swift()))
            return base.arg + "." + fname
        fname = self.names.take(rng, "t" + self.tag, 0.3)
        self.support.append("nonisolated func %s(_ value: %s) -> %s? { nil }" % (swift_ident(fname), old.swift(), new.swift()))
        return fname

    # --- Swift companions

    def eq_fn(self, t):
        key = t.swift()
        if key in self.eqs:
            return self.eqs[key][0]
        fname = "fzEq%s_%d" % (self.tag, len(self.eqs))
        self.eqs[key] = (fname, None)
        if t.kind == "opt":
            inner = self.eq_fn(t.arg)
            body = "switch (a, b) {\n    case (nil, nil): true\n    case let (x?, y?): %s(x, y)\n    default: false\n    }" % inner
        elif t.kind == "arr":
            inner = self.eq_fn(t.arg)
            body = "a.count == b.count && zip(a, b).allSatisfy { %s($0, $1) }" % inner
        elif t.kind == "dict":
            inner = self.eq_fn(t.arg)
            body = "a.count == b.count && a.allSatisfy { k, v in b[k].map { %s(v, $0) } ?? false }" % inner
        elif t.kind == "prim" and t.arg in ("Double", "Float"):
            body = "a.bitPattern == b.bitPattern"
        elif t.kind == "prim" and t.arg == "String":
            body = "Swift.Array(a.unicodeScalars) == Swift.Array(b.unicodeScalars)"
        else:
            body = "a == b"
        self.eqs[key] = (fname, "nonisolated func %s(_ a: %s, _ b: %s) -> Swift.Bool {\n    %s\n}" % (fname, key, key, body))
        return fname

    def swift_support(self):
        """The app's side: its types, transforms and smoke test, declared `nonisolated` as an app
        whose default isolation is the main actor declares the types and functions a manifest names."""
        out = ["import Foundation", "import KeyCatalog", ""]
        pub = "public " if self.access == "public" else ("package " if self.access == "package" else "")
        decl = "nonisolated " + pub
        for name, kind in self.customs:
            n = swift_ident(name)
            if kind == "codable":
                out.append("%sstruct %s: Codable, Sendable, Equatable {\n    %svar a: Swift.Int\n    %svar b: Swift.String\n    %sinit(a: Swift.Int, b: Swift.String) { self.a = a; self.b = b }\n}" % (decl, n, pub, pub, pub))
            elif kind == "rawValue":
                out.append("%sstruct %s: RawRepresentable, Sendable, Equatable {\n    %svar rawValue: Swift.String\n    %sinit(rawValue: Swift.String) { self.rawValue = rawValue }\n}" % (decl, n, pub, pub))
            else:
                out.append("%sstruct %s: LosslessStringConvertible, Sendable, Equatable {\n    var v: Swift.Int\n    %sinit(_ v: Swift.Int) { self.v = v }\n    %sinit?(_ description: Swift.String) {\n        guard let v = Swift.Int(description) else { return nil }\n        self.v = v\n    }\n    %svar description: Swift.String { Swift.String(self.v) }\n}" % (decl, n, pub, pub, pub))
        # The README: "Your types conform to KeyValuePersistible by naming a representation."
        representation = {"codable": ("KeyCatalog.CodablePersistentKeyValueRepresentation", ", Foundation.JSONEncoder, Foundation.JSONDecoder"),
                          "rawValue": ("KeyCatalog.RawRepresentablePersistentKeyValueRepresentation", ""),
                          "string": ("KeyCatalog.LosslessStringConvertiblePersistentKeyValueRepresentation", "")}
        for name, kind in self.customs:
            n = swift_ident(name)
            generic, rest = representation[kind]
            out.append("nonisolated extension %s: KeyCatalog.KeyValuePersistible {\n    %sstatic var persistentKeyValueRepresentation: %s<%s%s> { %s() }\n}"
                       % (n, pub, generic, n, rest, generic))
        out.extend(self.support)
        out.append(self.swift_smoke())
        out.extend(e[1] for e in self.eqs.values())
        return "\n\n".join(out) + "\n"

    def swift_smoke(self):
        lines = ["func fuzzRun%s(_ h: FuzzHarness) {" % self.tag,
                 "    let catalog = %s()" % swift_ident(self.catalog),
                 "    if h.phase == 1 { _ = catalog.migrate() }",
                 "    _ = %s.entries.count" % swift_ident(self.catalog)]
        extras = [("memory", ".memory()", False),
                  ("suite", '.userDefaults(suite: "fz.extra.%s")' % self.tag, True),
                  ("file", '.file(path: "fz-extra/%s.plist")' % self.tag, True)]
        for i, k in enumerate(self.key_info):
            if k["deprecated"]:
                continue  # using it would warn; the catalog itself compiles it
            t = k["type"]
            eq = self.eq_fn(t)
            ts = t.swift()
            # Generated static keys are fileprivate to the generated file: the smoke test takes each
            # key from the catalog's bound key (`catalog.$name.key`, `catalog.nameKey(…).key`).
            access = "catalog.$" + k["name"] + ".key"
            if k["params"]:
                access = "catalog." + swift_ident(k["name"] + "Key")
                args = []
                for p, pt in k["params"].items():
                    v = {"String": swift_string(rand_string(self.rng, 0.3, 0.0).replace("/", "")),
                         "Int": str(self.rng.choice([-1, 0, 2**63 - 1])),
                         "UUID": 'Foundation.UUID(uuidString: "%s")!' % str(uuid.UUID(int=self.rng.getrandbits(128)))}[pt]
                    args.append("%s: %s" % ("`inout`" if p == "inout" else p, v))
                access += "(" + ", ".join(args) + ").key"
            dv, rv = k["defaults"]
            lines.append("    do {")
            if k["debug"]:
                lines.append("        #if DEBUG\n        let d: %s = %s\n        let writable = true\n        #else\n        let d: %s = %s\n        let writable = false\n        #endif" % (ts, dv.swift, ts, rv.swift))
            else:
                lines.append("        let d: %s = %s\n        let writable = true" % (ts, dv.swift))
            lines.append("        let o: %s = %s" % (ts, k["other"].swift))
            stores = [("declared", "catalog.stores[%s]!" % swift_string(k["store"]),
                       self.store_kinds.get(k["store"]) in ("userDefaults", "file", "keychain"))] + extras
            for label, expr, persistent in stores:
                lines.append('        h.check("%s/%d/%s", %s, %s, default: d, other: o, writable: writable, persistent: %s, restoresDefault: %s, same: %s)'
                             % (self.tag, i, label, expr, access, "true" if persistent else "false",
                                "true" if k["restores"] else "false", eq))
            lines.append("    }")
        lines.append("}")
        return "\n".join(lines)


HARNESS = r'''
import Foundation
import KeyCatalog

nonisolated final class FuzzHarness: @unchecked Swift.Sendable {
    let phase: Swift.Int
    let lock = Foundation.NSLock()
    var reports = 0
    var failures = 0
    var refused: Swift.Set<Swift.String> = []
    let refusedURL: Foundation.URL

    init(phase: Swift.Int) {
        self.phase = phase
        let home = Foundation.ProcessInfo.processInfo.environment["HOME"]!
        self.refusedURL = Foundation.URL(fileURLWithPath: home).appendingPathComponent("fuzz-refused.txt")
        if phase == 2, let text = try? Swift.String(contentsOf: refusedURL, encoding: .utf8) {
            refused = Swift.Set(text.split(separator: "\n").map(Swift.String.init))
        }
    }

    func count() -> Swift.Int { lock.lock(); defer { lock.unlock() }; return reports }
    func reported() { lock.lock(); reports += 1; lock.unlock() }

    func fail(_ label: Swift.String, _ message: Swift.String) {
        failures += 1
        Swift.print("FUZZ-FAIL \(label): \(message)")
    }

    func check<K: KeyCatalog.PersistentKeyProtocol>(
        _ label: Swift.String, _ store: KeyCatalog.AnyPersistentKeyValueStore, _ key: K,
        default d: K.Value, other o: K.Value, writable: Swift.Bool, persistent: Swift.Bool,
        restoresDefault: Swift.Bool, same: (K.Value, K.Value) -> Swift.Bool
    ) {
        // Writing nil (no value) to an optional key with a non-nil default reads that default.
        let o2 = restoresDefault ? d : o
        if phase == 1 {
            let read = store.get(key)
            if !same(read, d) { fail(label, "default read as \(Swift.String(reflecting: read)), expected \(Swift.String(reflecting: d))") }
            let before = count()
            store.set(key, to: o)
            let wasReported = count() > before
            let back = store.get(key)
            if !writable {
                if !same(back, d) { fail(label, "a release debug key read \(Swift.String(reflecting: back)) after a write; expected its default \(Swift.String(reflecting: d))") }
            } else if same(back, o2) {
                // round-tripped
            } else if wasReported && same(back, d) {
                refused.insert(label)  // refused and reported: the contract allows it
            } else {
                fail(label, "wrote \(Swift.String(reflecting: o)), read back \(Swift.String(reflecting: back))\(wasReported ? " (reported)" : " (silently)")")
            }
        } else if persistent {
            let expected = (!writable || refused.contains(label)) ? d : o2
            let back = store.get(key)
            if !same(back, expected) { fail(label, "a fresh process read \(Swift.String(reflecting: back)), expected \(Swift.String(reflecting: expected))") }
        }
    }

    func finish() {
        if phase == 1 {
            try? refused.sorted().joined(separator: "\n").write(to: refusedURL, atomically: true, encoding: .utf8)
        }
    }
}
'''


def main_swift(tags):
    lines = ["import Foundation", "import KeyCatalog", "",
             "let harness = FuzzHarness(phase: Swift.Int(CommandLine.arguments[1])!)",
             "KeyCatalog.PersistentKeyValueFailure.handler = { _ in harness.reported() }"]
    lines += ["fuzzRun%s(harness)" % t for t in tags]
    lines += ["harness.finish()", "Foundation.exit(harness.failures == 0 ? 0 : 1)", ""]
    return "\n".join(lines)


# --- Driver ---------------------------------------------------------------------------------

class Fuzz:
    def __init__(self, args, work):
        self.args = args
        self.work = work
        self.keycatalog = args.keycatalog
        self.swiftc = args.swiftc
        self.stats = dict(tried=0, lint=0, compiled=0, roundtrip=0)
        self.failures = []
        self.signatures = {}
        self.out = os.path.abspath(args.out)

    def log(self, msg):
        print(msg, flush=True)

    def build_runtime(self):
        rt = os.path.join(self.work, "runtime")
        os.makedirs(rt)
        sources = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(ROOT, "Sources/KeyCatalog"))
                         for f in fs if f.endswith(".swift"))
        cmd = [self.swiftc, "-module-name", "KeyCatalog", "-parse-as-library", "-emit-library", "-emit-module",
               "-emit-module-path", os.path.join(rt, "KeyCatalog.swiftmodule"), "-o", os.path.join(rt, "libKeyCatalog.so"),
               "-swift-version", "6", "-wmo", "-Onone", "-enable-testing"] + sources
        t0 = time.time()
        subprocess.run(cmd, check=True)
        self.log("fuzz: runtime built in %.0f s" % (time.time() - t0))
        self.rt = rt

    def lint_generate(self, m, folder):
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "keys.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(m.doc, f, ensure_ascii=m.seed % 2 == 0, indent=1)
        r = subprocess.run([self.keycatalog, "lint", path], capture_output=True, text=True, errors="replace")
        if r.returncode != 0:
            return None, r.stderr
        out = os.path.join(folder, "Catalog%s.generated.swift" % m.tag)
        r2 = subprocess.run([self.keycatalog, "generate", path, "--output", out], capture_output=True, text=True, errors="replace")
        if r2.returncode != 0:
            return False, "lint passed but generate failed:\n" + r2.stdout + r2.stderr
        return out, ""

    def compile_run(self, folder, manifests, generated):
        """Compiles and runs one batch; returns (ok, stage, output)."""
        files = list(generated)
        for m in manifests:
            p = os.path.join(folder, "Support%s.swift" % m.tag)
            with open(p, "w", encoding="utf-8") as f:
                f.write(m.swift_support())
            files.append(p)
        with open(os.path.join(folder, "Harness.swift"), "w") as f:
            f.write(HARNESS)
        with open(os.path.join(folder, "main.swift"), "w") as f:
            f.write(main_swift([m.tag for m in manifests]))
        files += [os.path.join(folder, "Harness.swift"), os.path.join(folder, "main.swift")]
        common = [self.swiftc, "-I", self.rt, "-warnings-as-errors", "-module-name", "Fuzz", "-package-name", "Fuzz", "-wmo"]
        link = ["-L", self.rt, "-lKeyCatalog", "-Xlinker", "-rpath", "-Xlinker", self.rt]
        modes = [
            ("swift6-debug", ["-swift-version", "6", "-Onone", "-D", "DEBUG"], True),
            ("swift6-release", ["-swift-version", "6", "-O"], True),
            ("swift5-debug", ["-swift-version", "5", "-Onone", "-D", "DEBUG"], False),
            ("swift5-release", ["-swift-version", "5", "-O"], False),
            # A module whose default isolation is the main actor (Xcode 26's new app targets).
            ("swift6-mainactor", ["-swift-version", "6", "-Onone", "-D", "DEBUG", "-default-isolation", "MainActor"], False),
            ("swift5-mainactor", ["-swift-version", "5", "-Onone", "-D", "DEBUG", "-default-isolation", "MainActor"], False),
        ]
        for name, flags, run in modes:
            if run:
                exe = os.path.join(folder, "smoke-" + name)
                cmd = common + flags + link + ["-o", exe] + files
            else:
                cmd = common + flags + ["-emit-module", "-no-emit-module-separately-wmo", "-parse-as-library",
                                        "-emit-module-path", os.path.join(folder, name + ".swiftmodule")] + files
                cmd.remove("-parse-as-library")  # main.swift has top-level code
            r = subprocess.run(cmd, capture_output=True, text=True, errors="replace", cwd=folder)
            out = r.stdout + r.stderr
            if r.returncode != 0 or re.search(r"(error|warning): ", out):
                return False, "compile " + name, out
        for name in ("swift6-debug", "swift6-release"):
            home = os.path.join(folder, "home-" + name)
            shutil.rmtree(home, ignore_errors=True)
            os.makedirs(home)
            env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"))
            for phase in ("1", "2"):
                try:
                    r = subprocess.run([os.path.join(folder, "smoke-" + name), phase], capture_output=True, text=True,
                                       errors="replace", env=env, timeout=120)
                except subprocess.TimeoutExpired:
                    return "compiled", "run %s phase %s" % (name, phase), "timed out"
                if r.returncode != 0:
                    return "compiled", "run %s phase %s" % (name, phase), r.stdout + r.stderr
        return True, "", ""

    def run(self):
        spec = self.args.seeds
        lo, hi = (int(x) for x in spec.split("-")) if "-" in spec else (0, int(spec) - 1)
        seeds = list(range(lo, hi + 1))
        self.build_runtime()
        batch = []
        names = Names()
        t0 = time.time()
        for seed in seeds:
            batch.append(seed)
            if len(batch) == self.args.batch or seed == seeds[-1]:
                self.run_batch(batch)
                batch = []
                s = self.stats
                self.log("fuzz: %d tried, %d lint-clean, %d compiled clean, %d round-tripped (%.0f s)"
                         % (s["tried"], s["lint"], s["compiled"], s["roundtrip"], time.time() - t0))
        s = self.stats
        self.log("fuzz: %d tried, %d lint-clean, %d compiled clean, %d round-tripped" % (s["tried"], s["lint"], s["compiled"], s["roundtrip"]))
        for f in self.failures:
            self.log("fuzz: FAILED seed %s (%s): %s" % f)
        return 1 if self.failures else 0

    def make(self, seeds):
        names = Names()
        return [Manifest(s, names) for s in seeds]

    def run_batch(self, seeds, manifests=None):
        # A split passes the batch's own manifests: made again with fresh names, a seed whose names
        # met another manifest's in the batch draws different ones, so makes a different manifest.
        manifests = manifests or self.make(seeds)
        folder = os.path.join(self.work, "batch-%d" % seeds[0])
        shutil.rmtree(folder, ignore_errors=True)
        clean, generated = [], []
        for m in manifests:
            self.stats["tried"] += 1
            out, err = self.lint_generate(m, folder + "/m%s" % m.tag)
            if out is None:
                if self.args.verbose:
                    self.log("seed %d lint-rejected: %s" % (m.seed, err.strip().splitlines()[0] if err.strip() else ""))
                continue
            self.stats["lint"] += 1
            if out is False:
                self.fail(m.seed, "generate", err, m)
                continue
            clean.append(m)
            generated.append(out)
        if not clean:
            return
        ok, stage, output = self.compile_run(folder, clean, generated)
        if ok is True:
            self.stats["compiled"] += len(clean)
            self.stats["roundtrip"] += len(clean)
            if not self.args.keep:
                shutil.rmtree(folder, ignore_errors=True)
            return
        if len(clean) == 1:
            if ok == "compiled":
                self.stats["compiled"] += 1
            self.fail(clean[0].seed, stage, output, clean[0])
            return
        # Split: every manifest alone, the very manifest the batch compiled.
        failed = len(self.failures)
        for m in clean:
            self.stats["tried"] -= 1
            self.stats["lint"] -= 1
            self.run_batch([m.seed], [m])
        if len(self.failures) == failed:
            # No manifest fails alone: the failure is the batch's (manifests meeting in one module).
            sig = signature(stage, output)
            self.failures.append(("%d-%d" % (seeds[0], seeds[-1]), stage, sig))
            dest = os.path.join(self.out, "batch-%d" % seeds[0])
            os.makedirs(dest, exist_ok=True)
            with open(os.path.join(dest, "output.txt"), "w", encoding="utf-8") as f:
                f.write("seeds: %s\nstage: %s\nsignature: %s\n\n%s" % (" ".join(str(m.seed) for m in clean), stage, sig, output))
            self.log("fuzz: batch %d failed at %s, but no manifest alone: %s (written to %s)" % (seeds[0], stage, sig, dest))

    def fail(self, seed, stage, output, m):
        sig = signature(stage, output)
        self.failures.append((seed, stage, sig))
        dest = os.path.join(self.out, "seed-%d" % seed)
        os.makedirs(dest, exist_ok=True)
        with open(os.path.join(dest, "keys.json"), "w", encoding="utf-8") as f:
            json.dump(m.doc, f, ensure_ascii=False, indent=1)
        with open(os.path.join(dest, "output.txt"), "w", encoding="utf-8") as f:
            f.write("stage: %s\nsignature: %s\n\n%s" % (stage, sig, output))
        self.log("fuzz: seed %d failed at %s: %s (written to %s)" % (seed, stage, sig, dest))
        if self.args.shrink and sig not in self.signatures:
            self.signatures[sig] = seed
            shrink(self, m, stage, sig, dest)


def signature(stage, output):
    for line in output.splitlines():
        mm = re.search(r"(error|warning): (.*)", line)
        if mm:
            return stage + ": " + re.sub(r"'[^']*'", "'…'", mm.group(2))[:160]
        if line.startswith("FUZZ-FAIL"):
            return stage + ": " + re.sub(r"FUZZ-FAIL \S+", "", line)[:60]
    return stage + ": " + (output.strip().splitlines() or ["?"])[-1][:160]


# --- Shrinking ------------------------------------------------------------------------------

def shrink(fz, m, stage, sig, dest):
    """Delta-debugs the manifest's keys, then fields, keeping the failure's signature."""
    t0 = time.time()
    counter = [0]

    def still_fails(doc):
        counter[0] += 1
        if time.time() - t0 > fz.args.shrink_seconds:
            return False
        mm = ShrunkManifest(m, doc)
        folder = os.path.join(fz.work, "shrink-%d-%d" % (m.seed, counter[0]))
        out, err = fz.lint_generate(mm, folder)
        if out is None:
            return False
        if out is False:
            return stage == "generate"
        ok, st, output = fz.compile_run(folder, [mm], [out])
        shutil.rmtree(folder, ignore_errors=True)
        return ok is not True and signature(st, output) == sig

    doc = json.loads(json.dumps(m.doc))
    keys = doc["keys"]
    # ddmin over keys (with their smoke checks kept alongside).
    n = 2
    while len(keys) >= 2:
        chunk = max(1, len(keys) // n)
        reduced = False
        for start in range(0, len(keys), chunk):
            cand = keys[:start] + keys[start + chunk:]
            if cand and still_fails(dict(doc, keys=cand)):
                keys = cand
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(keys), n * 2)
    doc["keys"] = keys
    # Then fields: drop optional members anywhere, shorten strings.
    changed = True
    while changed:
        changed = False
        for path in list(member_paths(doc)):
            cand = json.loads(json.dumps(doc))
            remove_at(cand, path)
            if cand != doc and still_fails(cand):
                doc = cand
                changed = True
                break
    with open(os.path.join(dest, "minimal.keys.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
    # The minimal case's output, for the report.
    mm = ShrunkManifest(m, doc)
    folder = os.path.join(dest, "minimal")
    shutil.rmtree(folder, ignore_errors=True)
    out, err = fz.lint_generate(mm, folder)
    if out:
        ok, st, output = fz.compile_run(folder, [mm], [out])
        with open(os.path.join(dest, "minimal.output.txt"), "w", encoding="utf-8") as f:
            f.write("stage: %s\n\n%s" % (st, output))
    fz.log("fuzz: shrunk seed %d to %d key(s) in %d tries (%s/minimal.keys.json)" % (m.seed, len(doc["keys"]), counter[0], dest))


OPTIONAL_KEY_FIELDS = ["doc", "deprecated", "migrations", "representation", "key", "store", "parameters", "secret"]


def member_paths(doc):
    for top in ("access", "defaultStore", "catalog"):
        if top in doc:
            yield (top,)
    for s in list(doc.get("stores", {})):
        yield ("stores", s)
    for t in list(doc.get("types", {})):
        yield ("types", t)
    for i, k in enumerate(doc["keys"]):
        for f in OPTIONAL_KEY_FIELDS:
            if f in k:
                yield ("keys", i, f)
        for j in range(len(k.get("migrations", []))):
            yield ("keys", i, "migrations", j)
        for f in ("doc", "deprecated", "default"):
            if isinstance(k.get(f), str) and len(k[f]) > 1:
                yield ("keys", i, f, "halve")


def remove_at(doc, path):
    obj = doc
    for p in path[:-1]:
        if p == "halve":
            break
        obj = obj[p]
    last = path[-1]
    if last == "halve":
        parent = doc
        for p in path[:-2]:
            parent = parent[p]
        s = parent[path[-2]]
        parent[path[-2]] = s[: len(s) // 2]
    elif isinstance(obj, list):
        del obj[last]
    else:
        del obj[last]


class ShrunkManifest:
    """A manifest reduced by the shrinker: the same companions, smoke checks of the keys kept."""

    def __init__(self, m, doc):
        self.__dict__.update({k: v for k, v in m.__dict__.items() if k not in ("doc", "key_info")})
        self.doc = doc
        self.catalog = doc.get("catalog", "Keys")
        by_name = {k["name"]: k for k in m.key_info}
        self.key_info = []
        self.rng = random.Random(m.seed)
        self.eqs = {}
        for k in doc["keys"]:
            info = dict(by_name[k["name"]])
            info["store"] = k.get("store", doc.get("defaultStore", "standard"))
            info["deprecated"] = "deprecated" in k
            self.key_info.append(info)

    swift_support = Manifest.swift_support
    swift_smoke = Manifest.swift_smoke
    eq_fn = Manifest.eq_fn


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0-99", help="N (seeds 0..N-1) or LO-HI inclusive")
    ap.add_argument("--batch", type=int, default=10, help="manifests compiled together in one module")
    ap.add_argument("--out", default=os.path.join(ROOT, ".build/fuzz-failures"), help="where failures are written")
    ap.add_argument("--keycatalog", default=None)
    ap.add_argument("--swiftc", default=shutil.which("swiftc") or "swiftc")
    ap.add_argument("--no-shrink", dest="shrink", action="store_false")
    ap.add_argument("--shrink-seconds", type=int, default=600)
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--emit", type=int, help="print the manifest of one seed and exit")
    args = ap.parse_args()
    if args.emit is not None:
        print(json.dumps(Manifest(args.emit, Names()).doc, ensure_ascii=False, indent=1))
        return 0
    work = tempfile.mkdtemp(prefix="keycatalog-fuzz.")
    # The compiler driver (and SwiftPM) leave a folder in TMPDIR for each run: keep them in the
    # work folder, which the run removes.
    os.environ["TMPDIR"] = os.path.join(work, "tmp")
    os.makedirs(os.environ["TMPDIR"])
    try:
        if args.keycatalog is None:
            subprocess.run(["swift", "build", "--product", "keycatalog"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
            bindir = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
            args.keycatalog = os.path.join(bindir, "keycatalog")
        return Fuzz(args, work).run()
    finally:
        # Also after a failure or an interruption: the work folder holds the compilers' own.
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
