import Foundation

/// An IPv4 or IPv6 address as bytes, for matching `NO_PROXY` entries and CIDR blocks.
struct IPAddress: Equatable {
    let bytes: [UInt8]

    /// Parses a dotted IPv4 or a textual IPv6 address; `nil` for anything else (a host name).
    init?(_ text: String) {
        if let v4 = Self.parseV4(text) {
            bytes = v4
        } else if let v6 = Self.parseV6(text) {
            bytes = v6
        } else {
            return nil
        }
    }

    /// Whether the first `prefixLength` bits equal `network`'s (same family only).
    func isIn(network: IPAddress, prefixLength: Int) -> Bool {
        guard bytes.count == network.bytes.count, (0...bytes.count * 8).contains(prefixLength) else { return false }
        for bit in 0..<prefixLength {
            let mask = UInt8(0x80) >> UInt8(bit % 8)
            if bytes[bit / 8] & mask != network.bytes[bit / 8] & mask { return false }
        }
        return true
    }

    private static func parseV4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let octets = parts.compactMap { part -> UInt8? in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber) else {
                return nil
            }
            return UInt8(part)
        }
        return octets.count == 4 ? octets : nil
    }

    private static func parseV6(_ text: String) -> [UInt8]? {
        guard text.contains(":"), text.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            var result: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (i, piece) in pieces.enumerated() {
                if i == pieces.count - 1, piece.contains("."), let v4 = parseV4(String(piece)) {
                    result += [UInt16(v4[0]) << 8 | UInt16(v4[1]), UInt16(v4[2]) << 8 | UInt16(v4[3])]
                } else {
                    guard (1...4).contains(piece.count), let group = UInt16(piece, radix: 16) else { return nil }
                    result.append(group)
                }
            }
            return result
        }
        guard let head = groups(halves[0]) else { return nil }
        var all = head
        if halves.count == 2 {
            guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
            all += Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        }
        guard all.count == 8 else { return nil }
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}
