import Foundation
import Testing

@testable import KeyCatalog

/// What a file store reports of a list that does not parse: what is wrong, and where when the
/// bytes tell it (Foundation's own message calls every damaged binary list "Unexpected character
/// b at line 1", from its text parser, the last it tries).
@Suite("File store: what is wrong with a damaged list")
struct PropertyListCorruptionTests {
    static let values: [String: Int] = Dictionary(uniqueKeysWithValues: (0..<20).map { ("key\($0)", $0) })

    static func problem(_ data: Data) -> String? {
        guard case .corrupt(let problem) = PropertyListFileDecoding.decode(data) else { return nil }
        return problem
    }

    @Test func aBinaryListMissingBytesBeforeItsTrailer() throws {
        let whole = try PropertyListSerialization.data(fromPropertyList: Self.values, format: .binary, options: 0)
        // 20 bytes gone from the middle: the trailer, intact, places the offset table past it.
        let damaged = whole.prefix(whole.count / 2) + whole.suffix(whole.count / 2 - 20)
        let trailer = damaged.count - 32
        #expect(
            Self.problem(damaged)
                == "a binary property list of \(damaged.count) bytes whose trailer (at byte \(trailer)) gives an offset table past its end: cut short or damaged"
        )
    }

    @Test func aBinaryListWhoseObjectsDoNotRead() throws {
        var damaged = try PropertyListSerialization.data(fromPropertyList: Self.values, format: .binary, options: 0)
        // The top object's marker (a dictionary, 0xD_) made one of no type (0x7_); the trailer intact.
        damaged[8] = 0x70
        let problem = try #require(Self.problem(damaged))
        #expect(problem.hasPrefix("a binary property list of \(damaged.count) bytes whose objects do not read (damaged): "), "\(problem)")
    }

    @Test func anXMLListCutShort() throws {
        let whole = try PropertyListSerialization.data(fromPropertyList: Self.values, format: .xml, options: 0)
        let damaged = whole.prefix(whole.count - 30)
        #expect(Self.problem(damaged) == "an XML property list cut short: it ends at byte \(damaged.count) without </plist>")
    }

    @Test func bytesThatAreNoPropertyList() {
        let problem = Self.problem(Data("hello, world: no list here".utf8))
        #expect(problem?.hasPrefix("neither a binary nor an XML property list: 26 bytes starting \"hello, world: no\"; ") == true, "\(String(describing: problem))")
    }
}
