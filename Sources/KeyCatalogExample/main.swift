// `swift run keycatalog-example [get NAME | set NAME VALUE | reset | help]`
// The logic lives in ExampleCommand.swift; globals here would be main-actor isolated.
import Foundation

exit(ExampleCommand.run(Array(CommandLine.arguments.dropFirst())))
