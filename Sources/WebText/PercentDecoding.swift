/// Percent-decoding of bytes, as URLs and form bodies carry them.
package enum PercentDecoding {
    /// `bytes` with one layer of percent-decoding undone: each `%` and two hex digits becomes that byte; a `%`
    /// without two hex digits stays as it is. `+` stays `+` (a form body's space is the caller's to read).
    package static func decoded(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let next = bytes.index(after: index)
            if bytes[index] == UInt8(ascii: "%"), next != bytes.endIndex, let high = hexValue(bytes[next]) {
                let last = bytes.index(after: next)
                if last != bytes.endIndex, let low = hexValue(bytes[last]) {
                    out.append(high << 4 | low)
                    index = bytes.index(after: last)
                    continue
                }
            }
            out.append(bytes[index])
            index = next
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
