import Foundation

/// What a username and password sign-in asks for
/// (``PublicClientApplication/acquireTokenByUsernamePassword(_:)``).
///
/// A legacy grant (resource owner password credentials): no multi-factor authentication, no personal Microsoft
/// accounts, no federated users (their password is checked by their organisation's identity provider). Its
/// description and reflection hide the password and the username.
public struct UsernamePasswordParameters: Sendable, CustomStringConvertible, CustomReflectable {
    /// The scopes to request, e.g. `["User.Read"]`; `openid`, `profile` and `offline_access` are added.
    public var scopes: [String]
    /// The user's sign-in name, e.g. `megan@contoso.com`.
    public var username: String
    /// The user's password; sent once to the token endpoint and kept nowhere.
    public var password: String
    /// Another authority than the app's, e.g. a specific tenant.
    public var authority: Authority?
    /// A claims request (JSON); merged with the client capabilities.
    public var claims: String?
    /// The app's own query parameters for the token endpoint.
    public var extraQueryParameters: [String: String]

    /// Parameters for a sign-in with the app's authority.
    public init(scopes: [String], username: String, password: String) {
        self.scopes = scopes
        self.username = username
        self.password = password
        extraQueryParameters = [:]
    }

    /// The scopes and authority; the username and password hidden.
    public var description: String {
        "UsernamePasswordParameters(scopes: \(scopes), authority: \(authority?.description ?? "the app's"))"
    }

    /// The same as ``description``'s fields, so `dump` shows no password either.
    public var customMirror: Mirror {
        Mirror(self, children: ["scopes": scopes, "authority": authority as Any], displayStyle: .struct)
    }
}
