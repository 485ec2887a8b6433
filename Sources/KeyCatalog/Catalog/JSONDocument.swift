import Foundation

/// Reads JSON into the objects `JSONSerialization` gives (`[String: Any]`, `[Any]`, `String`,
/// `Bool`, `Int`, `UInt64`, `Double`, `NSNull`), exactly: on Linux `JSONSerialization` reads some
/// numbers as a neighbouring double (`0.30000000000000004` as `0.3000000000000001`, measured with
/// Swift 6.3.1), and a settings import or a parsed value must not change what was written. There,
/// `JSONDecoder` reads them exactly (a whole number, `3.0` too, as an integer; a number beyond
/// `Double`'s range, like `1e400`, not at all).
enum _JSONDocument {
    /// Why the text is not JSON.
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// The object `data` holds (a scalar too, at the top level).
    static func object(from data: Data) throws(Malformed) -> Any {
        #if canImport(Darwin)
        // Apple's JSONSerialization reads numbers exactly, and gives what earlier releases gave.
        do {
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw Malformed(description: (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)")
        }
        #else
        do {
            return try JSONDecoder().decode(Node.self, from: data).object
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
                let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
                throw Malformed(description: underlying ?? context.debugDescription)
            @unknown default:
                throw Malformed(description: "\(error)")
            }
        } catch {
            throw Malformed(description: "\(error)")
        }
        #endif
    }

    private enum Node: Decodable {
        case null, bool(Bool), int(Int), uint(UInt64), double(Double), string(String)
        case array([Node]), object([String: Node])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let double = try? container.decode(Double.self) {
                // A whole number as an integer (exactly, beyond 2^53 too), but -0.0 keeps its sign.
                if double == 0, double.sign == .minus {
                    self = .double(double)
                } else if let int = try? container.decode(Int.self) {
                    self = .int(int)
                } else if let uint = try? container.decode(UInt64.self) {
                    self = .uint(uint)
                } else {
                    self = .double(double)
                }
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else if let array = try? container.decode([Node].self) {
                self = .array(array)
            } else {
                self = .object(try container.decode([String: Node].self))
            }
        }

        var object: Any {
            switch self {
            case .null: NSNull()
            case .bool(let bool): bool
            case .int(let int): int
            case .uint(let uint): uint
            case .double(let double): double
            case .string(let string): string
            case .array(let elements): elements.map(\.object)
            case .object(let members): members.mapValues(\.object)
            }
        }
    }
}
