/// Suggestions for misspelled names, by edit distance.
///
/// ```swift
/// NearMiss.suggestion(for: "defualt", among: ["default", "doc"]) // "default"
/// NearMiss.suggestion(for: "Integer", among: ["Int", "Int8"])    // "Int"
/// ```
enum NearMiss {
    /// The closest candidate, if it is close enough to be a likely typo: a case-insensitive
    /// match, a prefix of the input or the other way round, or at most a third of the letters
    /// changed. Ties go to the earlier candidate.
    static func suggestion(for input: String, among candidates: some Sequence<String>) -> String? {
        let lowered = input.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != input {
            let other = candidate.lowercased()
            if other == lowered { return candidate }
            var distance = editDistance(Array(lowered.unicodeScalars), Array(other.unicodeScalars))
            if other.count >= 3, lowered.count >= 3, lowered.hasPrefix(other) || other.hasPrefix(lowered) {
                distance = min(distance, 1)
            }
            let limit = max(1, min(lowered.count, other.count) / 3)
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// `; did you mean 'x'?` or the empty string.
    static func didYouMean(_ input: String, among candidates: some Sequence<String>) -> String {
        suggestion(for: input, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit; inputs are capped
    /// at 64 scalars so a huge string cannot make it slow.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        let a = a.prefix(64)
        let b = b.prefix(64)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let a0 = Array(a)
        let b0 = Array(b)
        var previousPrevious = [Int](repeating: 0, count: b0.count + 1)
        var previous = Array(0...b0.count)
        var current = [Int](repeating: 0, count: b0.count + 1)
        for i in 1...a0.count {
            current[0] = i
            for j in 1...b0.count {
                let cost = a0[i - 1] == b0[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a0[i - 1] == b0[j - 2], a0[i - 2] == b0[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b0.count]
    }
}
