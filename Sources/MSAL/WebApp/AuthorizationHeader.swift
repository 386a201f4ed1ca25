/// The `Authorization` header of a request to a protected API, as every web framework integration reads it.
package enum AuthorizationHeader {
    /// The token of `header` when its scheme is `Bearer` (in any case, RFC 7235); `nil` for another scheme or none.
    ///
    /// Read from the header's bytes in place, without a copy of the token or a pass over its characters
    /// (Foundation's trimming goes through UTF-16, `String.split` through grapheme clusters, and even a walk of the
    /// `utf8` view checks each index): this runs on every request, and checking a remembered token is only a hash and
    /// a lookup.
    package static func bearerToken(_ header: String?) -> Substring? {
        guard let header else { return nil }
        let found = header.utf8.withContiguousStorageIfAvailable { bytes -> Range<Int>? in
            let space = UInt8(ascii: " ")
            guard bytes.count > 7, bytes[6] == space,
                zip(bytes.prefix(6), "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 })
            else { return nil }
            var start = 7
            while start < bytes.count, bytes[start] == space { start += 1 }
            var end = bytes.count
            while end > start, bytes[end - 1] == space { end -= 1 }
            return start < end ? start..<end : nil
        }
        // A string whose bytes are not contiguous (bridged): a native copy's are.
        guard let found else { return bearerToken(String(decoding: Array(header.utf8), as: UTF8.self)) }
        guard let range = found else { return nil }
        let start = header.utf8.index(header.utf8.startIndex, offsetBy: range.lowerBound)
        return header[start..<header.utf8.index(start, offsetBy: range.count)]
    }
}
