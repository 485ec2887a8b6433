// expected-error: conformance of 'Counter' to protocol 'DynamicProperty' crosses into main actor-isolated code and can cause data races
// DynamicProperty and its update() are nonisolated: a @MainActor property wrapper cannot
// conform plainly (it needs `@preconcurrency DynamicProperty` or a nonisolated update()).
import SwiftUI

@MainActor
@propertyWrapper
struct Counter: DynamicProperty {
    @State private var count = 0
    var wrappedValue: Int { count }
    func update() {}
}
