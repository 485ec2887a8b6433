import Foundation
import KeyCatalog

/// `KeyCatalogTestHelper keychain-fallback <service>`: where no keychain exists (Linux), two
/// `keychain(service:)` stores of one service, whatever their accessibility, share one file in
/// `~/.local/share/keycatalog/keychain` and one change center. Run with `HOME` set to a folder
/// of the test's own: the file is written there, never in the real home folder.
///
/// Prints `shared <Bool>` (one change center), `heard <value>` (what an observer of the second
/// store heard when the first wrote), `read <value>` (the second store's read), then the file's
/// path and its journal's permissions in octal (`mode 600`).
enum KeychainFallback {
    static func run(service: String) {
        #if canImport(Security)
        TestHelper.fail("keychain-fallback is for platforms without a keychain")
        #else
        let token = PersistentKey<String?>("token", defaultValue: nil)
        let first = AnyPersistentKeyValueStore.keychain(service: service)
        let second = AnyPersistentKeyValueStore.keychain(service: service, accessibility: .whenUnlockedThisDeviceOnly)
        guard let file = first.base as? FileKeyValueStore else { TestHelper.fail("no file store: \(first.base)") }
        print("shared", first.keyValueChanges === second.keyValueChanges)
        let heard = Heard()
        let observation = second.observe(token) { heard.append($0 ?? "nil") }
        first.set(token, to: "t")
        observation.cancel()
        print("heard", heard.values.joined(separator: ","))
        print("read", second.get(token) ?? "nil")
        print(file.url.path)
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.url.path + ".journal")
        print("mode", String((attributes?[.posixPermissions] as? Int) ?? 0, radix: 8))
        #endif
    }

    /// What an observer heard, from whichever thread told it.
    private final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var heard: [String] = []

        var values: [String] { lock.withLock { heard } }

        func append(_ value: String) { lock.withLock { heard.append(value) } }
    }
}
