import Foundation
import Testing

/// Compares emulator answers with the golden fixtures copied from Microsoft's real responses:
/// the same members, in the same order, with the same JSON types (values may differ).
enum Golden {
    static func text(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures") else {
            throw TestFailure("missing fixture \(name).json")
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Expects `actual` to have the fixture's shape; members named in `ignoring` may be absent or extra.
    static func expectShape(
        _ actual: String, matches fixture: String, ignoring: Set<String> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var expectedParser = ShapeParser(try text(fixture))
        var actualParser = ShapeParser(actual)
        let expected = try expectedParser.parse().filtered(ignoring)
        let got = try actualParser.parse().filtered(ignoring)
        #expect(
            got.description == expected.description,
            "shape differs from \(fixture).json:\n got      \(got)\n expected \(expected)",
            sourceLocation: sourceLocation)
    }
}

/// The structure of a JSON document: member names in order and value kinds.
indirect enum Shape: Equatable, CustomStringConvertible {
    case string, number, bool, null
    case array(Shape?)
    case object([(String, Shape)])

    static func == (a: Shape, b: Shape) -> Bool { a.description == b.description }

    var description: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .bool: "bool"
        case .null: "null"
        case .array(let element): "[\(element?.description ?? "")]"
        case .object(let members): "{" + members.map { "\($0.0):\($0.1)" }.joined(separator: ",") + "}"
        }
    }

    func filtered(_ names: Set<String>) -> Shape {
        switch self {
        case .object(let members):
            .object(members.filter { !names.contains($0.0) }.map { ($0.0, $0.1.filtered(names)) })
        case .array(let element): .array(element?.filtered(names))
        default: self
        }
    }
}

/// A small JSON parser that keeps member order (Foundation's does not).
struct ShapeParser {
    private let chars: [Character]
    private var i = 0

    init(_ text: String) { chars = Array(text) }

    mutating func parse() throws -> Shape {
        let shape = try value()
        skip()
        guard i == chars.count else { throw TestFailure("trailing text in JSON") }
        return shape
    }

    private mutating func skip() { while i < chars.count, chars[i].isWhitespace { i += 1 } }

    private mutating func value() throws -> Shape {
        skip()
        guard i < chars.count else { throw TestFailure("unexpected end of JSON") }
        switch chars[i] {
        case "{":
            i += 1
            var members: [(String, Shape)] = []
            skip()
            if chars[i] == "}" {
                i += 1
                return .object([])
            }
            while true {
                skip()
                let key = try string()
                skip()
                guard chars[i] == ":" else { throw TestFailure("expected :") }
                i += 1
                members.append((key, try value()))
                skip()
                if chars[i] == "," {
                    i += 1
                    continue
                }
                guard chars[i] == "}" else { throw TestFailure("expected }") }
                i += 1
                return .object(members)
            }
        case "[":
            i += 1
            skip()
            var first: Shape?
            if chars[i] == "]" {
                i += 1
                return .array(nil)
            }
            while true {
                let element = try value()
                if first == nil { first = element }
                skip()
                if chars[i] == "," {
                    i += 1
                    continue
                }
                guard chars[i] == "]" else { throw TestFailure("expected ]") }
                i += 1
                return .array(first)
            }
        case "\"":
            _ = try string()
            return .string
        case "t":
            i += 4
            return .bool
        case "f":
            i += 5
            return .bool
        case "n":
            i += 4
            return .null
        default:
            while i < chars.count, "-+.eE0123456789".contains(chars[i]) { i += 1 }
            return .number
        }
    }

    private mutating func string() throws -> String {
        guard chars[i] == "\"" else { throw TestFailure("expected string") }
        i += 1
        var out = ""
        while chars[i] != "\"" {
            if chars[i] == "\\" { i += 1 }
            out.append(chars[i])
            i += 1
        }
        i += 1
        return out
    }
}
