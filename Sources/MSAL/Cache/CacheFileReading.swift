import Foundation

/// Reads the top-level object of a cache file into ``UnifiedCacheFormat/Contents``: section by section,
/// entry by entry (``StoredEntryScanner`` first, ``CacheEntryReader`` for what it does not take).
///
/// A large file written indented (as MSAL Python and this library write it) can be read in two halves
/// at once: the ``head`` up to an entry past the middle, the ``tail`` from it. The halves are used only
/// if the head stops exactly at that entry, in the section the tail assumed; then they are the whole
/// object read in one piece, cut in two.
struct CacheFileReading {
    /// Where to cut: an entry's key near the middle of the file's lines, and the section it belongs to.
    struct Split {
        let entry: Int
        let section: String

        /// Found from indentation: a newline is never inside a JSON string, so a newline followed by
        /// twice the first member's indentation and a quote starts an entry. The section is told by the
        /// entry (its credential type, or its key), and the head's read confirms it.
        init?(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count >= 1 << 20, bytes[0] == UInt8(ascii: "{"), bytes[1] == UInt8(ascii: "\n") else {
                return nil
            }
            var indent = 0
            while indent < 64, bytes[2 + indent] == UInt8(ascii: " ") { indent += 1 }
            guard indent > 0, bytes[2 + indent] == UInt8(ascii: "\"") else { return nil }
            let marker =
                [UInt8(ascii: "\n")] + Array(repeating: UInt8(ascii: " "), count: 2 * indent) + [UInt8(ascii: "\"")]
            guard let line = Self.firstLine(starting: marker, in: bytes, from: Self.middleLine(bytes)) else {
                return nil
            }
            var reader = CacheJSONReader(bytes)
            reader.position = line + marker.count - 1
            guard let key = try? reader.memberKey().string, case .object(let fields)? = try? reader.value() else {
                return nil
            }
            let credentialType = fields.first { $0.key.equalsIgnoringCase("credential_type") }?
                .value
            if case .string(let type)? = credentialType,
                let section = UnifiedCacheFormat.sections.first(where: {
                    $0.equalsIgnoringCase(type)
                })
            {
                self.section = section
            } else {
                section = key.lowercased().hasPrefix("appmetadata-") ? "AppMetadata" : "Account"
            }
            entry = line + marker.count - 1
        }

        /// About where half the file's lines (one field each, and fields cost more than bytes) lie behind,
        /// from the newlines in 32 samples of 16 KB.
        private static func middleLine(_ bytes: UnsafeRawBufferPointer) -> Int {
            let samples = 32
            let stride = bytes.count / samples
            let counts = (0..<samples).map { sample in
                UnsafeRawBufferPointer(rebasing: bytes[sample * stride..<sample * stride + min(16 << 10, stride)])
                    .reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            }
            var remaining = counts.reduce(0, +) / 2
            for (sample, count) in counts.enumerated() {
                if count >= remaining, count > 0 { return sample * stride + stride * remaining / count }
                remaining -= count
            }
            return bytes.count / 2
        }

        /// The offset of the first newline from `start` that `marker` begins.
        private static func firstLine(starting marker: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int)
            -> Int?
        {
            guard let base = bytes.baseAddress else { return nil }
            var offset = start
            while offset < bytes.count,
                let newline = memchr(base + offset, Int32(UInt8(ascii: "\n")), bytes.count - offset)
            {
                let found = base.distance(to: newline)
                if bytes.count - found >= marker.count, memcmp(newline, marker, marker.count) == 0 { return found }
                offset = found + 1
            }
            return nil
        }
    }

    private var contents = UnifiedCacheFormat.Contents()
    private var entries = CacheEntryReader()
    private var scanner = StoredEntryScanner()
    /// Where to stop: before the entry at `split.entry`.
    private let split: Split?

    private init(split: Split?) { self.split = split }

    /// The whole file.
    ///
    /// - Throws: ``CacheJSONReader/Malformed`` when the bytes are not a JSON object.
    static func whole(_ bytes: UnsafeRawBufferPointer) throws -> UnifiedCacheFormat.Contents {
        var reading = CacheFileReading(split: nil)
        var reader = CacheJSONReader(bytes)
        _ = try reading.sections(&reader)
        return reading.contents
    }

    /// The members before `split`; `nil` unless reading stops exactly there, inside the split's section.
    static func head(_ bytes: UnsafeRawBufferPointer, stoppingAt split: Split) throws -> UnifiedCacheFormat.Contents? {
        var reading = CacheFileReading(split: split)
        var reader = CacheJSONReader(bytes)
        return try reading.sections(&reader) == split.section ? reading.contents : nil
    }

    /// The members from `split` to the end: the rest of its section, then the sections after it.
    static func tail(_ bytes: UnsafeRawBufferPointer, from split: Split) throws -> UnifiedCacheFormat.Contents {
        var reading = CacheFileReading(split: nil)
        var reader = CacheJSONReader(bytes)
        reader.position = split.entry
        reader.depth = 2  // inside the top-level object and the section
        _ = try reading.entries(of: split.section, &reader)
        while try reader.nextMember() { _ = try reading.section(try reader.memberKey().string, &reader) }
        try reader.finish()
        return reading.contents
    }

    /// Reads the top-level object; the name of the section it stopped in at the split, if it did.
    private mutating func sections(_ reader: inout CacheJSONReader) throws -> String? {
        guard reader.nextIsObject() else { throw CacheJSONReader.Malformed(offset: 0, reason: "not a JSON object") }
        if try reader.openObject() {
            repeat {
                if let stopped = try section(try reader.memberKey().string, &reader) { return stopped }
            } while try reader.nextMember()
        }
        try reader.finish()
        return nil
    }

    /// Reads one member of the top-level object: a section of entries, or anything else, kept.
    private mutating func section(_ name: String, _ reader: inout CacheJSONReader) throws -> String? {
        guard
            let canonical = UnifiedCacheFormat.sections.first(where: { $0.equalsIgnoringCase(name) }
            ), reader.nextIsObject()
        else {
            contents.unknownSections[name] = try reader.value()
            return nil
        }
        guard try reader.openObject() else { return nil }
        return try entries(of: canonical, &reader) ? canonical : nil
    }

    /// Reads a section's entries up to its `}`; true when it stopped before the entry at the split instead.
    private mutating func entries(of canonical: String, _ reader: inout CacheJSONReader) throws -> Bool {
        let section: StoredEntryScanner.Section =
            switch canonical {
            case "AccessToken": .accessToken
            case "RefreshToken": .refreshToken
            case "IdToken": .idToken
            case "Account": .account
            default: .appMetadata
            }
        var stored: [StoredEntryScanner.Found] = []
        defer { contents.stored.append(stored, to: section) }
        repeat {
            if let split, reader.nextValueOffset() == split.entry { return true }
            let key = try reader.memberKey()
            guard reader.nextIsObject() else {
                contents.opaqueEntries[canonical, default: [:]][key.string] = try reader.value()
                continue
            }
            let start = reader.position
            if let found = scanner.scan(&reader, section, key: key) {
                stored.append(found)
                continue
            }
            try entries.read(&reader)
            if !contents.append(entries, to: section) {
                reader.position = start
                contents.opaqueEntries[canonical, default: [:]][key.string] = try reader.value()
            }
        } while try reader.nextMember()
        return false
    }
}
