import Foundation
import OutsideJSON

/// A claims request (MSAL's `MSALClaimsRequest`): the JSON of OpenID Connect's `claims` parameter.
public final class MSALClaimsRequest: Sendable {
    private let json: String

    /// A claims request from its JSON text, e.g. a claims challenge's.
    ///
    /// - Throws: ``MSALError`` `internal` / `invalidParameter` when the text is not a JSON object.
    public init(jsonString: String) throws {
        guard (try? JSONLimits.message.object(Data(jsonString.utf8))) != nil else {
            throw MSALError.internal(.invalidParameter, "The claims request is not a JSON object.")
        }
        json = jsonString
    }

    /// The claims request's JSON text.
    public func jsonString() -> String { json }
}
