/// A storage key in a UserDefaults store with a character UserDefaults on Linux cannot store: a
/// control character other than tab and line breaks, or a leading U+FEFF. There a suite is an XML
/// property list, which cannot hold them exactly, so the runtime refuses every write of the key
/// (and reports it). A warning: on Apple platforms a suite holds them.
///
/// ```json
/// { "name": "mode", "key": "mode\u0001", "type": "Int", "default": 0 }
/// // warning: storage key 'mode\u{1}' of key 'mode' contains the control character U+0001, which UserDefaults on Linux cannot store (a suite there is an XML property list), so every write of the key would be refused there; remove it
/// ```
struct StorageKeyCharacterRule: LintRule {
    let id = "storage-key-character"
    let summary = "A UserDefaults storage key holds a character UserDefaults on Linux cannot store."

    func check(_ context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for key in context.keys {
            // Printable ASCII keys, nearly all of them, are passed over by their bytes.
            guard let template = key.validStorageKey, template.text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x80 }),
                context.storeKinds[key.store] == "userDefaults"
            else { continue }
            let problem: String
            if template.text.unicodeScalars.first == "\u{FEFF}" {
                problem = "starts with U+FEFF, which UserDefaults on Linux reads back without it"
            } else if let scalar = template.text.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" }) {
                // What the runtime refuses (`PropertyListFileDecoding.xmlProblem`): not U+FFFE or
                // U+FFFF, which a default may not hold but a key may (it reads back).
                problem = "contains the control character \(scalar.codePoint), which UserDefaults on Linux cannot store"
            } else {
                continue
            }
            let shown = template.text.unicodeScalars.map { Self.isInvisible($0) ? "\\u{\(String($0.value, radix: 16, uppercase: true))}" : String($0) }.joined()
            findings.append(
                warning(
                    "storage key '\(shown.truncatedForMessage)' of \(key.label) \(problem) (a suite there is an XML property list), so every write of the key would be refused there; remove it",
                    at: key.storageKeyLocation))
        }
        return findings
    }

    /// A scalar a message shows by its code: controls, U+FEFF, noncharacters.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0, 0xFEFF, 0xFFFE, 0xFFFF: true
        default: false
        }
    }
}
