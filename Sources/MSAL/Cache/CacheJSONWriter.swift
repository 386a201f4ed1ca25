import Foundation

/// Writes the token cache as JSON into one growing buffer, indented like MSAL Python's
/// `json.dumps(indent=4)`, with strings copied whole unless they need escapes. The buffer becomes
/// the returned `Data` without a copy. A 50 MB cache otherwise spends more time faulting in fresh
/// pages than writing JSON, so the buffer comes from (and, once the `Data` is gone, returns to)
/// ``SerializationBuffers`` when given, and large new buffers ask for huge pages.
struct CacheJSONWriter: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var count = 0
    private var depth = 0
    private var lastByte: UInt8 = 0

    /// - Parameters:
    ///   - capacity: the expected size; the buffer grows past it when needed.
    ///   - buffers: where to take a kept buffer from.
    init(capacity: Int, buffers: SerializationBuffers? = nil) {
        if let kept = buffers?.take(atLeast: max(capacity, 64)) {
            (base, self.capacity) = kept
        } else {
            self.capacity = max(capacity, 64)
            base = Self.allocate(self.capacity)
        }
    }

    deinit { free(base) }

    /// The JSON written, handing the buffer over.
    /// - Parameter buffers: gets the buffer back once the `Data` is gone; freed when `nil`.
    consuming func data(returningTo buffers: SerializationBuffers? = nil) -> Data {
        let (base, count, capacity) = (base, count, capacity)
        discard self
        guard let buffers else { return Data(bytesNoCopy: base, count: count, deallocator: .free) }
        return Data(
            bytesNoCopy: base, count: count,
            deallocator: .custom { pointer, _ in buffers.giveBack(pointer, capacity: capacity) })
    }

    /// An object whose members `body` writes with ``member(_:_:)``.
    mutating func object(_ body: (inout CacheJSONWriter) -> Void) {
        append(UInt8(ascii: "{"))
        depth += 1
        let mark = count
        body(&self)
        depth -= 1
        if count != mark { newline() }
        append(UInt8(ascii: "}"))
    }

    /// A member; `value` writes its value.
    mutating func member(_ key: String, _ value: (inout CacheJSONWriter) -> Void) {
        if lastByte != UInt8(ascii: "{") { append(UInt8(ascii: ",")) }
        newline()
        string(key)
        append(UInt8(ascii: ":"))
        append(UInt8(ascii: " "))
        value(&self)
    }

    mutating func member(_ key: String, _ value: String) { member(key) { $0.string(value) } }

    /// A member copied as it is: `rawKey` is a JSON string's content (escapes included), `rawValue` a JSON value.
    mutating func member(rawKey: UnsafeRawBufferPointer, rawValue: UnsafeRawBufferPointer) {
        if lastByte != UInt8(ascii: "{") { append(UInt8(ascii: ",")) }
        newline()
        append(UInt8(ascii: "\""))
        append(rawKey)
        append(UInt8(ascii: "\""))
        append(UInt8(ascii: ":"))
        append(UInt8(ascii: " "))
        append(rawValue)
    }

    mutating func value(_ value: CacheValue) {
        switch value {
        case .string(let s): string(s)
        case .number(let d): append(CacheValue.text(of: d))
        case .bool(let b): append(b ? "true" : "false")
        case .null: append("null")
        case .array(let items):
            append(UInt8(ascii: "["))
            for (offset, item) in items.enumerated() {
                if offset > 0 { append(UInt8(ascii: ",")) }
                self.value(item)
            }
            append(UInt8(ascii: "]"))
        case .object(let members):
            object { writer in
                for key in members.keys.sorted() { writer.member(key) { $0.value(members[key]!) } }
            }
        }
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            append(UInt8(ascii: "\""))
            if !ByteWords.needJSONEscaping(UnsafeRawBufferPointer(utf8)) {
                append(UnsafeRawBufferPointer(utf8))
            } else {
                for byte in utf8 { escape(byte) }
            }
            append(UInt8(ascii: "\""))
        }
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append(#"\""#)
        case UInt8(ascii: "\\"): append(#"\\"#)
        case 0x0A: append(#"\n"#)
        case 0x0D: append(#"\r"#)
        case 0x09: append(#"\t"#)
        case 0..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            append(#"\u00"#)
            append(hex[Int(byte >> 4)])
            append(hex[Int(byte & 0xF)])
        default: append(byte)
        }
    }

    private mutating func newline() {
        let width = depth * 4
        reserve(1 + width)
        base.storeBytes(of: 0x0A, toByteOffset: count, as: UInt8.self)
        (base + count + 1).initializeMemory(as: UInt8.self, repeating: UInt8(ascii: " "), count: width)
        count += 1 + width
        lastByte = width == 0 ? 0x0A : UInt8(ascii: " ")
    }

    private mutating func append(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
        lastByte = byte
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
        lastByte = bytes[bytes.count - 1]
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = max(capacity * 2, count + extra)
        let bigger = Self.allocate(grown)
        bigger.copyMemory(from: base, byteCount: count)
        free(base)
        base = bigger
        capacity = grown
    }

    /// `malloc`ed memory; 2 MB-aligned with a huge-page hint when large.
    private static func allocate(_ size: Int) -> UnsafeMutableRawPointer {
        let hugePage = 2 << 20
        guard size >= 4 * hugePage else { return malloc(size)! }
        var pointer: UnsafeMutableRawPointer?
        guard posix_memalign(&pointer, hugePage, size) == 0, let pointer else { return malloc(size)! }
        #if os(Linux)
            _ = madvise(pointer, size, MADV_HUGEPAGE)
        #endif
        return pointer
    }
}
