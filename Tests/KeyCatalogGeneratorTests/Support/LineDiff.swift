/// A readable line diff for golden-file mismatches: `-` expected, `+` actual, with a little
/// context around each change and the line numbers of the expected file.
///
/// ```swift
/// print(LineDiff.render(expected: "a\nb\n", actual: "a\nc\n"))
/// // @@ line 2 @@
/// //   a
/// // - b
/// // + c
/// ```
enum LineDiff {
    private enum Edit: Equatable {
        case same(String), removed(String), added(String)

        var isChange: Bool {
            if case .same = self { false } else { true }
        }
    }

    /// The differences between two texts, or an empty string when they are equal.
    static func render(expected: String, actual: String, context: Int = 2) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let edits = diff(old, new)
        guard edits.contains(where: \.isChange) else { return "" }

        // Mark the edits worth showing: every change and `context` lines around it.
        var shown = [Bool](repeating: false, count: edits.count)
        for (index, edit) in edits.enumerated() where edit.isChange {
            for neighbor in max(0, index - context)...min(edits.count - 1, index + context) {
                shown[neighbor] = true
            }
        }
        var output: [String] = []
        var oldLine = 1
        var previousShown = false
        for (index, edit) in edits.enumerated() {
            if shown[index] {
                if !previousShown { output.append("@@ line \(oldLine) @@") }
                switch edit {
                case .same(let text): output.append("  " + text)
                case .removed(let text): output.append("- " + text)
                case .added(let text): output.append("+ " + text)
                }
            }
            previousShown = shown[index]
            if case .added = edit {} else { oldLine += 1 }
        }
        return output.joined(separator: "\n")
    }

    /// A shortest edit script by longest common subsequence; goldens are small enough.
    private static func diff(_ old: [String], _ new: [String]) -> [Edit] {
        let rows = old.count + 1, columns = new.count + 1
        var lengths = [Int](repeating: 0, count: rows * columns)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i * columns + j] =
                    old[i] == new[j]
                    ? lengths[(i + 1) * columns + j + 1] + 1
                    : max(lengths[(i + 1) * columns + j], lengths[i * columns + j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                edits.append(.same(old[i])); i += 1; j += 1
            } else if i < old.count, j == new.count || lengths[(i + 1) * columns + j] >= lengths[i * columns + j + 1] {
                edits.append(.removed(old[i])); i += 1
            } else {
                edits.append(.added(new[j])); j += 1
            }
        }
        return edits
    }
}
