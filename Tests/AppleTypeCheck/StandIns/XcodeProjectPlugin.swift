// Stand-in for Xcode's XcodeProjectPlugin module (ships with Xcode only), built against the
// toolchain's real PackagePlugin module. Shapes follow XcodeProjectPlugin.swiftinterface (Xcode
// 14.1, public struct XcodeProject / XcodeTarget with `public let` members) plus the URL-based
// API of Xcode 16 (`pluginWorkDirectoryURL`), as documented at
// https://developer.apple.com/documentation/xcodeprojectplugin (XcodePluginContext, XcodeTarget,
// XcodeBuildToolPlugin). No public initializers: only Xcode creates these values.
import Foundation
import PackagePlugin

/// https://developer.apple.com/documentation/xcodeprojectplugin/xcodeproject
public struct XcodeProject {
    public typealias ID = String
    public let id: ID
    public let displayName: String
    public let directoryURL: URL
    public let filePaths: FileList
    public let targets: [XcodeTarget]
}

/// https://developer.apple.com/documentation/xcodeprojectplugin/xcodetarget
public struct XcodeTarget {
    public typealias ID = String
    public let id: ID
    public let displayName: String
    public let product: XcodeProduct?
    public let inputFiles: FileList
    public let dependencies: [XcodeTargetDependency]
}

/// https://developer.apple.com/documentation/xcodeprojectplugin/xcodeproduct
public struct XcodeProduct {
    public typealias ID = String
    public let id: ID
    public let name: String
    public let kind: Kind
    public enum Kind {
        case application, executable, framework, library, other(String)
    }
}

/// https://developer.apple.com/documentation/xcodeprojectplugin/xcodetargetdependency
public enum XcodeTargetDependency {
    case target(XcodeTarget)
    case product(Product)
}

/// https://developer.apple.com/documentation/xcodeprojectplugin/xcodeplugincontext
public struct XcodePluginContext {
    public let xcodeProject: XcodeProject
    @available(_PackageDescription, deprecated: 6.0, renamed: "pluginWorkDirectoryURL")
    public let pluginWorkDirectory: Path
    @available(_PackageDescription 6.0)
    public let pluginWorkDirectoryURL: URL
    /// Same lookup as `PluginContext.tool(named:)`.
    public func tool(named name: String) throws -> PluginContext.Tool { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/xcodeprojectplugin/xcodebuildtoolplugin
public protocol XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command]
}
