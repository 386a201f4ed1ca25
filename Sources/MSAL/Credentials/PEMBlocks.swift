import Foundation

/// The `-----BEGIN label-----` … `-----END label-----` blocks of PEM text (RFC 7468).
enum PEMBlocks {
    /// Each block with this label, markers included.
    static func text(of label: String, in pem: String) -> [String] {
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        var blocks: [String] = []
        var rest = pem[...]
        while let start = rest.range(of: begin), let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex)
        {
            blocks.append(String(rest[start.lowerBound..<stop.upperBound]))
            rest = rest[stop.upperBound...]
        }
        return blocks
    }

    /// The decoded contents of each block with this label; blocks that are not base64 are skipped.
    static func der(of label: String, in pem: String) -> [Data] {
        text(of: label, in: pem).compactMap(contents)
    }

    /// The decoded contents of one block (markers and headers left out); `nil` when it is not base64.
    static func contents(of block: String) -> Data? {
        let body = block.split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("-----") && !$0.contains(":") }
            .joined()
        return Data(base64Encoded: body)
    }
}
