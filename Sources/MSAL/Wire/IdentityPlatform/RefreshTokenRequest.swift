/// Redeems a refresh token (RFC 6749 §6) for the decorated scopes, with `client_info=1`.
struct RefreshTokenRequest: TokenRequest {
    let clientID: String
    let refreshToken: String
    /// The scopes the app asked for; the form carries them decorated with the OpenID scopes.
    let scopes: [String]
    let claims: String?

    var grantType: String { "refresh_token" }

    var form: [(String, String)] {
        var form = [
            ("client_id", clientID), ("grant_type", grantType), ("refresh_token", refreshToken),
            ("scope", Scopes.parameter(scopes)), ("client_info", "1"),
        ]
        if let claims { form.append(("claims", claims)) }
        return form
    }
}
