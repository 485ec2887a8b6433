import Foundation

/// The generator's front door: manifest bytes in, a validated ``Catalog`` and every finding out.
///
/// The pipeline is parse (positioned JSON) -> lint (every rule, all findings collected) ->
/// build (the model the renderer consumes). The catalog is `nil` whenever any finding is an
/// error; warnings and notes come back beside a catalog.
///
/// ```swift
/// let result = ManifestLoader.load(contents: Array(json.utf8), path: "keys.json")
/// for diagnostic in result.diagnostics {
///     print(diagnostic) // keys.json:12:5: error: unknown type 'Integer' for key 'retryCount'; did you mean 'Int'?
/// }
/// if let catalog = result.catalog {
///     print(catalog.keys.map(\.name))
/// }
/// ```
public enum ManifestLoader {
    /// Parses, lints and builds the manifest in `contents`.
    ///
    /// - Parameters:
    ///   - contents: The manifest's bytes (UTF-8 JSON; any bytes are safe).
    ///   - path: The manifest's path as it should appear in diagnostics.
    /// - Returns: The catalog (only when there are no errors) and every diagnostic, sorted by position.
    public static func load(contents: [UInt8], path: String) -> (catalog: Catalog?, diagnostics: [Diagnostic]) {
        let (root, syntax) = JSONParser.parse(contents, file: path)
        guard let root else { return (nil, syntax) }
        let context = LintContext(root: root, file: path)
        let diagnostics = (syntax + Linter.lint(context)).sortedByLocation()
        guard !diagnostics.containsErrors else { return (nil, diagnostics) }
        guard let catalog = CatalogBuilder(context: context).build() else {
            // The linter missed something the builder needs: say so rather than emit nothing.
            let internalError = Diagnostic(
                .error,
                "keycatalog could not build this manifest although no rule reported an error; please report this manifest as a keycatalog bug",
                at: root.location,
                rule: "internal"
            )
            return (nil, diagnostics + [internalError])
        }
        return (catalog, diagnostics)
    }

    /// Parses, lints and builds the manifest in `contents`.
    public static func load(contents: Data, path: String) -> (catalog: Catalog?, diagnostics: [Diagnostic]) {
        load(contents: [UInt8](contents), path: path)
    }

    /// Reads the manifest at `path`, then loads it; a file that cannot be read is an error at `path:1:1`.
    public static func load(fileAtPath path: String) -> (catalog: Catalog?, diagnostics: [Diagnostic]) {
        func failure(_ message: String) -> (catalog: Catalog?, diagnostics: [Diagnostic]) {
            (nil, [Diagnostic(.error, message, at: SourceLocation(file: path, line: 1, column: 1), rule: "io")])
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            // `fileExists` says no for any failure: tell a missing file from a path that cannot be
            // followed (found by a review: a symlink loop and an unreadable folder were "no such file").
            var info = stat()
            if stat(path, &info) != 0, errno != ENOENT {
                return failure("cannot open '\(path)': \(String(cString: strerror(errno))); check the path and its folders' permissions")
            }
            if lstat(path, &info) == 0 {
                return failure("'\(path)' is a symbolic link to nothing; check where it points")
            }
            return failure("no such file '\(path)'; check the path (the manifest is usually keys.json beside Package.swift or in the target's folder)")
        }
        if isDirectory.boolValue {
            return failure("'\(path)' is a directory, not a manifest; give the manifest's path, as in '\(path.hasSuffix("/") ? path : path + "/")keys.json'")
        }
        if let kind = nonRegularKind(path) {
            return failure("'\(path)' is \(kind), not a regular file; give the path of a keys.json file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return failure("cannot read '\(path)'; check its permissions")
        }
        return load(contents: data, path: path)
    }

    /// `a character device`, `a named pipe`…: what `path` (followed through symlinks) is when it
    /// is not a regular file; `nil` for a regular file or when it cannot be told.
    private static func nonRegularKind(_ path: String) -> String? {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let type = (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType else { return nil }
        switch type {
        case .typeRegular, .typeDirectory, .typeSymbolicLink: return nil
        case .typeCharacterSpecial: return "a character device"
        case .typeBlockSpecial: return "a block device"
        case .typeSocket: return "a socket"
        default: return "a special file"
        }
    }
}
