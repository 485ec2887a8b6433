// A child process for KeyCatalogTests: see TestHelper.swift. No globals here (they would be
// main-actor isolated); the logic lives in `TestHelper`.
TestHelper.main(Array(CommandLine.arguments.dropFirst()))
