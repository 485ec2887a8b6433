#if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
import CoreFoundation
import Foundation

/// A UserDefaults suite as CoreFoundation's preferences hold it on Linux, read and written
/// without `UserDefaults` in between, by names CoreFoundation made itself.
///
/// swift-corelibs-foundation's `UserDefaults.set(_:forKey:)` checks the value by dynamic casts
/// (`_isValueAllowed`, and whether it is a URL), bridges it, and calls `CFPreferencesSetAppValue`
/// with the key and the suite's name as Swift strings. CoreFoundation then formats a cache key
/// from the suite's name on every call, and a Swift string is read through the bridge one UTF-16
/// unit at a time: about half of the call. With the names as CoreFoundation's own strings, and
/// the value given as the Foundation object it would have become, a `set` of an `Int` costs
/// 15,620 instructions instead of 52,485, and a `CFPreferencesCopyAppValue` 4,178 instead of
/// 5,638 (callgrind, in a program that only writes or reads a suite). What is stored, read back
/// and written to the file is the same.
///
/// Only for suites whose name KeyCatalog knows (opened through ``UserDefaultsPersistence/suite(named:)``,
/// and `standard`): a `UserDefaults` made elsewhere is written through `set(_:forKey:)`.
struct PreferencesDomain: @unchecked Sendable {  // Immutable CoreFoundation strings.
    /// The application name CoreFoundation knows the suite by.
    let application: CFString

    /// The domain of the suite named `name`, or of `standard` (`nil`).
    init(suiteName name: String?) {
        application = name.map(Self.name) ?? kCFPreferencesCurrentApplication
    }

    /// `string` as a CoreFoundation string, which CoreFoundation reads without the bridge.
    ///
    /// A string that starts with U+FEFF is bridged as Foundation bridges it: from UTF-8,
    /// CoreFoundation takes a leading U+FEFF for a byte order mark and drops it, which would name
    /// another key, or another suite.
    static func name(_ string: String) -> CFString {
        guard string.unicodeScalars.first != "\u{FEFF}" else {
            // On Linux, Foundation's `NSString` is the CoreFoundation string type (toll-free bridged).
            return unsafeBitCast(NSString(string: string), to: CFString.self)
        }
        var string = string
        return string.withUTF8 { bytes in
            CFStringCreateWithBytes(kCFAllocatorDefault, bytes.baseAddress, bytes.count, CFStringBuiltInEncodings.UTF8.rawValue, false)
        }
    }

    /// Makes CoreFoundation's record of the suite now (it reads the suite's file), unless it has
    /// one: CoreFoundation keeps the record under the first name it is given, and finds it later
    /// by comparing names. Made under this domain's name, a string of CoreFoundation's own, every
    /// later call finds it faster, KeyCatalog's and Foundation's alike; made by Foundation, under
    /// a Swift string, every call through this domain compares its name with that string through
    /// the bridge. In a program that writes a suite (callgrind, per call): this domain's `set`
    /// 17,281 instructions against 32,040, its read 2,232 against 4,163, and Foundation's own
    /// `set(_:forKey:)` 39,595 against 51,847; but Foundation's `object(forKey:)`, which compares
    /// its Swift string with this name, 13,876 against 13,231.
    func open() {
        _ = CFPreferencesCopyAppValue(Self.name(""), application)
    }

    /// Makes CoreFoundation hold the suite's own values (the current user's, any host's, where
    /// ``set(_:forKey:)`` writes), reading its file if it dropped them: a `synchronize()` that finds
    /// the suite unchanged drops them, and the suite's merged view, which ``object(forName:)``
    /// reads, may still be current then (a read made it before that `synchronize()`), so a read
    /// does not read them again; the next write would.
    func load() {
        _ = CFPreferencesCopyValue(Self.name(""), application, kCFPreferencesCurrentUser, kCFPreferencesAnyHost)
    }

    /// The object the suite holds for the key named `name` (no registered default, no argument),
    /// else the global domain's (`.GlobalPreferences.plist` in the configuration folder): what
    /// `object(forKey:)` finds before the registered defaults.
    func object(forName name: CFString) -> AnyObject? {
        CFPreferencesCopyAppValue(name, application)
    }

    /// Whether the suite itself stores a value for the key named `name`: in its own domains (the
    /// current user's, any host's, where ``set(_:forKey:)`` writes, or this host's, which reads
    /// find first), not only in the global domain that ``object(forName:)`` also searches. Those
    /// domains are asked only when the search finds an object, so a key stored nowhere costs no
    /// more than ``object(forName:)``.
    func storesObject(forName name: CFString) -> Bool {
        // Any host's domain first, unlike ``ownObject(forName:)``: where KeyCatalog writes, so a
        // stored key costs one request (asking this host's first cost `contains` 12,700 more
        // instructions, 30,308 against 17,626).
        object(forName: name) != nil
            && (CFPreferencesCopyValue(name, application, kCFPreferencesCurrentUser, kCFPreferencesAnyHost) != nil
                || CFPreferencesCopyValue(name, application, kCFPreferencesCurrentUser, kCFPreferencesCurrentHost) != nil)
    }

    /// The object the suite itself stores for the key named `name`: in this host's domain, which
    /// reads find first, else in any host's, where ``set(_:forKey:)`` writes. Read without the
    /// suite's merged view, which ``object(forName:)`` reads: every write discards that view, and
    /// the next read through it copies every value of the suite again.
    func ownObject(forName name: CFString) -> AnyObject? {
        CFPreferencesCopyValue(name, application, kCFPreferencesCurrentUser, kCFPreferencesCurrentHost)
            ?? CFPreferencesCopyValue(name, application, kCFPreferencesCurrentUser, kCFPreferencesAnyHost)
    }

    /// Stores `object` (a ``PropertyListValue/preferencesObject``) for `key`, or with `nil`
    /// removes what is stored: what `UserDefaults.set(_:forKey:)` and `removeObject(forKey:)` do.
    func set(_ object: AnyObject?, forKey key: String) {
        CFPreferencesSetAppValue(Self.name(key), object, application)
    }
}

extension UserDefaults {
    /// The data this suite itself stores for `key`, read from its own domains
    /// (``PreferencesDomain/ownObject(forName:)``); `nil` whenever that might not be what
    /// `persistentValue(forKey:)` reads, which the caller then reads: a suite KeyCatalog did not
    /// open by name, a write KeyCatalog keeps for the key, a launch argument for it, no value in
    /// the suite's own domains, or a value that is not data.
    func ownStoredData(forKey key: String) -> PropertyListValue? {
        guard let domain = UserDefaultsPersistence.preferencesDomain(of: self),
            UserDefaultsPersistence.deferredValue(forKey: key, in: self) == nil,
            !isOverriddenByLaunchArgument(key),
            let object = domain.ownObject(forName: PreferencesDomain.name(key))
        else { return nil }
        return _UserDefaultsReadCache.bytes(of: object)
    }
}

extension PropertyListValue {
    /// The object KeyCatalog hands CoreFoundation on Linux for this value: numbers, Bools, data
    /// and dates as `UserDefaults.set(_:forKey:)` bridges them (`NSNumber`, a boolean `NSNumber`,
    /// `NSData`, `NSDate`); strings, arrays and dictionaries, at any depth, as CoreFoundation's own
    /// (`CFString`, `CFArray`, `CFDictionary`), as a suite's file is read back.
    ///
    /// CoreFoundation keeps the object it holds when the new one is equal to it (`CFEqual`), and
    /// Foundation's `NSString`, `NSArray` and `NSDictionary` compare by Swift's `==`, for which a
    /// composed and a decomposed accent are one string: `café` written over `café` kept the old
    /// bytes, also in the file (and `[Double(UInt64.max)]` written over `[UInt64.max]` the old
    /// integer). CoreFoundation's own compare by their characters, as on Apple platforms.
    var preferencesObject: AnyObject {
        switch self {
        case .bool(let value): NSNumber(value: value)
        case .int(let value): NSNumber(value: value)
        case .uint(let value): NSNumber(value: value)
        case .double(let value): NSNumber(value: value)
        case .string(let value): PreferencesDomain.name(value)
        case .data(let value): NSData(data: value)
        case .date(let value): NSDate(timeIntervalSinceReferenceDate: value.timeIntervalSinceReferenceDate)
        case .array(let elements): Self.array(elements.map(\.preferencesObject))
        case .dictionary(let members): Self.dictionary(members)
        }
    }

    /// A CoreFoundation array of `objects`: one of Foundation's (`NSArray`) compares its elements
    /// by Swift's `==`, whatever they are.
    private static func array(_ objects: [AnyObject]) -> AnyObject {
        objects.withUnsafeBufferPointer { objects in
            // An object reference is a pointer to the object: the buffer read as CoreFoundation's
            // values, which the array retains.
            objects.withMemoryRebound(to: UnsafeRawPointer?.self) { values in
                withUnsafePointer(to: kCFTypeArrayCallBacks) { callBacks in
                    CFArrayCreate(kCFAllocatorDefault, UnsafeMutablePointer(mutating: values.baseAddress), values.count, callBacks)
                }
            }
        }
    }

    /// A CoreFoundation dictionary of `members`, keys included (see ``array(_:)``).
    private static func dictionary(_ members: [String: PropertyListValue]) -> AnyObject {
        var keys: [AnyObject] = []
        var values: [AnyObject] = []
        keys.reserveCapacity(members.count)
        values.reserveCapacity(members.count)
        for (key, member) in members {
            keys.append(PreferencesDomain.name(key))
            values.append(member.preferencesObject)
        }
        return keys.withUnsafeBufferPointer { keys in
            values.withUnsafeBufferPointer { values in
                keys.withMemoryRebound(to: UnsafeRawPointer?.self) { keys in
                    values.withMemoryRebound(to: UnsafeRawPointer?.self) { values in
                        withUnsafePointer(to: kCFTypeDictionaryKeyCallBacks) { keyCallBacks in
                            withUnsafePointer(to: kCFTypeDictionaryValueCallBacks) { valueCallBacks in
                                CFDictionaryCreate(
                                    kCFAllocatorDefault, UnsafeMutablePointer(mutating: keys.baseAddress),
                                    UnsafeMutablePointer(mutating: values.baseAddress), keys.count, keyCallBacks, valueCallBacks)
                            }
                        }
                    }
                }
            }
        }
    }
}
#endif
