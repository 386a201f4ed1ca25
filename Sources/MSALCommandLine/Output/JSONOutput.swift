import Foundation

/// The one shape of every `--json` output: pretty-printed with two-space indents, keys sorted (so scripts and tests
/// can rely on it), slashes unescaped, empty arrays and objects as `[]` and `{}`, ended by a newline.
enum JSONOutput {
    /// Prints `value` (a JSON object, array or scalar made of Foundation types) on standard output.
    ///
    /// - Throws: when `value` holds something JSON cannot represent.
    static func print(_ value: Any, on console: Console) throws {
        console.out(try text(value))
    }

    /// `value` as ``print(_:on:)`` prints it, without the final newline.
    ///
    /// - Throws: when `value` holds something JSON cannot represent.
    static func text(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(
            withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        return collapsingEmptyContainers(String(decoding: data, as: UTF8.self))
    }

    /// `[` or `{` followed by nothing but layout up to its closing bracket becomes `[]` or `{}`. A line break only
    /// ever appears in the serializer's layout (inside strings it is escaped), so the match is never in a string.
    private static func collapsingEmptyContainers(_ text: String) -> String {
        text.replacing(#/\[\n\s*\]/#, with: "[]").replacing(#/\{\n\s*\}/#, with: "{}")
    }
}
