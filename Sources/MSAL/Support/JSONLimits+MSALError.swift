import Foundation
import OutsideJSON

extension JSONLimits {
    /// The JSON object of an answer from outside the process, or, when it holds none (too large, too deep, not JSON,
    /// not an object), an ``MSALError`` of `reason` whose message `describe` makes from the refusal and which keeps
    /// the refusal as its underlying error.
    ///
    ///     let object = try JSONLimits.message.object(data) { "The token response \($0)." }
    ///
    /// - Throws: ``MSALError`` `reason` (`invalidResponse` unless given).
    func object(
        _ data: Data, refusedAs reason: MSALError.InternalCode = .invalidResponse,
        _ describe: (JSONRefusal) -> String
    ) throws(MSALError) -> [String: Any] {
        try Self.refusing(reason, describe) { () throws(JSONRefusal) in try object(data) }
    }

    /// The members of an answer's JSON object as ``CacheValue``s (``members(_:)``), refused as ``object(_:refusedAs:_:)``
    /// refuses.
    ///
    /// - Throws: ``MSALError`` `reason` (`invalidResponse` unless given).
    func members(
        _ data: Data, refusedAs reason: MSALError.InternalCode = .invalidResponse,
        _ describe: (JSONRefusal) -> String
    ) throws(MSALError) -> [String: CacheValue] {
        try Self.refusing(reason, describe) { () throws(JSONRefusal) in try members(data) }
    }

    private static func refusing<T>(
        _ reason: MSALError.InternalCode, _ describe: (JSONRefusal) -> String, _ read: () throws(JSONRefusal) -> T
    ) throws(MSALError) -> T {
        do {
            return try read()
        } catch {
            throw MSALError.internal(reason, describe(error), underlyingError: error)
        }
    }
}
