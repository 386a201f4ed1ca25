import Foundation

/// A web app's sign-in under way: made by ``ConfidentialClientApplication/startSignIn(_:)``, kept where the
/// browser cannot read or change it (it holds the PKCE verifier and nonce): the user's server-side session, or a
/// cookie encrypted and authenticated with the server's key. It is handed back with the redirect's parameters to
/// ``ConfidentialClientApplication/completeSignIn(_:response:)``.
public struct AuthorizationCodeFlow: Sendable, Codable, Equatable {
    /// Where to redirect the browser: the authorization endpoint with this flow's request.
    public let authorizationURL: URL
    /// The `state` the redirect must carry back.
    public let state: String
    /// The redirect URI the code is sent to, and redeemed with.
    public let redirectURI: String
    /// The scopes asked for (without the OpenID scopes the request adds).
    public let scopes: [String]
    /// The authority the user signs in at.
    public let authority: String
    let nonce: String
    let codeVerifier: String
    let claims: String?
}

/// How the identity platform returns the authorization response to a web app.
public enum ResponseMode: String, Sendable, Codable {
    /// In the redirect URI's query (`GET`).
    case query
    /// In a form posted to the redirect URI (`POST`), which keeps the code out of logs and the
    /// browser's history; what MSAL Python and Microsoft.Identity.Web recommend.
    case formPost = "form_post"
}

/// What a web app's sign-in asks for.
public struct WebSignInParameters: Sendable {
    /// The scopes to request, e.g. `["User.Read"]`; `openid`, `profile` and `offline_access` are added.
    public var scopes: [String]
    /// The web redirect URI; the configuration's ``ConfidentialClientApplicationConfiguration/redirectURI`` when `nil`.
    public var redirectURI: String?
    /// How the response comes back; `nil` lets the identity platform choose (the query).
    public var responseMode: ResponseMode?
    /// `nil` sends no prompt.
    public var prompt: Prompt?
    /// Prefills the username on the sign-in page (`login_hint`).
    public var loginHint: String?
    /// Skips home-realm discovery for this domain (`domain_hint`).
    public var domainHint: String?
    /// A claims request (JSON), e.g. from a claims challenge; merged with the client capabilities.
    public var claims: String?
    /// Another authority than the app's, e.g. a specific tenant.
    public var authority: Authority?

    /// Parameters for a sign-in with the app's authority and redirect URI.
    public init(scopes: [String], redirectURI: String? = nil, responseMode: ResponseMode? = .formPost) {
        self.scopes = scopes
        self.redirectURI = redirectURI
        self.responseMode = responseMode
    }
}
