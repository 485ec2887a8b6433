/// The storage keys a key's template can spell, Unicode scalar by scalar (as stores compare keys:
/// `é` and `e` + U+0301 are two keys): its literal text, and for each placeholder what its
/// parameter's type prints: a `String` one or more of anything, an `Int` `0` or a non-zero digit
/// after an optional `-` and then any digits, a `UUID` its `uuidString` (8-4-4-4-12 uppercase
/// hexadecimal digits).
///
/// Two patterns can spell one storage key when ``commonSpelling(with:)`` finds one: for a
/// literal key, whether a template can spell it; for two templates, whether some values of their
/// parameters give both the same storage key. A placeholder written twice (`{id}.{id}`) takes
/// one value in both places: when the spelling found gives it two, each of them is tried in
/// every place (which finds most such meetings, not all: `{a}{a}` repeats no regular pattern).
struct StorageKeyPattern {
    /// The characters one position of a placeholder can hold; each class holds the ones before it.
    enum CharacterClass: Int, Comparable {
        /// `1`-`9`.
        case nonZeroDigit
        /// `0`-`9`.
        case decimalDigit
        /// What a `UUID`'s `uuidString` holds: `0`-`9` and `A`-`F`.
        case uppercaseHexadecimal
        case any

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        func contains(_ character: Unicode.Scalar) -> Bool {
            switch self {
            case .nonZeroDigit: ("1"..."9").contains(character)
            case .decimalDigit: ("0"..."9").contains(character)
            case .uppercaseHexadecimal: ("0"..."9").contains(character) || ("A"..."F").contains(character)
            case .any: true
            }
        }

        /// The characters both classes hold: the smaller class.
        func meet(_ other: Self) -> Self { min(self, other) }

        /// A character of the class, to spell an example with.
        var example: Unicode.Scalar {
            switch self {
            case .nonZeroDigit, .decimalDigit: "1"
            case .uppercaseHexadecimal: "A"
            case .any: "x"
            }
        }
    }

    /// One character of the spelling, or none or one (`optional`), or any number of them, none
    /// included (`repeated`).
    struct Atom {
        enum Kind {
            case character(Unicode.Scalar)
            case optional(Unicode.Scalar)
            case one(CharacterClass)
            case repeated(CharacterClass)
        }

        var kind: Kind
        /// Which placeholder (by its place among ``StorageKeyPattern/placeholders``) the character is
        /// part of the value of; `nil` for literal text.
        var placeholder: Int?
    }

    /// The template's placeholders' names, in order, a name written twice twice.
    let placeholders: [String]
    /// What the template spells: one sequence of atoms, or several (an `Int` is `0` or a number
    /// without a leading zero, which no single sequence says).
    let alternatives: [[Atom]]

    /// How many alternatives a pattern has at most: past it, an `Int` may also start with `0`
    /// (as if `007` could be printed), which can only warn too often.
    private static let maximumAlternatives = 16

    private let template: StorageKeyTemplate
    private let parameterTypes: [String: String]
    private let fixed: [String: String]

    /// `parameterTypes`: each placeholder's parameter type as the manifest names it (`String`,
    /// `Int`, `UUID`); any other, or none, counts as `String`. `fixed`: placeholders spelled as
    /// the value given.
    init(_ template: StorageKeyTemplate, parameterTypes: [String: String], fixed: [String: String] = [:]) {
        self.template = template
        self.parameterTypes = parameterTypes
        self.fixed = fixed
        var placeholders: [String] = []
        var alternatives: [[Atom]] = [[]]
        func append(_ kinds: [Atom.Kind], placeholder: Int?) {
            let atoms = kinds.map { Atom(kind: $0, placeholder: placeholder) }
            for index in alternatives.indices { alternatives[index] += atoms }
        }
        for segment in template.segments {
            switch segment {
            case .literal(let text):
                append(text.unicodeScalars.map { .character($0) }, placeholder: nil)
            case .placeholder(let name):
                let occurrence = placeholders.count
                placeholders.append(name)
                if let value = fixed[name] {
                    append(value.unicodeScalars.map { .character($0) }, placeholder: occurrence)
                    continue
                }
                switch parameterTypes[name] {
                case "Int" where alternatives.count * 2 <= Self.maximumAlternatives:
                    let zero = alternatives.map { $0 + [Atom(kind: .character("0"), placeholder: occurrence)] }
                    append([.optional("-"), .one(.nonZeroDigit), .repeated(.decimalDigit)], placeholder: occurrence)
                    alternatives += zero
                case "Int":
                    append([.optional("-"), .one(.decimalDigit), .repeated(.decimalDigit)], placeholder: occurrence)
                case "UUID":
                    var kinds: [Atom.Kind] = []
                    for (index, count) in [8, 4, 4, 4, 12].enumerated() {
                        if index > 0 { kinds.append(.character("-")) }
                        kinds += repeatElement(.one(.uppercaseHexadecimal), count: count)
                    }
                    append(kinds, placeholder: occurrence)
                default:
                    append([.one(.any), .repeated(.any)], placeholder: occurrence)
                }
            }
        }
        self.placeholders = placeholders
        self.alternatives = alternatives
    }

    /// A storage key both patterns spell, with the placeholder values that spell it in each (by
    /// name, in order of appearance); `nil` when there is none.
    func commonSpelling(with other: StorageKeyPattern) -> (text: String, values: [(name: String, value: String)], otherValues: [(name: String, value: String)])? {
        for mine in alternatives {
            for theirs in other.alternatives {
                var search = CommonSpellingSearch(mine, theirs)
                guard search.reachesEnd(0, 0) else { continue }
                let spelling = search.spelling()
                // The search gives each place of a placeholder its own value: a name written
                // twice must have been given one. If not, each value it was given is tried in
                // every place of the name (one name more fixed each time, so this ends).
                switch (Self.values(spelling.values, of: placeholders), Self.values(spelling.otherValues, of: other.placeholders)) {
                case (.success(let values), .success(let otherValues)):
                    return (spelling.text, values, otherValues)
                case (.failure(let conflict), _):
                    for value in conflict.values {
                        if let found = fixing(conflict.name, to: value).commonSpelling(with: other) { return found }
                    }
                case (_, .failure(let conflict)):
                    for value in conflict.values {
                        if let found = commonSpelling(with: other.fixing(conflict.name, to: value)) { return found }
                    }
                }
            }
        }
        return nil
    }

    /// This pattern with `name` spelled as `value` in every place.
    private func fixing(_ name: String, to value: String) -> StorageKeyPattern {
        StorageKeyPattern(template, parameterTypes: parameterTypes, fixed: fixed.merging([name: value]) { $1 })
    }

    /// A name written twice, and the values its places were given.
    private struct Conflict: Error {
        var name: String
        var values: [String]
    }

    /// The value of each name, from the values of each place; the first name given two fails.
    private static func values(_ byPlace: [Int: String], of names: [String]) -> Result<[(name: String, value: String)], Conflict> {
        var values: [(name: String, value: String)] = []
        for (place, name) in names.enumerated() {
            let value = byPlace[place] ?? ""
            if let index = values.firstIndex(where: { $0.name == name }) {
                guard values[index].value == value else {
                    let given = names.indices.filter { names[$0] == name }.map { byPlace[$0] ?? "" }
                    return .failure(Conflict(name: name, values: Array(Set(given)).sorted()))
                }
            } else {
                values.append((name, value))
            }
        }
        return .success(values)
    }
}

/// Whether two sequences of atoms spell one string, by the positions `(i, j)` reached in each:
/// an optional or repeated atom may be passed over, a repeated one may take a character the other
/// side spells, and two single atoms take one character both hold. (Two repeated atoms never need
/// to take a character together: leaving it out of the spelling leaves one both still spell.)
/// Each position pair is decided once.
private struct CommonSpellingSearch {
    typealias Atom = StorageKeyPattern.Atom
    let a: [Atom]
    let b: [Atom]
    /// By `i * (b.count + 1) + j`: 0 not decided, 1 reaches the end, 2 does not.
    private var decided: [UInt8]

    init(_ a: [Atom], _ b: [Atom]) {
        self.a = a
        self.b = b
        decided = Array(repeating: 0, count: (a.count + 1) * (b.count + 1))
    }

    /// A step from `(i, j)`: the next position and the character spelled (`nil`: none).
    private struct Step {
        var i: Int
        var j: Int
        var character: Unicode.Scalar?
    }

    /// The steps possible from `(i, j)`, in order of preference.
    private func steps(_ i: Int, _ j: Int) -> [Step] {
        var steps: [Step] = []
        let left = i < a.count ? a[i].kind : nil
        let right = j < b.count ? b[j].kind : nil
        if left.map(Self.canBeEmpty) == true { steps.append(Step(i: i + 1, j: j)) }
        if right.map(Self.canBeEmpty) == true { steps.append(Step(i: i, j: j + 1)) }
        if case .repeated(let kind)? = left, let right, let character = Self.shared(.one(kind), right) {
            steps.append(Step(i: i, j: j + 1, character: character))
        }
        if case .repeated(let kind)? = right, let left, let character = Self.shared(left, .one(kind)) {
            steps.append(Step(i: i + 1, j: j, character: character))
        }
        if let left, let right, let character = Self.shared(left, right) {
            steps.append(Step(i: i + 1, j: j + 1, character: character))
        }
        return steps
    }

    private static func canBeEmpty(_ kind: Atom.Kind) -> Bool {
        switch kind {
        case .optional, .repeated: true
        case .character, .one: false
        }
    }

    /// A character both single atoms hold; `nil` if none, or if either is repeated.
    private static func shared(_ left: Atom.Kind, _ right: Atom.Kind) -> Unicode.Scalar? {
        switch (left, right) {
        case (.character(let x), .character(let y)), (.optional(let x), .character(let y)), (.character(let x), .optional(let y)),
            (.optional(let x), .optional(let y)):
            x == y ? x : nil
        case (.character(let x), .one(let kind)), (.one(let kind), .character(let x)), (.optional(let x), .one(let kind)),
            (.one(let kind), .optional(let x)):
            kind.contains(x) ? x : nil
        case (.one(let x), .one(let y)): x.meet(y).example
        default: nil
        }
    }

    mutating func reachesEnd(_ i: Int, _ j: Int) -> Bool {
        if i == a.count, j == b.count { return true }
        let slot = i * (b.count + 1) + j
        if decided[slot] != 0 { return decided[slot] == 1 }
        var reaches = false
        for step in steps(i, j) where reachesEnd(step.i, step.j) {
            reaches = true
            break
        }
        decided[slot] = reaches ? 1 : 2
        return reaches
    }

    /// The spelling along the first steps that reach the end (after ``reachesEnd(_:_:)`` said
    /// that `(0, 0)` does), and each side's placeholder values in it, by place.
    mutating func spelling() -> (text: String, values: [Int: String], otherValues: [Int: String]) {
        var text = String.UnicodeScalarView()
        var values: [Int: String] = [:]
        var otherValues: [Int: String] = [:]
        func append(_ character: Unicode.Scalar, of atom: Atom, to values: inout [Int: String]) {
            guard let place = atom.placeholder else { return }
            values[place, default: ""].unicodeScalars.append(character)
        }
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            guard let step = steps(i, j).first(where: { reachesEnd($0.i, $0.j) }) else { break }
            if let character = step.character {
                text.append(character)
                // Spelled by `a[i]` and `b[j]` (a repeated one of them stays where it is).
                append(character, of: a[i], to: &values)
                append(character, of: b[j], to: &otherValues)
            }
            (i, j) = (step.i, step.j)
        }
        return (String(text), values, otherValues)
    }
}
