// expected-error: main actor-isolated property 'body' can not be referenced from a nonisolated context
// View is a @MainActor protocol: its body cannot be read from nonisolated code.
import SwiftUI

nonisolated func snapshot<V: View>(_ view: V) -> V.Body {
    view.body
}
