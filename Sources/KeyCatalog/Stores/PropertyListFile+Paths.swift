import Foundation

extension PropertyListFile {
    /// The file's path with every symbolic link resolved, also when the file does not exist yet.
    ///
    /// `URL.resolvingSymlinksInPath()` on Linux leaves a path whose file does not exist untouched,
    /// so two spellings of one new file (through a symlinked folder) would get two states, and
    /// each store's write would drop the other's values. So: the kernel's answer (`realpath`)
    /// where the path exists; else its deepest existing folder's, with the rest appended, and the
    /// file followed if it is a link to a file not made yet.
    ///
    /// Worked on the path's bytes, not with `URL`: each store's `init` asks, and the `URL`
    /// operations this replaced cost about 100,000 instructions, most of a store's opening.
    static func canonicalPath(of url: URL) -> String {
        // A file URL's path is absolute; a URL without a scheme (`URL(string: "settings.plist")`)
        // names a file in the current folder, as `URL(fileURLWithPath:)` would.
        var path = url.path.hasPrefix("/") ? url.path : FileManager.default.currentDirectoryPath + "/" + url.path
        for _ in 0..<32 {
            if let resolved = resolvedPath(path) { return resolved }
            let realFolder = canonicalFolder(folder(of: path))
            let candidate = lexicallyStandardized(realFolder + "/" + lastComponent(of: path))
            // A link whose file does not exist yet: the file it names, from the link's real folder.
            guard let destination = symbolicLinkDestination(candidate) else { return candidate }
            path = destination.hasPrefix("/") ? destination : folder(of: candidate) + "/" + destination
        }
        return lexicallyStandardized(path)
    }

    /// The folder at `path` with its links resolved: `realpath` of its deepest existing folder,
    /// with the rest appended by name.
    private static func canonicalFolder(_ path: String) -> String {
        if let resolved = resolvedPath(path) { return resolved }
        guard path != "/", !path.isEmpty else { return "/" }
        return lexicallyStandardized(canonicalFolder(folder(of: path)) + "/" + lastComponent(of: path))
    }

    /// What follows the last `/` of `path` (all of it, if it has none). Found among the scalars,
    /// not the characters: a name that starts with a combining mark makes one character with the
    /// `/` before it.
    private static func lastComponent(of path: String) -> String {
        let scalars = path.unicodeScalars
        guard let slash = scalars.lastIndex(of: "/") else { return path }
        return String(scalars[scalars.index(after: slash)...])
    }

    /// `realpath(3)` of `path`: `nil` when some part of it does not exist.
    private static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// An absolute `path` without `.`, `..` or empty components, resolved by their names alone,
    /// as `URL.standardizedFileURL` does: `/a/./b//../c` is `/a/c`.
    private static func lexicallyStandardized(_ path: String) -> String {
        var components: [String] = []
        for component in path.unicodeScalars.split(separator: "/").map(String.init) {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// The folder of an absolute, standardized `path`: `/a/b` is `/a`, `/a` is `/`.
    static func folder(of path: String) -> String {
        let scalars = path.unicodeScalars
        guard let slash = scalars.lastIndex(of: "/"), slash != scalars.startIndex else { return "/" }
        return String(scalars[..<slash])
    }

    /// Where the symbolic link at `path` points, as written in it; `nil` if `path` is no link.
    private static func symbolicLinkDestination(_ path: String) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX)) { buffer in
            let count = readlink(path, buffer.baseAddress!, buffer.count)
            guard count > 0 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: count), as: UTF8.self)
        }
    }
}
