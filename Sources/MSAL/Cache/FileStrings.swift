import Foundation

/// Strings made from one field's bytes, entry after entry, the previous one reused when the bytes
/// repeat (most entries of a file share a client, a tenant, an environment). The bytes must stay valid
/// while this is used.
struct FileStrings {
    private var previous: (raw: UnsafeRawBufferPointer, string: String)?

    /// - Parameter raw: the bytes; `nil` for an absent field (an empty string).
    mutating func string(_ raw: UnsafeRawBufferPointer?) -> String {
        guard let raw else { return "" }
        if let previous, previous.raw.count == raw.count,
            raw.isEmpty || memcmp(previous.raw.baseAddress!, raw.baseAddress!, raw.count) == 0
        {
            return previous.string
        }
        let string = String(decoding: raw, as: UTF8.self)
        previous = (raw, string)
        return string
    }
}
