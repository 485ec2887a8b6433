/// A key whose value can change in Debug builds and is fixed in Release builds.
///
/// ```swift
/// extension PersistentKeyProtocol where Self == PersistentDebugKey<Bool> {
///     static var isAppStoreRatingEnabled: Self {
///         Self("IsAppStoreRatingEnabled", debugDefaultValue: false, releaseDefaultValue: true)
///     }
/// }
///
/// userDefaults.set(.isAppStoreRatingEnabled, to: false)
/// userDefaults.get(.isAppStoreRatingEnabled) // false in Debug, true in Release
/// ```
///
/// - Important: In Release builds writes are ignored and reads return the release default.
///   The build configuration is that of the module that creates the key, not of KeyCatalog, so
///   debug keys also work with a prebuilt KeyCatalog binary. Generated catalogs pass it explicitly
///   from an `#if DEBUG` in your module.
public struct PersistentDebugKey<Value: Sendable>: PersistentKeyProtocol {
    public let id: String
    /// The default in Debug builds.
    public let debugDefaultValue: Value
    /// The default in Release builds, where the key is also read-only.
    public let releaseDefaultValue: Value
    /// The build configuration of the module that created the key.
    public let configuration: BuildConfiguration
    public let representation: any PersistentKeyValueRepresentation<Value>

    /// A debug key with an explicit build configuration and representation.
    public init<Representation: PersistentKeyValueRepresentation<Value>>(
        _ id: String,
        debugDefaultValue: Value,
        releaseDefaultValue: Value,
        representation: Representation,
        configuration: BuildConfiguration
    ) {
        self.id = id
        self.debugDefaultValue = debugDefaultValue
        self.releaseDefaultValue = releaseDefaultValue
        self.representation = representation
        self.configuration = configuration
    }

    /// A debug key stored through a representation of its own, in the caller's build configuration.
    @_alwaysEmitIntoClient
    public init<Representation: PersistentKeyValueRepresentation<Value>>(
        _ id: String,
        debugDefaultValue: Value,
        releaseDefaultValue: Value,
        representation: Representation
    ) {
        self.init(
            id,
            debugDefaultValue: debugDefaultValue,
            releaseDefaultValue: releaseDefaultValue,
            representation: representation,
            configuration: .current
        )
    }

    /// The default of the key's build configuration.
    public var defaultValue: Value {
        configuration == .debug ? debugDefaultValue : releaseDefaultValue
    }

    /// `false` in Release: reads give the release default and writes are ignored.
    public var isStoreAccessEnabled: Bool {
        configuration == .debug
    }
}

extension PersistentDebugKey where Value: KeyValuePersistible {
    /// A debug key stored through its value type's usual representation, in the caller's build configuration.
    @_alwaysEmitIntoClient
    public init(_ id: String, debugDefaultValue: Value, releaseDefaultValue: Value) {
        self.init(
            id,
            debugDefaultValue: debugDefaultValue,
            releaseDefaultValue: releaseDefaultValue,
            representation: Value.persistentKeyValueRepresentation,
            configuration: .current
        )
    }

    /// A debug key stored through its value type's usual representation, in the given build configuration.
    public init(_ id: String, debugDefaultValue: Value, releaseDefaultValue: Value, configuration: BuildConfiguration) {
        self.init(
            id,
            debugDefaultValue: debugDefaultValue,
            releaseDefaultValue: releaseDefaultValue,
            representation: Value.persistentKeyValueRepresentation,
            configuration: configuration
        )
    }
}

/// A build configuration: which default a ``PersistentDebugKey`` uses and whether it may be written.
public enum BuildConfiguration: Sendable, Hashable {
    /// A Debug build: the debug default, and writes allowed.
    case debug
    /// A Release build: the release default, and writes ignored.
    case release

    /// The configuration of the module that evaluates this: emitted into the client, so a Debug
    /// build of the app gets `.debug` even when KeyCatalog itself was built for Release.
    @_alwaysEmitIntoClient
    public static var current: BuildConfiguration {
        var configuration = BuildConfiguration.release
        // `assert` runs in builds with assertions (Debug), evaluated in the client's module.
        assert(
            {
                configuration = .debug; return true
            }())
        return configuration
    }
}
