/// A type of another module that a key of PluginClient's catalog stores (keys.json `imports`).
public struct Layout: Codable, Sendable, Equatable {
    public var columns: Int

    public init(columns: Int) {
        self.columns = columns
    }
}
