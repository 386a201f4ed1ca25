import Foundation

/// What a device code sign-in asks for (``PublicClientApplication/acquireTokenByDeviceCode(_:onCode:)``).
public struct DeviceCodeParameters: Sendable {
    /// The scopes to request, e.g. `["User.Read"]`; `openid`, `profile` and `offline_access` are added.
    public var scopes: [String]
    /// Another authority than the app's, e.g. a specific tenant.
    public var authority: Authority?
    /// A claims request (JSON), e.g. from a claims challenge; merged with the client capabilities.
    public var claims: String?
    /// The app's own query parameters for the device code and token endpoints.
    public var extraQueryParameters: [String: String]

    /// Parameters for a device code sign-in with the app's authority.
    public init(scopes: [String]) {
        self.scopes = scopes
        extraQueryParameters = [:]
    }
}
