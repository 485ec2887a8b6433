// Stand-in for the parts of Apple's Foundation that swift-corelibs-foundation (Linux) lacks.
// Imported implicitly into every checked file (`-Xfrontend -import-module -Xfrontend
// AppleFoundationStandIns`), as Foundation would provide them on Darwin. Declarations copy the
// Swift signatures in Apple's documentation; bodies are never run (the check only type-checks).
//
// Not redeclared because corelibs Foundation already has them: UserDefaults.didChangeNotification,
// NotificationCenter.addObserver(forName:object:queue:using:), NSDictionary, NSString.
import Foundation

// MARK: - CoreFoundation types (Foundation re-exports CoreFoundation on Darwin; so does Security)
// On Darwin CFDictionary and CFString are CF classes that Swift bridges toll-free with `as`:
// `[String: Any] as CFDictionary` compiles, passing a Swift dictionary where a CFDictionary is
// expected does not. Aliasing them to NSDictionary/NSString keeps exactly that on Linux, where
// `as NSDictionary` / `as String` bridging compiles. (Not faithful: NSString's methods are
// reachable on a CFString here; on Darwin they need `as String` first.)

/// https://developer.apple.com/documentation/corefoundation/cfdictionary
public typealias CFDictionary = NSDictionary
/// https://developer.apple.com/documentation/corefoundation/cfstring
public typealias CFString = NSString
/// https://developer.apple.com/documentation/corefoundation/cftyperef: `typealias CFTypeRef = AnyObject`
public typealias CFTypeRef = AnyObject
/// https://developer.apple.com/documentation/corefoundation/cfpropertylist: `typealias CFPropertyList = CFTypeRef`
public typealias CFPropertyList = CFTypeRef

// MARK: - Preferences Utilities (CoreFoundation/CFPreferences.h)
// https://developer.apple.com/documentation/corefoundation/preferences-utilities. The header is
// CF_ASSUME_NONNULL, so the names import as non-optional `CFString` constants and the copied
// value as `CFPropertyList?`. Imported C constants, `nonisolated(unsafe)` as the `kSec…` ones in
// the Security stand-in.

/// https://developer.apple.com/documentation/corefoundation/kcfpreferencescurrentuser
nonisolated(unsafe) public let kCFPreferencesCurrentUser: CFString = "kCFPreferencesCurrentUser"
/// https://developer.apple.com/documentation/corefoundation/kcfpreferencesanyhost
nonisolated(unsafe) public let kCFPreferencesAnyHost: CFString = "kCFPreferencesAnyHost"

/// https://developer.apple.com/documentation/corefoundation/cfpreferencescopyvalue(_:_:_:_:)
@available(macOS 10.0, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
public func CFPreferencesCopyValue(_ key: CFString, _ applicationID: CFString, _ userName: CFString, _ hostName: CFString) -> CFPropertyList? {
    fatalError("stand-in")
}

// MARK: - NSUbiquitousKeyValueStore
// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore
// SDK header: Foundation/NSUbiquitousKeyValueStore.h (API_AVAILABLE(macos(10.7), ios(5.0),
// watchos(9.0), tvos(9.0))). The class is not Sendable in Apple's SDK.

@available(macOS 10.7, iOS 5.0, tvOS 9.0, watchOS 9.0, *)
open class NSUbiquitousKeyValueStore: NSObject {
    /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore/default
    open class var `default`: NSUbiquitousKeyValueStore { fatalError("stand-in") }

    open func object(forKey aKey: String) -> Any? { fatalError("stand-in") }
    open func set(_ anObject: Any?, forKey aKey: String) { fatalError("stand-in") }
    open func removeObject(forKey aKey: String) { fatalError("stand-in") }

    open func string(forKey aKey: String) -> String? { fatalError("stand-in") }
    open func array(forKey aKey: String) -> [Any]? { fatalError("stand-in") }
    open func dictionary(forKey aKey: String) -> [String: Any]? { fatalError("stand-in") }
    open func data(forKey aKey: String) -> Data? { fatalError("stand-in") }
    open func longLong(forKey aKey: String) -> Int64 { fatalError("stand-in") }
    open func double(forKey aKey: String) -> Double { fatalError("stand-in") }
    open func bool(forKey aKey: String) -> Bool { fatalError("stand-in") }

    open func set(_ aString: String?, forKey aKey: String) { fatalError("stand-in") }
    open func set(_ aData: Data?, forKey aKey: String) { fatalError("stand-in") }
    open func set(_ anArray: [Any]?, forKey aKey: String) { fatalError("stand-in") }
    open func set(_ aDictionary: [String: Any]?, forKey aKey: String) { fatalError("stand-in") }
    open func set(_ value: Int64, forKey aKey: String) { fatalError("stand-in") }
    open func set(_ value: Double, forKey aKey: String) { fatalError("stand-in") }
    open func set(_ value: Bool, forKey aKey: String) { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore/dictionaryrepresentation
    open var dictionaryRepresentation: [String: Any] { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore/synchronize()
    /// `func synchronize() -> Bool`. Methods imported from Objective-C are implicitly
    /// @discardableResult, so calling it as a statement compiles on Darwin; so it does here.
    @discardableResult open func synchronize() -> Bool { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore/didchangeexternallynotification
    /// (`class let` in the SDK; `static let` here: Swift classes cannot have class stored properties.)
    public static let didChangeExternallyNotification = NSNotification.Name("NSUbiquitousKeyValueStoreDidChangeExternallyNotification")
}

// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestorechangereasonkey
// `let NSUbiquitousKeyValueStoreChangeReasonKey: String` (String is Sendable, so a plain `let`).
@available(macOS 10.7, iOS 5.0, tvOS 9.0, watchOS 9.0, *)
public let NSUbiquitousKeyValueStoreChangeReasonKey: String = "NSUbiquitousKeyValueStoreChangeReasonKey"
// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestorechangedkeyskey
@available(macOS 10.7, iOS 5.0, tvOS 9.0, watchOS 9.0, *)
public let NSUbiquitousKeyValueStoreChangedKeysKey: String = "NSUbiquitousKeyValueStoreChangedKeysKey"

// The change reasons: `var NSUbiquitousKeyValueStoreServerChange: Int { get }` and so on
// (https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestoreserverchange).
@available(macOS 10.7, iOS 5.0, tvOS 9.0, watchOS 9.0, *)
public var NSUbiquitousKeyValueStoreServerChange: Int { 0 }
@available(macOS 10.7, iOS 5.0, tvOS 9.0, watchOS 9.0, *)
public var NSUbiquitousKeyValueStoreInitialSyncChange: Int { 1 }
@available(macOS 10.7, iOS 5.0, tvOS 9.0, watchOS 9.0, *)
public var NSUbiquitousKeyValueStoreQuotaViolationChange: Int { 2 }
@available(macOS 10.8, iOS 6.0, tvOS 9.0, watchOS 9.0, *)
public var NSUbiquitousKeyValueStoreAccountChange: Int { 3 }

// MARK: - NotificationCenter
// https://developer.apple.com/documentation/foundation/notificationcenter/addobserver(forname:object:queue:using:)
// On Darwin this is the Objective-C method -addObserverForName:object:queue:usingBlock:, imported
// as @discardableResult (every imported method is). corelibs declares it in Swift without
// @discardableResult, so Linux rejects an unused token that Darwin accepts. This overload wins
// over corelibs' one because its `object` is `AnyObject?` (more specific than `Any?`); on Darwin
// the parameter is `Any?`. Not faithful for a non-class `object:` argument (resolves to corelibs').
extension NotificationCenter {
    @discardableResult
    public func addObserver(forName name: NSNotification.Name?, object obj: AnyObject?, queue: OperationQueue?, using block: @escaping @Sendable (Notification) -> Void) -> any NSObjectProtocol {
        fatalError("stand-in")
    }
}

// MARK: - Key-value observing (NSKeyValueObserving.h)
// https://developer.apple.com/documentation/objectivec/nsobject/1412787-addobserver
// https://developer.apple.com/documentation/foundation/nskeyvalueobservingoptions
// https://developer.apple.com/documentation/foundation/nskeyvaluechangekey
//
// On Darwin these are @objc methods of NSObject that a subclass overrides
// (`override func observeValue(forKeyPath:of:change:context:)`). corelibs' NSObject cannot gain
// overridable methods from another module (members of an extension cannot be overridden without
// Objective-C), and a second `NSObject` here is ambiguous with Foundation's. So this module
// declares `NSObjectWithKeyValueObserving`, Foundation's NSObject plus the overridable method, and
// KeyCatalog's KVO observer subclasses it under KEYCATALOG_APPLE_TYPECHECK (NSObject otherwise):
// its override is checked as on Darwin.
/// https://developer.apple.com/documentation/objectivec/nsobject/1416553-observevalue
open class NSObjectWithKeyValueObserving: NSObject {
    open func observeValue(
        forKeyPath keyPath: String?,
        of object: Any?,
        change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {}
}

public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let new = NSKeyValueObservingOptions(rawValue: 0x01)
    public static let old = NSKeyValueObservingOptions(rawValue: 0x02)
    public static let initial = NSKeyValueObservingOptions(rawValue: 0x04)
    public static let prior = NSKeyValueObservingOptions(rawValue: 0x08)
}

public struct NSKeyValueChangeKey: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let kindKey = NSKeyValueChangeKey("kind")
    public static let newKey = NSKeyValueChangeKey("new")
    public static let oldKey = NSKeyValueChangeKey("old")
    public static let indexesKey = NSKeyValueChangeKey("indexes")
    public static let notificationIsPriorKey = NSKeyValueChangeKey("notificationIsPrior")
}

extension NSObject {
    public func addObserver(_ observer: NSObject, forKeyPath keyPath: String, options: NSKeyValueObservingOptions = [], context: UnsafeMutableRawPointer?) {
        fatalError("stand-in")
    }

    public func removeObserver(_ observer: NSObject, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?) {
        fatalError("stand-in")
    }

    public func removeObserver(_ observer: NSObject, forKeyPath keyPath: String) {
        fatalError("stand-in")
    }
}

// MARK: - os_unfair_lock (os/lock.h; Foundation re-exports it through Darwin)
// https://developer.apple.com/documentation/os/os_unfair_lock_s
// https://developer.apple.com/documentation/os/1646466-os_unfair_lock_lock
// SDK header: os/lock.h. `typedef struct os_unfair_lock_s { uint32_t _os_unfair_lock_opaque; }
// os_unfair_lock, *os_unfair_lock_t;` and the functions all carry OS_UNFAIR_LOCK_AVAILABILITY
// (macos(10.12), ios(10.0), tvos(10.0), watchos(3.0)). C structs import with a memberwise and a
// zeroing initializer, and Sendable (all its fields are); `void os_unfair_lock_lock(os_unfair_lock_t
// lock)` imports as taking an `UnsafeMutablePointer<os_unfair_lock_s>`.

// The C names, as the SDK imports them.
// swift-format-ignore: TypeNamesShouldBeCapitalized
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public struct os_unfair_lock_s: Sendable {
    public var _os_unfair_lock_opaque: UInt32
    public init() { _os_unfair_lock_opaque = 0 }
    public init(_os_unfair_lock_opaque: UInt32) { self._os_unfair_lock_opaque = _os_unfair_lock_opaque }
}
// swift-format-ignore: TypeNamesShouldBeCapitalized
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public typealias os_unfair_lock = os_unfair_lock_s
// swift-format-ignore: TypeNamesShouldBeCapitalized
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock_s>

// Both carry OS_SWIFT_UNAVAILABLE_FROM_ASYNC("Use OSAllocatedUnfairLock.performWhileLocked() for
// async-safe scoped locking"), which Swift sees as `noasync`.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
@available(*, noasync, message: "Use OSAllocatedUnfairLock.performWhileLocked() for async-safe scoped locking")
public func os_unfair_lock_lock(_ lock: os_unfair_lock_t) { fatalError("stand-in") }
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
@available(*, noasync, message: "Use OSAllocatedUnfairLock.performWhileLocked() for async-safe scoped locking")
public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t) { fatalError("stand-in") }

// MARK: - clock_gettime_nsec_np (time.h; Foundation re-exports it through Darwin)
// `man 3 clock_gettime` on macOS. SDK header: time.h, `__CLOCK_AVAILABILITY` (macos(10.12), ios(10.0),
// tvos(10.0), watchos(3.0)) on `uint64_t clock_gettime_nsec_np(clockid_t __clock_id)` and on each
// clock of the `clockid_t` enum; `CLOCK_MONOTONIC_RAW_APPROX` is a macro for
// `_CLOCK_MONOTONIC_RAW_APPROX`. (`clockid_t` here is Glibc's; on Darwin it is that enum.)

@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public var CLOCK_MONOTONIC_RAW_APPROX: clockid_t { 5 }
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public func clock_gettime_nsec_np(_ __clock_id: clockid_t) -> UInt64 { fatalError("stand-in") }

// MARK: - struct stat's times (sys/stat.h; Foundation re-exports it through Darwin)
// `man 2 stat` on macOS: with 64-bit inodes (every current SDK), `struct stat` has
// `struct timespec st_mtimespec` and `st_ctimespec` where Glibc has `st_mtim` and `st_ctim`.
extension stat {
    public var st_mtimespec: timespec { st_mtim }
    public var st_ctimespec: timespec { st_ctim }
}

// MARK: - Dispatch sources of the file system (Dispatch; Foundation re-exports it)
// corelibs Dispatch leaves these out on Linux (`#if !os(Linux)` in Source.swift); it declares
// `DispatchSource.FileSystemEvent`, with Apple's members. Copied from
// https://developer.apple.com/documentation/dispatch/dispatchsourcefilesystemobject.

public protocol DispatchSourceFileSystemObject: DispatchSourceProtocol {
    var handle: Int32 { get }
    var data: DispatchSource.FileSystemEvent { get }
    var mask: DispatchSource.FileSystemEvent { get }
}

extension DispatchSource {
    /// https://developer.apple.com/documentation/dispatch/dispatchsource/makefilesystemobjectsource(filedescriptor:eventmask:queue:)
    public class func makeFileSystemObjectSource(
        fileDescriptor: Int32, eventMask: DispatchSource.FileSystemEvent, queue: DispatchQueue? = nil
    ) -> any DispatchSourceFileSystemObject { fatalError("stand-in") }
}

// MARK: - O_EVTONLY (sys/fcntl.h: `#define O_EVTONLY 0x00008000`, "descriptor requested for
// event notifications only"; Foundation re-exports it through Darwin)
public var O_EVTONLY: Int32 { 0x0000_8000 }
