/// Exchanges the token a web API received for a token to a downstream API on the same user's behalf
/// (on-behalf-of: the JWT bearer grant of RFC 7523 §2.1 with `requested_token_use=on_behalf_of`), for the
/// decorated scopes and with `client_info=1`, as every MSAL sends it. Client authentication is added by
/// the client.
struct OnBehalfOfRequest: TokenRequest {
    let clientID: String
    /// The access token the API received, sent as it came.
    let assertion: String
    let scopes: [String]
    let claims: String?

    var grantType: String { "urn:ietf:params:oauth:grant-type:jwt-bearer" }

    var form: [(String, String)] {
        var form = [
            ("client_id", clientID), ("grant_type", grantType), ("assertion", assertion),
            ("requested_token_use", "on_behalf_of"), ("scope", Scopes.parameter(scopes)), ("client_info", "1"),
        ]
        if let claims { form.append(("claims", claims)) }
        return form
    }
}
