import Foundation

/// The authorization request the browser opens (RFC 6749 §4.1.1 with PKCE and OpenID Connect's nonce,
/// `protocol.md` §2.1): response type `code`, `client_info=1`, and the correlation id in the query.
struct AuthorizationRequest: Sendable {
    let clientID: String
    let redirectURI: String
    /// The scopes the app asked for; the query carries them decorated with the OpenID scopes.
    let scopes: [String]
    let state: String
    let nonce: String
    let codeChallenge: String
    let correlationID: UUID
    var prompt: String? = nil
    var loginHint: String? = nil
    var domainHint: String? = nil
    var claims: String? = nil
    /// The app's own parameters, added after MSAL's in name order.
    var extraParameters: [String: String] = [:]

    var query: [(String, String)] {
        var query = [
            ("client_id", clientID), ("response_type", "code"), ("redirect_uri", redirectURI),
            ("scope", Scopes.parameter(scopes)), ("state", state), ("nonce", nonce),
            ("code_challenge", codeChallenge), ("code_challenge_method", PKCE.method), ("client_info", "1"),
            ("client-request-id", correlationID.uuidString.lowercased()),
        ]
        if let prompt { query.append(("prompt", prompt)) }
        if let loginHint { query.append(("login_hint", loginHint)) }
        if let domainHint { query.append(("domain_hint", domainHint)) }
        if let claims { query.append(("claims", claims)) }
        return query + ExtraQueryParameters.pairs(extraParameters)
    }

    /// The authorization endpoint with this request as its query.
    func url(endpoint: URL) -> URL {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = FormEncoding.encode(query)
        return components.url!
    }
}
