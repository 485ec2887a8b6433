import Testing

@testable import KeyCatalogGenerator

@Suite("Fuzzing")
struct FuzzTests {
    /// SplitMix64: a tiny seeded generator, so a failure replays exactly.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Bytes that matter to the parser and the linter, so mutations hit interesting paths.
    static let interesting: [UInt8] = Array("{}[]\",:\\ \n\t0-.eE\u{7F}tfnu".utf8) + [0x00, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]

    /// One random edit: flip a bit, delete a run, insert bytes, truncate, or duplicate a run.
    static func mutate(_ bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            guard !bytes.isEmpty else { return bytes }
            let index = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: bytes[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            case 1: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...8, using: &random)))
            case 2: bytes.insert(interesting.randomElement(using: &random)!, at: index)
            case 3: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
            case 4: bytes = Array(bytes[..<index])
            default:
                let end = min(bytes.count, index + Int.random(in: 1...40, using: &random))
                bytes.insert(contentsOf: bytes[index..<end], at: index)
            }
        }
        return bytes
    }

    // The time limits here and in the runtime's process tests are hang guards, generous enough for
    // a loaded 2-core machine (the whole suite runs in parallel); speed is measured in benchmarks.
    @Test("thousands of mutated manifests: no crash, no hang, every failure positioned", .timeLimit(.minutes(10)))
    func mutations() {
        let seeds = [Manifests.everyFeature, Manifests.small, Manifests.generated(keys: 30)].map { Array($0.utf8) }
        var random = SeededGenerator(state: 20_260_101)
        var failures = 0
        for iteration in 0..<4000 {
            let original = seeds[iteration % seeds.count]
            let bytes = Self.mutate(original, using: &random)
            let (catalog, diagnostics) = ManifestLoader.load(contents: bytes, path: "fuzz.json")
            // Lines end at LF, CRLF or a lone CR, as the parser counts them.
            let lines = bytes.indices.count { bytes[$0] == UInt8(ascii: "\n") || bytes[$0] == UInt8(ascii: "\r") && ($0 + 1 == bytes.count || bytes[$0 + 1] != UInt8(ascii: "\n")) } + 1
            if catalog == nil {
                failures += 1
                #expect(diagnostics.containsErrors, "iteration \(iteration): no catalog and no error")
            }
            for diagnostic in diagnostics {
                let location = diagnostic.location
                guard location.file == "fuzz.json", location.line >= 1, location.line <= lines, location.column >= 1,
                    !diagnostic.message.isEmpty
                else {
                    Issue.record("iteration \(iteration): badly positioned diagnostic \(diagnostic)")
                    return
                }
            }
        }
        // Most mutations break something; a fuzzer that never fails tests nothing.
        #expect(failures > 2000)
    }

    @Test(
        "pathological inputs end without a hang or a stack overflow", .timeLimit(.minutes(10)),
        arguments: [
            String(repeating: "[", count: 100_000),
            String(repeating: "{\"a\":", count: 50_000),
            "\"" + String(repeating: "\\u", count: 50_000),
            String(repeating: "9", count: 200_000),
            "{\"version\": 1, \"keys\": [" + String(repeating: "{},", count: 20_000) + "{}]}",
        ])
    func pathological(text: String) {
        let (catalog, diagnostics) = ManifestLoader.load(contents: Array(text.utf8), path: "p.json")
        #expect(catalog == nil)
        #expect(diagnostics.allSatisfy { $0.location.line >= 1 && $0.location.column >= 1 })
    }
}
