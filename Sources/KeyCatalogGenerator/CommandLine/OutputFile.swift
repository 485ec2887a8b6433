import Foundation

/// Writing generated files so builds stay incremental.
public enum OutputFile {
    /// `true` when `path` and `other` name one file, however spelled: `./keys.json` and
    /// `keys.json`, through symlinks, or hard links to the same inode.
    static func isSameFile(_ path: String, as other: String) -> Bool {
        func resolved(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        if resolved(path) == resolved(other) { return true }
        let manager = FileManager.default
        guard let first = try? manager.attributesOfItem(atPath: resolved(path)),
            let second = try? manager.attributesOfItem(atPath: resolved(other)),
            let inode = first[.systemFileNumber] as? UInt64, let device = first[.systemNumber] as? UInt64
        else { return false }
        return inode == second[.systemFileNumber] as? UInt64 && device == second[.systemNumber] as? UInt64
    }

    /// Writes `contents` to `path` only when the file does not already hold exactly that, so an
    /// unchanged manifest does not make SwiftPM recompile the target.
    ///
    /// ```swift
    /// let changed = try OutputFile.writeIfChanged(swiftSource, to: "Generated/Keys.swift")
    /// ```
    ///
    /// - Returns: `true` when the file was written.
    /// - Throws: The file system's error when the folder cannot be created or the file written.
    @discardableResult
    public static func writeIfChanged(_ contents: String, to path: String) throws -> Bool {
        try writeIfChanged(Data(contents.utf8), to: path)
    }

    /// Writes `data` to `path` unless the file already holds exactly that, as the `String`
    /// overload does.
    @discardableResult
    static func writeIfChanged(_ data: Data, to path: String) throws -> Bool {
        if FileManager.default.contents(atPath: path) == data { return false }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        return true
    }
}
