/// A value decoded from what a store holds for a key, kept beside it by a store that keeps
/// decoded values (``PersistentKeyValueStore/_keepsDecodedValues``): a later read through a
/// representation of the same type returns it instead of decoding again. A store drops it with
/// the stored value it came from, so it is never stale.
struct KeptDecodedValue {
    /// The type of the representation that decoded it, whose instances all decode alike
    /// (``PersistentKeyValueRepresentation/_decodesByTypeAlone``).
    var representation: ObjectIdentifier
    var value: _AnyDecodedValue

    /// What a read of such a store finds for a key under its lock, to finish outside it.
    enum Lookup {
        /// A value kept for the read's type of representation.
        case kept(_AnyDecodedValue)
        /// A value to decode, and the change that stored it: `nil` for one that is not kept once
        /// decoded (a registered default).
        case stored(PropertyListValue, generation: UInt64?)
        case none

        /// The value for the read: the kept one, or the one `decode` makes, which is given to
        /// `keep` with the generation it was decoded from, unless it holds a class instance
        /// (another reader could change it in place). `keep` must keep it only if that
        /// generation's value is still the one stored.
        func value(
            representation: ObjectIdentifier,
            decode: (PropertyListValue) -> _AnyDecodedValue?,
            keep: (KeptDecodedValue, _ generation: UInt64) -> Void
        ) -> _AnyDecodedValue? {
            switch self {
            case .kept(let value):
                return value
            case .none:
                return nil
            case .stored(let stored, let generation):
                guard let value = decode(stored) else { return nil }
                if let generation, !value.holdsClassInstance {
                    keep(KeptDecodedValue(representation: representation, value: value), generation)
                }
                return value
            }
        }
    }
}
