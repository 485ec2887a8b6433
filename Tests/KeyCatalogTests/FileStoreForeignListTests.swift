import Foundation
import Testing

@testable import KeyCatalog

/// Files another program wrote, or damaged, that a file store must read as they are, or refuse
/// to rewrite: nothing in them is lost.
@Suite("File store: lists other programs wrote")
struct FileStoreForeignListTests {
    let folder = TemporaryDirectory()

    /// `café` composed (U+00E9) and decomposed (e, U+0301): one `String`, two keys of a list
    /// another program wrote (a dictionary of `NSString`s on a Mac, Python's plistlib).
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    @Test func anXMLListWhoseKeysDifferOnlyInNormalizationIsNotRewritten() throws {
        let url = folder.file("foreign.plist")
        let xml = Self.xmlList([(Self.composed, "<integer>1</integer>"), (Self.decomposed, "<integer>2</integer>")])
        try Data(xml.utf8).write(to: url)
        try expectNotRewritten(url, naming: ["'\(Self.composed)' (U+63 U+61 U+66 U+E9)", "'\(Self.decomposed)' (U+63 U+61 U+66 U+65 U+301)"])
    }

    @Test func aBinaryListWhoseKeysDifferOnlyInNormalizationIsNotRewritten() throws {
        let url = folder.file("foreign.plist")
        try Self.binaryList(keys: [Self.composed, Self.decomposed], values: [1, 2]).write(to: url)
        #expect(BinaryPropertyList.topLevelCount(of: try Data(contentsOf: url)) == 2)
        try expectNotRewritten(url, naming: ["the file spells 2 keys, 1 as strings"])
    }

    /// Foundation's XML reader drops a leading U+FEFF from a key: `\u{FEFF}x` and `x` are then one.
    @Test func anXMLListWhoseKeysDifferOnlyInALeadingByteOrderMarkIsNotRewritten() throws {
        let url = folder.file("foreign.plist")
        let xml = Self.xmlList([("\u{FEFF}x", "<integer>1</integer>"), ("x", "<integer>2</integer>")])
        try Data(xml.utf8).write(to: url)
        try expectNotRewritten(url, naming: ["'x' (U+78)", "'\u{FEFF}x' (U+FEFF U+78)"], key: "x")
    }

    /// A key repeated byte for byte is one key to every reader (the last value): such a list is
    /// written as usual, whatever else it holds.
    @Test func anXMLListThatRepeatsAKeyIsWrittenAsUsual() throws {
        let url = folder.file("repeats.plist")
        let xml = Self.xmlList([("a", "<integer>1</integer>"), ("a", "<integer>2</integer>"), (Self.composed, "<integer>3</integer>")])
        try Data(xml.utf8).write(to: url)
        let recorder = FailureRecorder()
        let store = recorder.record { FileKeyValueStore(url: url) }
        #expect(store.get(PersistentKey<Int>("a", defaultValue: 0)) == 2)
        recorder.record { store.set(PersistentKey<Int>("other", defaultValue: 0), to: 4) }
        try store.compact()
        #expect(recorder.failures.isEmpty, "\(recorder.failures)")
        #expect(try FileStoreOnDisk.read(url) == ["a": .int(2), Self.composed: .int(3), "other": .int(4)])
    }

    /// Processing instructions and a document type with an internal subset may come before the
    /// dictionary: a list with one entry that does not parse is still read entry by entry.
    @Test func anXMLListWithAPrologIsReadEntryByEntry() throws {
        let url = folder.file("prolog.plist")
        let xml = Self.xmlList(
            [("name", "<string>kept</string>"), ("huge", "<integer>99999999999999999999999</integer>")],
            prolog: #"""
                <?xml-stylesheet type="text/xsl" href="plist.xsl"?>
                <!-- exported -->
                <!DOCTYPE plist [ <!ENTITY app "App"> ]>
                <?another instruction?>
                """#)
        try Data(xml.utf8).write(to: url)
        let recorder = FailureRecorder()
        let store = recorder.record { FileKeyValueStore(url: url) }
        #expect(store.get(PersistentKey<String>("name", defaultValue: "")) == "kept")
        #expect(recorder.failures.map(\.message).allSatisfy { $0.contains("'huge'") && !$0.contains("moved aside") }, "\(recorder.failures)")
        #expect(recorder.failures.count == 1)
    }

    /// An XML property list of one dictionary, as another program writes it: each entry a key and
    /// its value element (`<integer>1</integer>`), with `prolog` (lines) between the XML
    /// declaration and `<plist>`.
    static func xmlList(_ entries: [(key: String, value: String)], prolog: String = "") -> String {
        let lines =
            [#"<?xml version="1.0" encoding="UTF-8"?>"#] + (prolog.isEmpty ? [] : [prolog]) + [#"<plist version="1.0">"#, "<dict>"]
            + entries.flatMap { ["\t<key>\($0.key)</key>", "\t\($0.value)"] } + ["</dict>", "</plist>"]
        return lines.joined(separator: "\n")
    }

    /// The store reads one of the two values, reports the file once, refuses writes (a rewrite
    /// would drop the other entry), and leaves the file's bytes as they were.
    private func expectNotRewritten(_ url: URL, naming: [String], key name: String = composed) throws {
        let original = try Data(contentsOf: url)
        let recorder = FailureRecorder()
        let store = recorder.record { FileKeyValueStore(url: url) }
        let key = PersistentKey<Int>(name, defaultValue: 0)
        #expect([1, 2].contains(recorder.record { store.get(key) }), "one of the two values is read")
        let load = try #require(recorder.failures.first)
        #expect(load.operation == .load)
        #expect(load.message.contains("keys that differ only in Unicode normalization, or in a leading U+FEFF"), "\(load.message)")
        for naming in naming { #expect(load.message.contains(naming), "\(load.message)") }
        #expect(load.message.contains("writes are refused"), "\(load.message)")

        recorder.record { store.set(PersistentKey<Int>("other", defaultValue: 0), to: 3) }
        #expect(recorder.failures.map(\.operation) == [.load, .write], "\(recorder.failures)")
        #expect(try Data(contentsOf: url) == original, "the file keeps both entries")
        #expect(!FileManager.default.fileExists(atPath: url.path + ".journal"), "nothing was written for it")
    }

    /// A binary property list (`bplist00`) of one dictionary of strings to integers, laid out by
    /// hand: Foundation cannot write keys that are one `String` into one dictionary.
    static func binaryList(keys: [String], values: [Int]) -> Data {
        var objects: [[UInt8]] = [[0xD0 | UInt8(keys.count)] + (1...2 * keys.count).map(UInt8.init)]
        for key in keys {
            let units = Array(key.utf16)
            objects.append([0x60 | UInt8(units.count)] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        }
        for value in values { objects.append([0x10, UInt8(value)]) }
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let offsetTable = bytes.count
        bytes += offsets
        let trailer: [UInt8] = [0, 0, 0, 0, 0, 0, 1, 1] + bigEndian(objects.count) + bigEndian(0) + bigEndian(offsetTable)
        return Data(bytes + trailer)
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    @Test(arguments: [0, 1, 14, 15, 16, 300, 70_000])
    func aBinaryListSaysHowManyEntriesItsDictionaryHolds(count: Int) throws {
        let values = Dictionary(uniqueKeysWithValues: (0..<count).map { ("key\($0)", $0) })
        let data = try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
        #expect(BinaryPropertyList.topLevelCount(of: data) == count)
        #expect(BinaryPropertyList.topLevelCount(of: data.dropLast(1)) != count || count == 0, "a list cut short")
    }

    @Test func anXMLListInLatin1WithOneUnreadableEntryKeepsItsText() throws {
        let url = folder.file("latin1.plist")
        let xml = """
            <?xml version="1.0" encoding="ISO-8859-1"?>
            <plist version="1.0">
            <dict>
            \t<key>caf\u{E9}</key>
            \t<string>na\u{EF}ve</string>
            \t<key>huge</key>
            \t<integer>99999999999999999999999</integer>
            </dict>
            </plist>
            """
        try #require(xml.data(using: .isoLatin1)).write(to: url)
        let recorder = FailureRecorder()
        let store = recorder.record { FileKeyValueStore(url: url) }
        #expect(store.get(PersistentKey<String>(Self.composed, defaultValue: "")) == "na\u{EF}ve")
        #expect(recorder.failures.count == 1)
        #expect(recorder.failures.first?.message.contains("'huge'") == true, "\(recorder.failures)")

        // Rewritten (as UTF-8 XML, keeping the entry it cannot read): the text is the same.
        recorder.record { store.set(PersistentKey<Int>("other", defaultValue: 0), to: 3) }
        try store.compact()
        let text = try #require(String(data: try Data(contentsOf: url), encoding: .utf8))
        #expect(text.contains("<key>caf\u{E9}</key>") && text.contains("<string>na\u{EF}ve</string>"), "\(text)")
        #expect(text.contains("<integer>99999999999999999999999</integer>"), "\(text)")
        #expect(recorder.failures.count == 1, "\(recorder.failures)")
    }

    @Test func anXMLListInAnEncodingFoundationDoesNotKnowIsMovedAside() throws {
        let url = folder.file("unknown.plist")
        let xml = #"<?xml version="1.0" encoding="X-UNKNOWN"?><plist version="1.0"><dict><key>a</key><integer>99999999999999999999999</integer></dict></plist>"#
        try Data(xml.utf8).write(to: url)
        let recorder = FailureRecorder()
        let store = recorder.record { FileKeyValueStore(url: url) }
        #expect(store.storedValues.isEmpty)
        #expect(recorder.failures.first?.message.contains("moved aside") == true, "\(recorder.failures)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("unknown.plist.corrupt-") }
        #expect(aside.count == 1)
    }

    /// On Linux a file's name is its bytes: `café.plist` composed and decomposed are two files,
    /// and two stores.
    @Test func filesWhoseNamesDifferOnlyInNormalizationAreTwoStores() throws {
        let key = PersistentKey<Int>("n", defaultValue: 0)
        let first = FileKeyValueStore(url: folder.file("\(Self.composed).plist"))
        first.set(key, to: 1)
        let second = FileKeyValueStore(url: folder.file("\(Self.decomposed).plist"))
        #expect(second.get(key) == 0, "the other file holds nothing")
        second.set(key, to: 2)
        #expect(first.get(key) == 1)
        #expect(second.get(key) == 2)
        let journals = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".journal") }
        #expect(Set(journals.map { Array($0.utf8) }).count == 2, "\(journals)")
        let reader = try TestHelperExecutable.run(["file", folder.file("\(Self.decomposed).plist").path, "get", "n"])
        #expect(reader.output == "2\n", "read in a fresh process")
    }
}
