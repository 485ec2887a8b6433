#!/usr/bin/env python3
"""The generator benchmark of BENCHMARKS.md ("Generator"): whole-process time of
`keycatalog lint` and `keycatalog generate` on manifests of 100, 1,000 and 10,000 keys, and the
time to type-check the generated catalogs.

    Scripts/benchmark-generator.py                 # builds release, prints a Markdown table
    Scripts/benchmark-generator.py --runs 30 --scratch-path .build-bench

Manifests come from Scripts/generate-benchmark-manifest.py. Each command runs `--runs` times
after two warm-up runs; the table gives the median and the fastest run, in wall-clock
milliseconds, with the median CPU time (user + system) beside them. `generate` writes its output every run (the file is deleted first), the slower
case. Type-checking uses `swiftc -typecheck` against the release KeyCatalog module with
`-warn-long-expression-type-checking=100` and `-warn-long-function-bodies=100`; any such warning
is printed and counted.
"""
import argparse
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SIZES = [100, 1_000, 10_000]


def run(arguments, **options):
    return subprocess.run(arguments, check=True, capture_output=True, text=True, **options)


def timed(arguments, runs, before=None):
    """Median and fastest wall-clock time, and median CPU time (user + system), in ms.

    CPU time is the steadier number on a busy machine: waiting for a core does not count.
    """
    for _ in range(2):
        if before:
            before()
        run(arguments)
    wall, cpu = [], []
    for _ in range(runs):
        if before:
            before()
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        run(arguments)
        wall.append((time.perf_counter() - start) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append((after.ru_utime - usage.ru_utime + after.ru_stime - usage.ru_stime) * 1000)
    return statistics.median(wall), min(wall), statistics.median(cpu)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20, help="timed runs per command (default 20)")
    parser.add_argument("--scratch-path", default=".build", help="SwiftPM scratch path (default .build)")
    parser.add_argument("--skip-build", action="store_true", help="use the existing release build")
    options = parser.parse_args()

    scratch = (ROOT / options.scratch_path).resolve()
    if not options.skip_build:
        for product in (["--product", "keycatalog"], ["--target", "KeyCatalog"]):
            print(f"building {' '.join(product)} (release)…", file=sys.stderr)
            run(["swift", "build", "-c", "release", "--scratch-path", str(scratch), *product], cwd=ROOT)
    binary_folder = pathlib.Path(run(["swift", "build", "-c", "release", "--scratch-path", str(scratch), "--show-bin-path"], cwd=ROOT).stdout.strip())
    keycatalog = binary_folder / "keycatalog"
    modules = binary_folder / "Modules"

    rows = []
    with tempfile.TemporaryDirectory(prefix="keycatalog-bench-") as folder:
        folder = pathlib.Path(folder)
        for size in SIZES:
            manifest = folder / f"keys-{size}.json"
            manifest.write_text(run([sys.executable, str(ROOT / "Scripts/generate-benchmark-manifest.py"), str(size)]).stdout)
            output = folder / f"Keys{size}.swift"

            check = subprocess.run([str(keycatalog), "lint", "--strict", str(manifest)], capture_output=True, text=True)
            if check.returncode != 0:
                sys.exit(f"the {size}-key manifest does not lint clean:\n{check.stderr}")

            lint = timed([str(keycatalog), "lint", str(manifest)], options.runs)
            generate = timed(
                [str(keycatalog), "generate", str(manifest), "--output", str(output)],
                options.runs,
                before=lambda: output.unlink(missing_ok=True),
            )
            lines = output.read_text().count("\n")

            typecheck_runs = 3 if size <= 1_000 else 1
            samples, warnings = [], []
            for _ in range(typecheck_runs):
                start = time.perf_counter()
                result = subprocess.run(
                    [
                        "swiftc", "-typecheck", "-swift-version", "6", "-I", str(modules),
                        "-Xfrontend", "-warn-long-expression-type-checking=100",
                        "-Xfrontend", "-warn-long-function-bodies=100",
                        str(output),
                    ],
                    capture_output=True, text=True,
                )
                samples.append(time.perf_counter() - start)
                if result.returncode != 0:
                    sys.exit(f"the generated {size}-key catalog does not type-check:\n{result.stderr}")
                warnings = [line for line in result.stderr.splitlines() if ": warning:" in line]
            for line in warnings:
                print(line, file=sys.stderr)
            expressions = sum("expression took" in line for line in warnings)
            bodies = len(warnings) - expressions
            rows.append((size, lint, generate, lines, statistics.median(samples), expressions, bodies))

    print("| keys | lint: median / min (CPU) | generate: median / min (CPU) | generated lines | swiftc -typecheck | expressions > 100 ms | function bodies > 100 ms |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size, lint, generate, lines, typecheck, expressions, bodies in rows:
        print(
            f"| {size:,} | {lint[0]:.0f} / {lint[1]:.0f} ms ({lint[2]:.0f} ms) | {generate[0]:.0f} / {generate[1]:.0f} ms ({generate[2]:.0f} ms) "
            f"| {lines:,} | {typecheck:.1f} s | {expressions} | {bodies} |"
        )


if __name__ == "__main__":
    main()
