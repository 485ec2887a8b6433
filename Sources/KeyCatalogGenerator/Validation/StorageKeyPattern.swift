/// The storage keys a key's template can spell, Unicode scalar by scalar (as stores compare keys:
/// `é` and `e` + U+0301 are two keys): its literal text, and
/// for each placeholder what its parameter's type prints (a `String` any one or more characters,
/// an `Int` digits after an optional `-`, a `UUID` its `uuidString`: 8-4-4-4-12 uppercase hexadecimal digits).
///
/// Two patterns can spell one storage key when ``commonSpelling(with:)`` finds one: for a
/// literal key, whether a template can spell it; for two templates, whether some values of their
/// parameters give both the same storage key.
struct StorageKeyPattern {
    /// The characters one position of a placeholder can hold.
    enum CharacterClass: Equatable {
        case any
        /// `0`-`9`.
        case decimalDigit
        /// What a `UUID`'s `uuidString` holds: `0`-`9` and `A`-`F`.
        case uppercaseHexadecimal

        func contains(_ character: Unicode.Scalar) -> Bool {
            switch self {
            case .any: true
            case .decimalDigit: ("0"..."9").contains(character)
            case .uppercaseHexadecimal: ("0"..."9").contains(character) || ("A"..."F").contains(character)
            }
        }

        /// The characters both classes hold (every pair shares the decimal digits at least).
        func meet(_ other: Self) -> Self {
            if self == other || other == .any { return self }
            if self == .any { return other }
            return .decimalDigit
        }

        /// A character of the class, to spell an example with.
        var example: Unicode.Scalar {
            switch self {
            case .any: "x"
            case .decimalDigit: "1"
            case .uppercaseHexadecimal: "A"
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
        /// The placeholder whose value the character is part of; `nil` for literal text.
        var placeholder: String?
    }

    let atoms: [Atom]

    /// `parameterTypes`: each placeholder's parameter type as the manifest names it (`String`,
    /// `Int`, `UUID`); any other, or none, counts as `String`.
    init(_ template: StorageKeyTemplate, parameterTypes: [String: String]) {
        var atoms: [Atom] = []
        for segment in template.segments {
            switch segment {
            case .literal(let text):
                atoms += text.unicodeScalars.map { Atom(kind: .character($0), placeholder: nil) }
            case .placeholder(let name):
                switch parameterTypes[name] {
                case "Int":
                    atoms += [.optional("-"), .one(.decimalDigit), .repeated(.decimalDigit)].map { Atom(kind: $0, placeholder: name) }
                case "UUID":
                    for (index, count) in [8, 4, 4, 4, 12].enumerated() {
                        if index > 0 { atoms.append(Atom(kind: .character("-"), placeholder: name)) }
                        atoms += repeatElement(Atom(kind: .one(.uppercaseHexadecimal), placeholder: name), count: count)
                    }
                default:
                    atoms += [Atom(kind: .one(.any), placeholder: name), Atom(kind: .repeated(.any), placeholder: name)]
                }
            }
        }
        self.atoms = atoms
    }

    /// A storage key both patterns spell, with the placeholder values that spell it in each
    /// (in order of appearance); `nil` when there is none.
    func commonSpelling(with other: StorageKeyPattern) -> (text: String, values: [(name: String, value: String)], otherValues: [(name: String, value: String)])? {
        var search = CommonSpellingSearch(atoms, other.atoms)
        guard search.reachesEnd(0, 0) else { return nil }
        return search.spelling()
    }
}

/// Whether two sequences of atoms spell one string, by the positions `(i, j)` reached in each:
/// an optional or repeated atom may be passed over, a repeated one may take a character the other
/// side spells, and two single atoms take one character both hold. (Two repeated atoms never need to take a character together: leaving it
/// out of the spelling leaves one both still spell.) Each position pair is decided once.
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
    /// that `(0, 0)` does), and each side's placeholder values in it.
    mutating func spelling() -> (text: String, values: [(name: String, value: String)], otherValues: [(name: String, value: String)]) {
        var text = String.UnicodeScalarView()
        var values: [(name: String, value: String)] = []
        var otherValues: [(name: String, value: String)] = []
        func append(_ character: Unicode.Scalar, of atom: Atom, to values: inout [(name: String, value: String)]) {
            guard let name = atom.placeholder else { return }
            if values.last?.name == name { values[values.count - 1].value.unicodeScalars.append(character) } else { values.append((name, String(character))) }
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
