import Foundation

extension JSONLimits {
    /// The JSON object `data` holds (Foundation's `JSONSerialization`), once the limits are checked.
    ///
    /// - Throws: ``JSONRefusal``: too large, too deep, not JSON, or not an object.
    package func object(_ data: Data) throws(JSONRefusal) -> [String: Any] {
        try check(data)
        let value: Any
        do { value = try JSONSerialization.jsonObject(with: data) } catch { throw .notJSON }
        guard let object = value as? [String: Any] else { throw .notAnObject }
        return object
    }

    /// `type` decoded from `data` (Foundation's `JSONDecoder`), once the limits are checked.
    ///
    /// - Throws: ``JSONRefusal`` when the limits are exceeded, else what the decoder throws (a `DecodingError`).
    package func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try check(data)
        return try JSONDecoder().decode(type, from: data)
    }
}
