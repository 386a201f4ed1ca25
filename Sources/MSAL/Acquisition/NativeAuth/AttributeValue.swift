import Foundation

/// A user attribute's value as sign-up sends it: each kind as its own JSON type, so a number arrives as a number
/// and a boolean as `true` or `false`, not as strings.
///
///     try await app.signUp(username: email, attributes: ["displayName": "Jane", "age": 30, "newsletter": true])
public enum AttributeValue: Sendable, Equatable, Encodable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)

    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A number value.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }

    /// The value as its JSON type.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .boolean(let value): try container.encode(value)
        }
    }

    /// `text` read as the attribute's declared type (`boolean`, `number`/`int`, else `string`), as a terminal or a
    /// form gives it; `nil` when it is not one.
    public init?(_ text: String, type: String) {
        switch type.lowercased() {
        case "boolean", "bool":
            switch text.lowercased() {
            case "true", "yes", "1": self = .boolean(true)
            case "false", "no", "0": self = .boolean(false)
            default: return nil
            }
        case "number", "int", "integer", "double":
            if let integer = Int(text) {
                self = .integer(integer)
            } else if let number = Double(text), number.isFinite {
                self = .number(number)
            } else {
                return nil
            }
        default:
            self = .string(text)
        }
    }

    /// A value from what MSAL for iOS's `[String: Any]` attributes hold: `Bool`, integers, floating point numbers
    /// (Foundation's `NSNumber` included) and strings; anything else is sent as its description.
    init(any value: Any) {
        switch value {
        case let value as Bool where type(of: value) == Bool.self: self = .boolean(value)
        case let value as Int: self = .integer(value)
        case let value as Double:
            self = value.rounded() == value && abs(value) < 1e15 ? .integer(Int(value)) : .number(value)
        case let value as Float: self = .number(Double(value))
        case let value as String: self = .string(value)
        case let value as NSNumber:
            self = String(cString: value.objCType) == "c" ? .boolean(value.boolValue) : .number(value.doubleValue)
        default: self = .string("\(value)")
        }
    }
}
