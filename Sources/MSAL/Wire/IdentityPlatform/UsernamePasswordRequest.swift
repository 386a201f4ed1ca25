/// The resource owner password credentials grant (RFC 6749 §4.3, `protocol.md` §3.2): the username and password,
/// the decorated scopes and `client_info=1`. The password is sent in this form and kept nowhere else.
struct UsernamePasswordRequest: TokenRequest {
    let clientID: String
    let username: String
    let password: String
    /// The scopes the app asked for; the form carries them decorated with the OpenID scopes.
    let scopes: [String]
    let claims: String?

    var grantType: String { "password" }

    var form: [(String, String)] {
        var form = [
            ("grant_type", grantType), ("client_id", clientID), ("username", username), ("password", password),
            ("scope", Scopes.parameter(scopes)), ("client_info", "1"),
        ]
        if let claims { form.append(("claims", claims)) }
        return form
    }
}
