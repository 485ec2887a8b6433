// expected-error: capture of 'model' with non-Sendable type 'Model' in a '@Sendable' closure
// Binding(get:set:) takes @Sendable closures: a non-Sendable model cannot be captured from a
// nonisolated context.
import SwiftUI

final class Model {
    var isOn = false
}

func binding(to model: Model) -> Binding<Bool> {
    Binding(get: { model.isOn }, set: { model.isOn = $0 })
}
