import Foundation
import OutsideJSON

extension CacheValue {
    /// The JSON value `data` holds, read with ``CacheJSONReader`` within ``JSONLimits/file``'s size.
    ///
    /// - Throws: ``JSONRefusal`` when the data is too large, ``CacheJSONReader/Malformed`` when it is not JSON.
    package init(json data: Data) throws {
        try JSONLimits.file.checkSize(data.count)
        self = try data.withUnsafeBytes { bytes in
            var reader = CacheJSONReader(bytes)
            let value = try reader.value()
            try reader.finish()
            return value
        }
    }

    /// The value as JSON, written as the token cache is (members sorted, indented).
    var json: Data {
        var writer = CacheJSONWriter(capacity: 4096)
        writer.value(self)
        return writer.data()
    }
}
