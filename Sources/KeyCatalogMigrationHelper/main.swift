// A child process for KeyCatalogTests' migration crash tests: see MigrationHelper.swift. No
// globals here (they would be main-actor isolated); the logic lives in `MigrationHelper`.
MigrationHelper.main(Array(CommandLine.arguments.dropFirst()))
