import Foundation

/// How large, and how deeply nested, JSON from outside the process may be: tokens, protocol answers, request bodies
/// and files. Every parser of such JSON checks it first, because the parsers read nesting by recursion: an object
/// nested twenty thousand levels deep would overflow the stack of the thread that reads it.
///
///     let object = try JSONLimits.message.object(body)   // throws JSONRefusal
///
/// The depth is checked by one pass over the bytes, without recursion, before any parser sees them
/// (``check(_:)-(UnsafeRawBufferPointer)``); a reader that tracks nesting itself checks ``maximumDepth`` as it goes
/// and only the size here (``checkSize(_:)``).
package struct JSONLimits: Sendable {
    /// The deepest nesting accepted: 64 objects and arrays open at once, for every kind of input.
    package static let maximumDepth = 64

    /// The most bytes accepted.
    package let maximumBytes: Int

    /// Tokens, protocol answers and request bodies: 250 KiB, Microsoft.IdentityModel's default maximum token size.
    package static let message = JSONLimits(maximumBytes: 250 << 10)
    /// Files written by this software or its peers (a token cache, the emulator's directory): 256 MiB.
    package static let file = JSONLimits(maximumBytes: 256 << 20)

    /// Limits of `maximumBytes` bytes and ``maximumDepth`` levels.
    package init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// Fails when `count` bytes are more than ``maximumBytes``.
    ///
    /// - Throws: ``JSONRefusal/tooLarge(bytes:limit:)``.
    package func checkSize(_ count: Int) throws(JSONRefusal) {
        guard count <= maximumBytes else { throw .tooLarge(bytes: count, limit: maximumBytes) }
    }

    /// Fails when `data` is larger than ``maximumBytes`` or nests deeper than ``maximumDepth``.
    ///
    /// - Throws: ``JSONRefusal/tooLarge(bytes:limit:)`` or ``JSONRefusal/tooDeep(offset:)``.
    package func check(_ data: Data) throws(JSONRefusal) {
        try checkSize(data.count)
        let result: Result<Void, JSONRefusal> = data.withUnsafeBytes { bytes in
            Result { () throws(JSONRefusal) in try Self.checkDepth(bytes) }
        }
        try result.get()
    }

    /// Fails when `bytes` are more than ``maximumBytes`` or nest deeper than ``maximumDepth``.
    ///
    /// - Throws: ``JSONRefusal/tooLarge(bytes:limit:)`` or ``JSONRefusal/tooDeep(offset:)``.
    package func check(_ bytes: UnsafeRawBufferPointer) throws(JSONRefusal) {
        try checkSize(bytes.count)
        try Self.checkDepth(bytes)
    }

    /// Counts the objects and arrays open at each byte, outside strings; the bytes need not be valid JSON (the
    /// parser that follows judges that), so a stray closing bracket counts as nothing.
    private static func checkDepth(_ bytes: UnsafeRawBufferPointer) throws(JSONRefusal) {
        var depth = 0
        var index = 0
        let count = bytes.count
        while index < count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                guard depth <= maximumDepth else { throw .tooDeep(offset: index) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth = max(depth - 1, 0)
            default: break
            }
            index += 1
        }
    }
}
