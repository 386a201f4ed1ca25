import Foundation

/// Settings every call takes (MSAL's `MSALParameters`).
open class MSALParameters {
    /// Where the completion block runs. When `nil`: the main queue for interactive sign-in and
    /// sign-out, MSAL's serial completion queue for everything else ("the queue the response arrived on").
    public var completionBlockQueue: DispatchQueue?

    /// Parameters whose completion block runs on the default queue.
    public init() {}
}

/// What a token request asks for (MSAL's `MSALTokenParameters`).
open class MSALTokenParameters: MSALParameters {
    /// The scopes to request, e.g. `["User.Read"]`; `openid`, `profile` and `offline_access` are added.
    public var scopes: [String]
    /// The account to get a token for.
    public var account: MSALAccount?
    /// Another authority than the app's, e.g. a specific tenant.
    public var authority: MSALAuthority?
    /// Claims to request, e.g. from a claims challenge; a silent request with claims skips cached tokens.
    public var claimsRequest: MSALClaimsRequest?
    /// The app's own query parameters, sent on `/authorize` and the token endpoint (not URL-encoded by the app).
    public var extraQueryParameters: [String: String]?

    /// Parameters for a token for `scopes`.
    public init(scopes: [String]) {
        self.scopes = scopes
    }
}

/// How to sign out (MSAL's `MSALSignoutParameters`).
public final class MSALSignoutParameters: MSALParameters {
    /// Also end the identity provider's browser session by opening its sign-out page (false by default).
    public var signoutFromBrowser = false
    /// The browser that opens the sign-out page.
    public let webviewParameters: MSALWebviewParameters

    /// Sign-out parameters; `webviewParameters` picks the browser that opens the sign-out page.
    public init(webviewParameters: MSALWebviewParameters) {
        self.webviewParameters = webviewParameters
    }
}

/// Which accounts ``MSALPublicClientApplication/accountsFromDevice(for:completionBlock:)`` returns
/// (MSAL's `MSALAccountEnumerationParameters`).
public final class MSALAccountEnumerationParameters: MSALParameters {
    /// The identifier of the account to return (``MSALAccount/identifier``); any when `nil`.
    public var identifier: String?
    /// The username of the account to return (case-insensitive); any when `nil`.
    public var username: String?

    /// All accounts.
    override public init() {}

    /// The account with this identifier.
    public init(identifier: String?) {
        self.identifier = identifier
    }

    /// The account with this identifier and username.
    public init(identifier: String?, username: String) {
        self.identifier = identifier
        self.username = username
    }
}
