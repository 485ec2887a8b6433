import Foundation
import Testing

@testable import KeyCatalog

/// `_ExactKey` hashes a key's UTF-8 with a hash of its own (the read cache, the deferred writes
/// and Observation's tracked keys look keys up by it): equal bytes must hash alike whatever the
/// string's storage, every byte must count, and tables must find every key.
@Suite struct ExactKeyTests {
    /// Strings of every length the hash reads differently (0, 1-3, 4-16, over 16 and over 32).
    private static let lengths = Array(0...49)

    private static func text(length: Int, salt: Int = 0) -> String {
        String(decoding: (0..<length).map { UInt8(0x61 + ($0 * 7 + salt) % 26) }, as: UTF8.self)
    }

    @Test(arguments: [0, 1, -1, 0x5EED_1234])
    func equalBytesHashAlikeInEveryStorage(seed: Int) {
        let texts = Self.lengths.map { Self.text(length: $0) } + ["caf\u{E9}", "cafe\u{301}", "\u{FEFF}key", "\u{1F600}.mood", String(repeating: "\u{E9}t\u{E9}.", count: 9)]
        for literalLike in texts {
            let length = literalLike.utf8.count
            let bridged = NSString(string: literalLike) as String  // may stay a bridged string
            let sliced = String(("<" + literalLike + ">").dropFirst().dropLast())
            let fromUTF16 = String(decoding: Array(literalLike.utf16), as: UTF16.self)
            for other in [bridged, sliced, fromUTF16] {
                #expect(_ExactKey(other) == _ExactKey(literalLike))
                #expect(
                    _ExactKey(other)._rawHashValue(seed: seed) == _ExactKey(literalLike)._rawHashValue(seed: seed),
                    "length \(length)")
                #expect(_ExactKey(other).hashValue == _ExactKey(literalLike).hashValue)
            }
        }
    }

    @Test(arguments: [0, 1, UInt64.max])
    func everyBitOfEveryByteAndTheLengthChangeTheHash(seed: UInt64) {
        for length in 0...100 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
            let hash = bytes.withUnsafeBufferPointer { _ExactKey.bytesHash($0, seed: seed) }
            for position in bytes.indices {
                for bit in 0..<8 {
                    var changed = bytes
                    changed[position] ^= 1 << bit
                    let other = changed.withUnsafeBufferPointer { _ExactKey.bytesHash($0, seed: seed) }
                    #expect(other != hash, "length \(length), byte \(position), bit \(bit)")
                }
            }
            let longer = (bytes + [0]).withUnsafeBufferPointer { _ExactKey.bytesHash($0, seed: seed) }
            #expect(longer != hash, "length \(length) and a zero byte more")
        }
        let one = [UInt8(ascii: "a")].withUnsafeBufferPointer { _ExactKey.bytesHash($0, seed: seed) }
        let reseeded = [UInt8(ascii: "a")].withUnsafeBufferPointer { _ExactKey.bytesHash($0, seed: seed ^ 1) }
        #expect(one != reseeded, "the seed counts")
    }

    @Test func canonicallyEqualKeysAreTwoKeys() {
        let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
        #expect(composed == decomposed)
        #expect(_ExactKey(composed) != _ExactKey(decomposed))
        let table = [_ExactKey(composed): 1, _ExactKey(decomposed): 2]
        #expect(table.count == 2)
        #expect(table[_ExactKey(composed)] == 1)
        #expect(table[_ExactKey(decomposed)] == 2)
    }

    @Test func aTableFindsEachOfManyKeysAndNoOther() {
        // Keys as apps build them from a parameter, of many lengths: the hash's 64 bits spread
        // them (a hash that dropped bytes would collide here, and a lookup would cost a scan).
        let keys = (0..<20_000).map { "list.\($0).layout" } + Self.lengths.map { Self.text(length: $0, salt: 3) }
        var table: [_ExactKey: Int] = [:]
        for (index, key) in keys.enumerated() { table[_ExactKey(key)] = index }
        #expect(table.count == keys.count)
        for (index, key) in keys.enumerated() where table[_ExactKey(key)] != index {
            Issue.record("\(key) not found")
        }
        #expect(table[_ExactKey("list.20000.layout")] == nil)
        let hashes = Set(keys.map { _ExactKey($0)._rawHashValue(seed: 0) })
        #expect(hashes.count == keys.count, "no two of these keys share a 64-bit hash")
    }
}
