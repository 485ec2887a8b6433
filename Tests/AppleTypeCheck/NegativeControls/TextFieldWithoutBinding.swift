// expected-error: cannot convert value 'name' of type 'String' to expected type 'Binding<String>'
// TextField edits a Binding<String>: passing the value (`name` instead of `$name`) is rejected.
import SwiftUI

struct NameField: View {
    @State private var name = ""

    var body: some View {
        TextField("Name", text: name)
    }
}
