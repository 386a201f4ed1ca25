import Foundation
import OutsideJSON

extension CacheValue {
    /// The JSON value `data` holds, read with ``CacheJSONReader`` within ``JSONLimits/file``'s size.
    ///
    /// - Throws: ``JSONRefusal`` when the data is too large, ``CacheJSONReader/Malformed`` when it is not JSON.
    package init(json data: Data) throws {
        self = try data.withUnsafeBytes { try Self(jsonBytes: $0) }
    }

    /// The JSON value `text` holds, read from its own UTF-8 bytes: `Data(text.utf8)` would cast them to
    /// `ContiguousBytes`, a search of every conformance in the binary the first time.
    ///
    /// - Throws: as the reading of `Data` does.
    package init(json text: String) throws {
        var text = text
        self = try text.withUTF8 { try Self(jsonBytes: UnsafeRawBufferPointer($0)) }
    }

    private init(jsonBytes bytes: UnsafeRawBufferPointer) throws {
        try JSONLimits.file.checkSize(bytes.count)
        var reader = CacheJSONReader(bytes)
        self = try reader.value()
        try reader.finish()
    }

    /// The value as JSON, written as the token cache is (members sorted, indented).
    var json: Data {
        var writer = CacheJSONWriter(capacity: 4096)
        writer.value(self)
        return writer.data()
    }
}

extension JSONLimits {
    /// The members of the JSON object `data` holds, read with ``CacheJSONReader`` within the limits: what
    /// `object(_:)` gives without `JSONSerialization`, whose values must then be cast out of `Any`.
    ///
    /// - Throws: ``JSONRefusal``: too large, too deep, not JSON, or not an object.
    package func members(_ data: Data) throws(JSONRefusal) -> [String: CacheValue] {
        // The reader counts nesting itself and stops at the first level too deep: only the size is checked first.
        try checkSize(data.count)
        let value: CacheValue
        do {
            value = try CacheValue(json: data)
        } catch let malformed as CacheJSONReader.Malformed where malformed.isTooDeep {
            throw .tooDeep(offset: malformed.offset)
        } catch {
            throw .notJSON
        }
        guard case .object(let members) = value else { throw .notAnObject }
        return members
    }
}
