#if canImport(SwiftUI)
import SwiftUI

extension CatalogKey {
    /// A binding that reads and writes the key in its declared store.
    ///
    /// ```swift
    /// Toggle("Sounds", isOn: keys.$soundsEnabled.binding)
    /// ```
    ///
    /// The view redraws on the key's changes when its body reads ``value`` (a binding's read
    /// does, through Observation); `@PersistentValue(\AppKeys.$soundsEnabled)` keeps a view's
    /// value current on its own.
    public var binding: Binding<Value> {
        Binding(get: { self.value }, set: { self.value = $0 })
    }
}
#endif
