import Foundation

/// Settings every call takes (MSAL's `MSALParameters`).
open class MSALParameters {
    /// Where the completion block runs. When `nil`: the main queue for interactive sign-in and
    /// sign-out, MSAL's serial completion queue for everything else ("the queue the response arrived on").
    public var completionBlockQueue: DispatchQueue?

    public init() {}
}

/// What a token request asks for (MSAL's `MSALTokenParameters`).
open class MSALTokenParameters: MSALParameters {
    public var scopes: [String]
    /// The account to get a token for.
    public var account: MSALAccount?
    /// Another authority than the app's, e.g. a specific tenant.
    public var authority: MSALAuthority?
    /// Claims to request, e.g. from a claims challenge; a silent request with claims skips cached tokens.
    public var claimsRequest: MSALClaimsRequest?
    /// Extra query parameters for `/authorize` (interactive sign-in only).
    public var extraQueryParameters: [String: String]?

    public init(scopes: [String]) {
        self.scopes = scopes
    }
}

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
