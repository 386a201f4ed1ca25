import Foundation

/// Finding a run of bytes in UTF-8 text: `memchr` to each occurrence of its first byte, then `memcmp`.
enum ByteSearch {
    /// Where `needle` first occurs in `bytes` at or after `from`; `nil` when it does not (or is empty).
    static func firstIndex(of needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
        guard let base = bytes.baseAddress, let first = needle.first else { return nil }
        let lastStart = bytes.count - needle.count
        var index = from
        while index <= lastStart, let found = memchr(base + index, Int32(first), lastStart + 1 - index) {
            let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + at, needle, needle.count) == 0 { return at }
            index = at + 1
        }
        return nil
    }
}

extension String {
    /// Whether `other` occurs in the string, byte for byte in UTF-8 (``ByteSearch``). Foundation's `contains(_:)`
    /// compares through `NSString`, whose first use costs a command-line start more than the string work itself:
    /// code on that path (an authority's endpoints, a CA bundle's check) tests for its literal markers here.
    package func includes(_ other: String) -> Bool {
        var text = self
        let needle = Array(other.utf8)
        return text.withUTF8 { ByteSearch.firstIndex(of: needle, in: $0) != nil }
    }
}
