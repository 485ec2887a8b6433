import Foundation

/// How a keychain item holds a ``PropertyListValue``: a binary property list of `["value": …]`.
///
/// The keychain stores bytes; ``KeychainKeyValueStore`` writes and reads its items in this form.
///
/// ```swift
/// let data = try KeychainItemCoding.data(for: .string("s3cr3t"))
/// let value = try KeychainItemCoding.value(from: data) // .string("s3cr3t")
/// ```
public enum KeychainItemCoding {
    private static let member = "value"

    /// The bytes of a keychain item holding `value`.
    public static func data(for value: PropertyListValue) throws -> Data {
        try PropertyListSerialization.data(
            fromPropertyList: [member: value.foundationObject],
            format: .binary,
            options: 0
        )
    }

    /// The value a keychain item holds: a KeyCatalog item's value, or, for an item other code
    /// wrote (KeychainAccess, SAMKeychain, `SecItemAdd` by hand: a password as its bytes), those
    /// bytes as ``PropertyListValue/data(_:)``, so that a `Data` key, or a migration with
    /// `fromType: "Data"` and a transform, takes it over.
    ///
    /// ```swift
    /// try KeychainItemCoding.storedValue(from: Data("s3cr3t".utf8)) // .data(<73 33 63 72 33 74>)
    /// ```
    ///
    /// - Throws: ``PersistentKeyValueDecodingError`` for a binary property list that is no
    ///   KeyCatalog item: a damaged one, not to be taken for a password.
    public static func storedValue(from data: Data) throws -> PropertyListValue {
        do {
            return try value(from: data)
        } catch {
            guard !data.starts(with: Array("bplist".utf8)) else { throw error }
            return .data(data)
        }
    }

    /// The value a keychain item's bytes hold.
    ///
    /// - Throws: ``PersistentKeyValueDecodingError`` when the bytes are not such an item.
    public static func value(from data: Data) throws -> PropertyListValue {
        let object = try? PropertyListSerialization.propertyList(from: data, format: nil)
        guard let dictionary = object as? [String: Any], let member = dictionary[member],
            let value = PropertyListValue(foundationObject: member)
        else {
            throw PersistentKeyValueDecodingError(expectedType: "keychain item", found: "\(data.count) bytes that are not a KeyCatalog item")
        }
        return value
    }
}
