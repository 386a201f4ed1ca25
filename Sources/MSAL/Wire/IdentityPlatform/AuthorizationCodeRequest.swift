/// Redeems an authorization code (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.5): the same redirect URI and
/// decorated scopes as the authorization request, and `client_info=1` for the account's identifiers.
struct AuthorizationCodeRequest: TokenRequest {
    let clientID: String
    let code: String
    let redirectURI: String
    let codeVerifier: String
    /// The scopes the app asked for; the form carries them decorated with the OpenID scopes.
    let scopes: [String]
    let claims: String?

    var grantType: String { "authorization_code" }

    var form: [(String, String)] {
        var form = [
            ("client_id", clientID), ("grant_type", grantType), ("code", code), ("redirect_uri", redirectURI),
            ("code_verifier", codeVerifier), ("scope", Scopes.parameter(scopes)),
            ("client_info", "1"),
        ]
        if let claims { form.append(("claims", claims)) }
        return form
    }
}
