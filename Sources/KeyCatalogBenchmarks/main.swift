// `swift run -c release keycatalog-benchmarks [--allocations]`: see Benchmarks.swift.
// No globals here (they would be main-actor isolated); the logic lives in `Benchmarks`.
Benchmarks.main(Array(CommandLine.arguments.dropFirst()))
