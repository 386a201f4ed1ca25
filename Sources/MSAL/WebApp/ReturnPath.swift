import WebText

/// The page a sign-in returns to: a path on this site, made safe for a `Location` header.
///
/// A browser cleans a `Location` before resolving it (WHATWG URL): it drops tabs and newlines, reads `\` as `/`, and
/// a later hop may percent-decode it. `/%09/evil.example` becomes `//evil.example`, another host. A return path is
/// accepted only when every one of those readings, and each percent-decoding of it, still starts with one `/`; what
/// is accepted goes out as ASCII, every other byte percent-encoded.
package enum ReturnPath {
    /// `text` as a `Location` on this site, or `nil` when a browser could read it as another site, or it is not a
    /// path, or it is longer than 1,024 bytes (it travels in the sign-in's cookie, and browsers keep 4 KB of one).
    package static func local(_ text: String?) -> String? {
        guard let text, text.utf8.first == UInt8(ascii: "/"), text.utf8.count <= 1024 else { return nil }
        var reading = Array(text.utf8)
        // Each round undoes one layer of percent-encoding; a value still encoded after a few is refused.
        for _ in 0..<4 {
            guard staysOnSite(reading) else { return nil }
            let decoded = PercentDecoding.decoded(reading)
            if decoded == reading { return encoded(Array(text.utf8)) }
            reading = decoded
        }
        return nil
    }

    /// Whether a browser resolves `bytes` against this site to this site: after dropping tabs and newlines and
    /// reading `\` as `/`, it starts with one `/` (no scheme, and no `//` that would name a host).
    private static func staysOnSite(_ bytes: [UInt8]) -> Bool {
        let cleaned = bytes.lazy.filter { !browserDrops($0) }.map { $0 == UInt8(ascii: "\\") ? UInt8(ascii: "/") : $0 }
        var iterator = cleaned.makeIterator()
        return iterator.next() == UInt8(ascii: "/") && iterator.next() != UInt8(ascii: "/")
    }

    /// The bytes a URL parser removes wherever they are: ASCII tab, line feed and carriage return.
    private static func browserDrops(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// ASCII for a header: visible ASCII stays (existing escapes too), everything else (controls, space, `\`,
    /// quotes and angle brackets, non-ASCII as UTF-8) is percent-encoded.
    private static func encoded(_ bytes: [UInt8]) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            if byte > 0x20, byte < 0x7F, !"\\\"<>^`{|}".utf8.contains(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
