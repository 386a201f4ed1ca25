/// Why JSON from outside the process was not read. Its ``description`` completes a sentence about the input
/// ("The token response " + "nests deeper than 64 levels (at byte 5)"); it never quotes the input.
package enum JSONRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// More bytes than the limits allow.
    case tooLarge(bytes: Int, limit: Int)
    /// More than ``JSONLimits/maximumDepth`` objects and arrays open at once, at this byte.
    case tooDeep(offset: Int)
    /// Not JSON at all.
    case notJSON
    /// JSON, but not an object.
    case notAnObject

    /// What is wrong with the input, as a predicate: "is larger than 256000 bytes (300000)".
    package var description: String {
        switch self {
        case .tooLarge(let bytes, let limit): "is larger than \(limit) bytes (\(bytes))"
        case .tooDeep(let offset): "nests deeper than \(JSONLimits.maximumDepth) levels (at byte \(offset))"
        case .notJSON: "is not JSON"
        case .notAnObject: "is not a JSON object"
        }
    }
}
