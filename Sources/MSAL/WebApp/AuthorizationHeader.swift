/// The `Authorization` header of a request to a protected API, as every web framework integration reads it.
package enum AuthorizationHeader {
    /// The token of `header` when its scheme is `Bearer` (in any case, RFC 7235); `nil` for another scheme or none.
    ///
    /// Read byte by byte, without a copy of the token or a pass over its characters (Foundation's trimming goes
    /// through UTF-16, `String.split` through grapheme clusters): this runs on every request, and checking a remembered
    /// token is only a hash and a lookup.
    package static func bearerToken(_ header: String?) -> Substring? {
        guard let header else { return nil }
        let bytes = header.utf8
        let space = UInt8(ascii: " ")
        guard let schemeEnd = bytes.firstIndex(of: space),
            bytes.distance(from: bytes.startIndex, to: schemeEnd) == 6,
            zip(bytes[..<schemeEnd], "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 })
        else { return nil }
        guard let start = bytes[schemeEnd...].firstIndex(where: { $0 != space }),
            let end = bytes.lastIndex(where: { $0 != space })
        else { return nil }
        return header[start...end]
    }
}
