import Locking

/// Lower-case GUID text from 16 bytes, without `String(format:)` (it runs on every request).
enum GUIDText {
    private static let digits = Array("0123456789abcdef".utf8)

    static func from(_ bytes: some Collection<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (i, byte) in bytes.prefix(16).enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Trace and request IDs only correlate log lines (they guard nothing), so a generator seeded once
    /// serves them without a system call per request, and without taking from a seeded run's sequence.
    private static let traceGenerator: Locked<SeededRandom> = {
        var system = SystemRandomNumberGenerator()
        return Locked(SeededRandom(seed: system.next()))
    }()

    /// A random (version 4) GUID for trace and request IDs.
    static func random() -> String { traceGenerator.withLock { $0.guid() } }
}
