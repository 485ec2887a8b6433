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
    ///
    /// What is at `path` is kept as what it is: through a symbolic link, the file it points to is
    /// written (replaced atomically, with its permissions); a device or a pipe (`/dev/stdout`) is
    /// written to, as a shell redirection would; a folder is refused.
    @discardableResult
    static func writeIfChanged(_ data: Data, to path: String) throws -> Bool {
        let manager = FileManager.default
        guard !path.hasSuffix("/") else { throw PathError(path: path, reason: "it names a folder; give the path of a .swift file") }
        let target = try destination(of: path)
        if let attributes = try? manager.attributesOfItem(atPath: target) {
            switch attributes[.type] as? FileAttributeType {
            case .typeDirectory?:
                throw PathError(path: path, reason: "it is a folder; give the path of a .swift file")
            case .typeRegular?:
                if manager.contents(atPath: target) == data { return false }
                try data.write(to: URL(fileURLWithPath: target), options: .atomic)
                if let permissions = attributes[.posixPermissions] {
                    try manager.setAttributes([.posixPermissions: permissions], ofItemAtPath: target)
                }
            default:
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: target))
                defer { try? handle.close() }
                try handle.write(contentsOf: data)
            }
            return true
        }
        let folder = URL(fileURLWithPath: target).deletingLastPathComponent()
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: target), options: .atomic)
        return true
    }

    /// The path a write to `path` reaches: `path` itself, or, through symbolic links (each
    /// relative to its own folder), the file they point to, whether it exists yet or not.
    private static func destination(of path: String) throws -> String {
        var current = path
        for _ in 0..<32 {
            guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = link.hasPrefix("/") ? link : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(link).path
        }
        throw PathError(path: path, reason: "its symbolic links loop")
    }

    /// An output path that cannot be written, and why.
    struct PathError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot write '\(path)': \(reason)" }
    }
}
