import Crypto
import Foundation
import IdentityEmulator

/// An authorize request as MSAL builds one: PKCE S256, state, nonce, `client_info=1`.
struct AuthorizationRequest: Sendable {
    var tenant = "organizations"
    var clientID = Directory.DemoIDs.publicClient
    var redirectURI = "http://localhost:53123"
    var scope = "User.Read openid profile offline_access"
    var state = "state-\(UUID().uuidString.prefix(8))"
    var nonce = "nonce-\(UUID().uuidString.prefix(8))"
    var verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    var challengeMethod = "S256"
    var prompt: String?
    var loginHint: String?
    var domainHint: String?
    var responseMode: String?
    var claims: String?

    var challenge: String {
        guard challengeMethod == "S256" else { return verifier }
        return Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    var path: String {
        var fields = [
            ("client_id", clientID), ("response_type", "code"), ("redirect_uri", redirectURI), ("scope", scope),
            ("state", state), ("nonce", nonce), ("code_challenge", challenge),
            ("code_challenge_method", challengeMethod),
            ("client_info", "1"),
        ]
        if let prompt { fields.append(("prompt", prompt)) }
        if let loginHint { fields.append(("login_hint", loginHint)) }
        if let domainHint { fields.append(("domain_hint", domainHint)) }
        if let responseMode { fields.append(("response_mode", responseMode)) }
        if let claims { fields.append(("claims", claims)) }
        return "/\(tenant)/oauth2/v2.0/authorize?" + Form.encode(fields)
    }

    /// The token request redeeming `code`.
    func redemption(code: String) -> [(String, String)] {
        [
            ("client_id", clientID), ("grant_type", "authorization_code"), ("code", code),
            ("redirect_uri", redirectURI),
            ("code_verifier", verifier), ("scope", scope), ("client_info", "1"),
        ]
    }
}

/// Parses the query (or fragment) of a redirect back to the app.
func redirectParameters(_ location: String) -> [String: String] {
    guard let components = URLComponents(string: location) else { return [:] }
    return Form.decode(components.percentEncodedQuery ?? components.percentEncodedFragment ?? "")
}
