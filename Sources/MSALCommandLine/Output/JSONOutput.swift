import Foundation
import MSAL

/// The one shape of every `--json` output: pretty-printed with two-space indents and `"key" : value`, keys sorted (so
/// scripts and tests can rely on it), slashes unescaped, empty arrays and objects as `[]` and `{}`, ended by a newline.
///
/// Written here rather than by `JSONSerialization`, whose bridging to Foundation's collections asks the Swift runtime
/// for a dozen conformances (each a search of every conformance in the binary): on `msal kube get-token`, which
/// kubectl runs for every command, that was a millisecond.
enum JSONOutput {
    /// A value JSON cannot represent: a type other than strings, booleans, numbers, arrays, string-keyed
    /// dictionaries and `NSNull`, or a number that is not finite.
    struct Unrepresentable: Error, CustomStringConvertible {
        let value: String
        var description: String { "JSON cannot represent \(value)" }
    }

    /// Prints `value` (a JSON object, array or scalar made of Swift or Foundation types) on standard output.
    ///
    /// - Throws: ``Unrepresentable`` when `value` holds something JSON cannot represent.
    static func print(_ value: Any, on console: Console) throws {
        console.out(try text(value))
    }

    /// `value` as ``print(_:on:)`` prints it, without the final newline.
    ///
    /// - Throws: ``Unrepresentable`` when `value` holds something JSON cannot represent.
    static func text(_ value: Any) throws -> String {
        var text = ""
        try write(value, indent: "", into: &text)
        return text
    }

    private static func write(_ value: Any, indent: String, into text: inout String) throws {
        // A parsed number (an instance, not a Swift number bridged, which would also cast): its type says which.
        if type(of: value) is AnyClass, let number = value as? NSNumber {
            switch String(cString: number.objCType) {
            case "c": text += number.boolValue ? "true" : "false"
            case "d", "f": try writeNumber(number.doubleValue, into: &text)
            default: text += number.stringValue
            }
            return
        }
        // Exact types first: a cast that fails asks the runtime for conformances (each a search of every conformance
        // in the binary), and the `switch` below would try several for each value.
        switch type(of: value) {
        case is String.Type: return writeString(value as! String, into: &text)
        case is Bool.Type:
            text += value as! Bool ? "true" : "false"
            return
        case is [String: Any].Type: return try writeObject(value as! [String: Any], indent: indent, into: &text)
        default: break
        }
        switch value {
        case let string as String: writeString(string, into: &text)
        case let flag as Bool: text += flag ? "true" : "false"
        case let number as Int: text += String(number)
        case let number as Int64: text += String(number)
        case let number as UInt64: text += String(number)
        case let number as Double: try writeNumber(number, into: &text)
        case let object as [String: Any]: try writeObject(object, indent: indent, into: &text)
        case let array as [Any]:
            guard !array.isEmpty else {
                text += "[]"
                return
            }
            let inner = indent + "  "
            text += "[\n"
            for (index, element) in array.enumerated() {
                text += index == 0 ? inner : ",\n" + inner
                try write(element, indent: inner, into: &text)
            }
            text += "\n" + indent + "]"
        case is NSNull: text += "null"
        default: throw Unrepresentable(value: "\(type(of: value))")
        }
    }

    private static func writeObject(_ object: [String: Any], indent: String, into text: inout String) throws {
        guard !object.isEmpty else {
            text += "{}"
            return
        }
        let inner = indent + "  "
        text += "{\n"
        for (index, key) in object.keys.sorted().enumerated() {
            text += index == 0 ? inner : ",\n" + inner
            writeString(key, into: &text)
            text += " : "
            try write(object[key]!, indent: inner, into: &text)
        }
        text += "\n" + indent + "}"
    }

    private static func writeNumber(_ number: Double, into text: inout String) throws {
        guard number.isFinite else { throw Unrepresentable(value: "\(number)") }
        if number == 0, number.sign == .minus {
            text += "-0"
        } else if number == number.rounded(), abs(number) <= 9_007_199_254_740_992 {
            text += String(Int64(number))
        } else {
            let shortest = "\(number)"
            text += shortest.hasSuffix(".0") ? String(shortest.dropLast(2)) : shortest
        }
    }

    /// A string in quotes, escaped as JSON requires (quotes, backslashes, control characters); `/` as it is. One
    /// that needs no escape, as tokens never do, is copied whole.
    private static func writeString(_ string: String, into text: inout String) {
        var string = string
        text += "\""
        if !string.withUTF8({ ByteWords.needJSONEscaping(UnsafeRawBufferPointer($0)) }) {
            text += string
            text += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{8}": text += "\\b"
            case "\u{C}": text += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
