import Foundation
import Testing

@testable import KeyCatalog

/// Stores opened on one file share its state however its path is spelled: the state is found
/// by the file's canonical path (`PropertyListFile.canonicalPath(of:)`).
@Suite("File store: a file's canonical path")
struct CanonicalPathTests {
    let directory = TemporaryDirectory()

    /// The temporary folder with its links resolved.
    var real: String {
        let resolved = realpath(directory.url.path, nil)!
        defer { free(resolved) }
        return String(cString: resolved)
    }

    func canonical(_ path: String) -> String {
        PropertyListFile.canonicalPath(of: URL(fileURLWithPath: path))
    }

    @Test func dotsAndRepeatedSlashesAreRemoved() {
        let base = directory.url.path
        #expect(canonical(base + "/a.plist") == real + "/a.plist")
        #expect(canonical(base + "/./x/../a.plist") == real + "/a.plist")
        #expect(canonical(base + "//a.plist") == real + "/a.plist")
        #expect(canonical(base + "/missing/../a.plist") == real + "/a.plist")
    }

    @Test func aFolderThatDoesNotExistYetIsKept() {
        #expect(canonical(directory.url.path + "/new/deeper/a.plist") == real + "/new/deeper/a.plist")
    }

    /// A name that starts with a combining mark (U+0301) makes one character with the `/` before
    /// it: paths are split at `/` among their scalars.
    @Test func aNameStartingWithACombiningMarkIsANameOfItsOwn() throws {
        try FileManager.default.createDirectory(atPath: directory.url.path + "/target", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.url.path + "/link", withDestinationPath: directory.url.path + "/target")
        let path = canonical(directory.url.path + "/link/\u{301}a.plist")
        #expect(Array(path.utf8) == Array((real + "/target/\u{301}a.plist").utf8), "\(path)")
        #expect(Array(PropertyListFile.folder(of: "/a/\u{301}b").utf8) == Array("/a".utf8))
    }

    @Test func linkedFoldersAreResolvedAlsoForFilesNotMadeYet() throws {
        try FileManager.default.createDirectory(at: directory.file("target"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.file("link").path, withDestinationPath: "target")
        #expect(canonical(directory.url.path + "/link/a.plist") == real + "/target/a.plist")
        #expect(canonical(directory.url.path + "/link/new/a.plist") == real + "/target/new/a.plist")
    }

    @Test func aLinkedFileIsFollowedThroughAChain() throws {
        try FileManager.default.createDirectory(at: directory.file("inner"), withIntermediateDirectories: true)
        // first -> inner/second (relative) -> <absolute>/inner/third.plist, which does not exist yet.
        try FileManager.default.createSymbolicLink(atPath: directory.file("first.plist").path, withDestinationPath: "inner/second.plist")
        try FileManager.default.createSymbolicLink(
            atPath: directory.file("inner/second.plist").path, withDestinationPath: directory.url.path + "/inner/../inner/third.plist")
        #expect(canonical(directory.url.path + "/first.plist") == real + "/inner/third.plist")
        // A link relative to its own folder, with `..`.
        try FileManager.default.createSymbolicLink(atPath: directory.file("inner/up.plist").path, withDestinationPath: "../top.plist")
        #expect(canonical(directory.url.path + "/inner/up.plist") == real + "/top.plist")
    }

    /// A relative link inside a linked folder, and `..` after a linked folder, name what the
    /// kernel finds: from the link's real folder (found by a review: both were taken by name).
    @Test func relativeLinksAndDotsAfterALinkedFolderAreTheKernels() throws {
        let base = directory.url.path
        for folder in ["/x/y/a", "/x/y/b", "/b"] {
            try FileManager.default.createDirectory(atPath: base + folder, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(atPath: base + "/a", withDestinationPath: base + "/x/y/a")
        try FileManager.default.createSymbolicLink(atPath: base + "/x/y/a/link.plist", withDestinationPath: "../b/file.plist")
        // The file does not exist yet, and then it does: the same path either way.
        #expect(canonical(base + "/a/link.plist") == real + "/x/y/b/file.plist")
        #expect(FileManager.default.createFile(atPath: base + "/x/y/b/file.plist", contents: nil))
        #expect(canonical(base + "/a/link.plist") == real + "/x/y/b/file.plist")
        #expect(canonical(base + "/a/../b/new.plist") == real + "/x/y/b/new.plist")

        // Stores opened through either spelling share one state.
        let key = PersistentKey<Int>("n", defaultValue: 0)
        FileKeyValueStore(url: URL(fileURLWithPath: base + "/x/y/b/file.plist")).set(key, to: 5)
        #expect(FileKeyValueStore(url: URL(fileURLWithPath: base + "/a/link.plist")).get(key) == 5)
    }

    /// A store opened through `..` after a linked folder is the kernel's file too (found by a
    /// review: the store's `init` took `..` away by name before asking).
    @Test func aStoreOpenedThroughDotsAfterALinkedFolderIsTheKernelsFile() throws {
        let base = directory.url.path
        for folder in ["/x/y/a", "/x/y/b"] {
            try FileManager.default.createDirectory(atPath: base + folder, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(atPath: base + "/a", withDestinationPath: base + "/x/y/a")
        let key = PersistentKey<Int>("n", defaultValue: 0)
        let viaKernel = FileKeyValueStore(url: URL(fileURLWithPath: base + "/x/y/b/file.plist"))
        let viaDots = FileKeyValueStore(url: URL(fileURLWithPath: base + "/a/../b/file.plist"))
        #expect(viaKernel.file === viaDots.file)
        viaDots.set(key, to: 3)
        #expect(FileManager.default.fileExists(atPath: base + "/x/y/b/file.plist.journal"))
        #expect(!FileManager.default.fileExists(atPath: base + "/b"))
    }

    /// A URL without a scheme names a file in the current folder (found by a review: a path
    /// without `/` crashed).
    @Test func aRelativePathIsInTheCurrentFolder() {
        let current = FileManager.default.currentDirectoryPath
        let resolved = realpath(current, nil)!
        defer { free(resolved) }
        let name = "keycatalog-missing-\(UUID().uuidString).plist"
        #expect(PropertyListFile.canonicalPath(of: URL(string: name)!) == String(cString: resolved) + "/" + name)
        #expect(PropertyListFile.canonicalPath(of: URL(fileURLWithPath: name)) == String(cString: resolved) + "/" + name)
    }

    @Test func aLinkCycleEndsAfterAFewSteps() throws {
        try FileManager.default.createSymbolicLink(atPath: directory.file("a.plist").path, withDestinationPath: "b.plist")
        try FileManager.default.createSymbolicLink(atPath: directory.file("b.plist").path, withDestinationPath: "a.plist")
        let path = canonical(directory.url.path + "/a.plist")
        #expect(path == real + "/a.plist" || path == real + "/b.plist")
    }
}
