import Foundation

/// The `-----BEGIN label-----` … `-----END label-----` blocks of PEM text (RFC 7468), found in its UTF-8 bytes with
/// ``ByteSearch`` (a marker starts with a dash, which base64 never holds): `msal` checks every certificate of the bundle
/// `SSL_CERT_FILE` names on every start.
enum PEMBlocks {
    /// Each block with this label, markers included.
    static func text(of label: String, in pem: String) -> [String] {
        blocks(of: label, in: pem) { String(decoding: $0, as: UTF8.self) }
    }

    /// The decoded contents of each block with this label; blocks that are not base64 are skipped.
    static func der(of label: String, in pem: String) -> [Data] {
        decodedBlocks(of: label, in: pem).compactMap { $0 }
    }

    /// The decoded contents of each block with this label, in order; `nil` for a block that is not base64.
    static func decodedBlocks(of label: String, in pem: String) -> [Data?] {
        blocks(of: label, in: pem, decode)
    }

    /// `read` applied to each block with this label, markers included.
    private static func blocks<Block>(
        of label: String, in pem: String, _ read: (UnsafeBufferPointer<UInt8>) -> Block
    ) -> [Block] {
        var pem = pem
        let begin = Array("-----BEGIN \(label)-----".utf8)
        let end = Array("-----END \(label)-----".utf8)
        return pem.withUTF8 { bytes in
            var blocks: [Block] = []
            var from = 0
            while let start = ByteSearch.firstIndex(of: begin, in: bytes, from: from),
                let stop = ByteSearch.firstIndex(of: end, in: bytes, from: start + begin.count)
            {
                from = stop + end.count
                blocks.append(read(UnsafeBufferPointer(rebasing: bytes[start..<from])))
            }
            return blocks
        }
    }

    /// The base64 of a block's lines that are neither markers nor headers (`Name: value`), decoded. Lines end in
    /// LF or CRLF, found with `memchr`.
    private static func decode(_ block: UnsafeBufferPointer<UInt8>) -> Data? {
        guard let base = block.baseAddress else { return nil }
        var body: [UInt8] = []
        body.reserveCapacity(block.count)
        var lineStart = 0
        while lineStart < block.count {
            let lineEnd =
                memchr(base + lineStart, Int32(UInt8(ascii: "\n")), block.count - lineStart).map {
                    base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                } ?? block.count
            var count = lineEnd - lineStart
            if count > 0, base[lineEnd - 1] == UInt8(ascii: "\r") { count -= 1 }
            let line = base + lineStart
            let isMarker = count >= 5 && memcmp(line, "-----", 5) == 0
            if !isMarker, memchr(line, Int32(UInt8(ascii: ":")), count) == nil {
                body.append(contentsOf: UnsafeBufferPointer(start: line, count: count))
            }
            lineStart = lineEnd + 1
        }
        return Data(base64Encoded: Data(body))
    }
}
