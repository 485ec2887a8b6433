import Foundation

/// The home folder, as every KeyCatalog path that starts at home uses it: `$HOME` when it is set
/// to an absolute path, else the account's home folder.
///
/// On Linux, `NSHomeDirectory()` reads the account database and ignores `$HOME`, while
/// Foundation's other user paths (`FileManager`'s Application Support folder, UserDefaults'
/// `~/.config`) follow `$HOME`. One definition keeps a `~/` file store, the keychain's Linux
/// fallback and those folders in the same place, also when a program or a test sets `HOME`.
func _homeDirectory() -> URL {
    if let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") {
        return URL(fileURLWithPath: home, isDirectory: true)
    }
    return URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
}

/// The folder swift-corelibs-foundation keeps UserDefaults' domains in: `$XDG_CONFIG_HOME` when
/// it is set to an absolute path, else `~/.config` (CoreFoundation ignores an empty or relative
/// one, as the XDG Base Directory specification asks, and writes to `~/.config`).
func _configurationDirectory() -> URL {
    if let configuration = getenv("XDG_CONFIG_HOME").map({ String(cString: $0) }), configuration.hasPrefix("/") {
        return URL(fileURLWithPath: configuration, isDirectory: true)
    }
    return _homeDirectory().appendingPathComponent(".config", isDirectory: true)
}
