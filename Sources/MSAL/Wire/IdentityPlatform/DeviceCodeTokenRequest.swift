/// Polls the token endpoint for a device code (RFC 8628 §3.4), with the scopes of the start request as
/// MSAL Go and MSAL.NET send them.
struct DeviceCodeTokenRequest: TokenRequest {
    let clientID: String
    let deviceCode: String
    /// The scopes the app asked for; the form carries them decorated with the OpenID scopes.
    let scopes: [String]
    let claims: String?

    var grantType: String { "urn:ietf:params:oauth:grant-type:device_code" }

    var form: [(String, String)] {
        var form = [
            ("grant_type", grantType), ("client_id", clientID), ("device_code", deviceCode), ("client_info", "1"),
            ("scope", Scopes.parameter(scopes)),
        ]
        if let claims { form.append(("claims", claims)) }
        return form
    }
}
