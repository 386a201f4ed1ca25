/// Starts the device authorization grant (RFC 8628 §3.1) at the device code endpoint.
struct DeviceAuthorizationRequest: Sendable {
    let clientID: String
    /// The scopes the app asked for; the form carries them decorated with the OpenID scopes.
    let scopes: [String]
    let claims: String?

    var form: [(String, String)] {
        var form = [("client_id", clientID), ("scope", Scopes.parameter(scopes))]
        if let claims { form.append(("claims", claims)) }
        return form
    }
}
