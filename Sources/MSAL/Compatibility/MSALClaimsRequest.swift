import Foundation

/// A claims request (MSAL's `MSALClaimsRequest`): the JSON of OpenID Connect's `claims` parameter.
public final class MSALClaimsRequest: Sendable {
    private let json: String

    /// - Throws: ``MSALError`` `internal` / `invalidParameter` when the text is not a JSON object.
    public init(jsonString: String) throws {
        guard (try? JSONSerialization.jsonObject(with: Data(jsonString.utf8))) is [String: Any] else {
            throw MSALError.internal(.invalidParameter, "The claims request is not a JSON object.")
        }
        json = jsonString
    }

    public func jsonString() -> String { json }
}
