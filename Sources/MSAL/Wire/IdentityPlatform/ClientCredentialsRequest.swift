/// Asks for an app-only token (RFC 6749 §4.4): the scopes exactly as given (one resource's
/// `/.default`), without the OpenID scopes, as MSAL Python sends them. Client authentication is added
/// by the client.
struct ClientCredentialsRequest: TokenRequest {
    let clientID: String
    let scopes: [String]
    let claims: String?

    var grantType: String { "client_credentials" }

    var form: [(String, String)] {
        var form = [("client_id", clientID), ("grant_type", grantType), ("scope", scopes.joined(separator: " "))]
        if let claims { form.append(("claims", claims)) }
        return form
    }
}
