import Foundation

/// `prompt` on the authorize request.
public enum Prompt: String, Sendable {
    /// Lets the user pick one of the accounts signed in to the browser (`select_account`).
    case selectAccount = "select_account"
    /// Asks for credentials even when the browser has a session (`login`).
    case login
    /// Asks for consent even when it was granted before (`consent`).
    case consent
    /// Shows the sign-up page instead of sign-in (`create`, for External ID tenants).
    case create
    /// Fails with `interaction_required` rather than show any page (`none`).
    case none
}

/// What an interactive sign-in asks for.
public struct InteractiveParameters: Sendable {
    /// The scopes to request, e.g. `["User.Read"]`; `openid`, `profile` and `offline_access` are added.
    public var scopes: [String]
    /// `nil` sends no prompt (MSAL's `promptIfNecessary`).
    public var prompt: Prompt?
    /// Prefills the username on the sign-in page (`login_hint`).
    public var loginHint: String?
    /// Skips home-realm discovery for this domain (`domain_hint`).
    public var domainHint: String?
    /// A claims request (JSON), e.g. from a claims challenge; merged with the client capabilities.
    public var claims: String?
    /// The app's own query parameters, sent on `/authorize` and on the token request that redeems the code (as
    /// MSAL.NET and MSAL for iOS/macOS send them).
    public var extraQueryParameters: [String: String]
    /// Scopes of other resources the user consents to in the same sign-in (MSAL's `extraScopesToConsent`): added to
    /// the authorization request's scope; the token is for ``scopes``, as with every MSAL. A silent request for
    /// these scopes later needs no consent page.
    public var extraScopesToConsent: [String]
    /// Another authority than the app's, e.g. a specific tenant.
    public var authority: Authority?
    /// The browser for this call; the app's by default.
    public var browser: (any BrowserLauncher)?

    /// Parameters for an interactive sign-in with the app's authority and browser.
    public init(scopes: [String], prompt: Prompt? = nil, loginHint: String? = nil) {
        self.scopes = scopes
        self.prompt = prompt
        self.loginHint = loginHint
        extraQueryParameters = [:]
        extraScopesToConsent = []
    }
}

/// What a silent token request asks for.
public struct SilentParameters: Sendable {
    /// The scopes to request; `openid`, `profile` and `offline_access` are added.
    public var scopes: [String]
    /// The account to get a token for, from ``PublicClientApplication/accounts()`` or an earlier result.
    public var account: Account
    /// Skip the cached access token and use the refresh token.
    public var forceRefresh: Bool
    /// A claims request (JSON): skips the cache and is sent with the refresh.
    public var claims: String?
    /// Another authority than the app's, e.g. a tenant where the account is a guest.
    public var authority: Authority?
    /// The id the request carries (`client-request-id`) and the result reports; a new one when `nil`.
    public var correlationID: UUID?
    /// The app's own query parameters for the token endpoint, when the refresh token is redeemed.
    public var extraQueryParameters: [String: String]

    /// Parameters for a silent token request with the app's authority.
    public init(scopes: [String], account: Account, forceRefresh: Bool = false) {
        self.scopes = scopes
        self.account = account
        self.forceRefresh = forceRefresh
        extraQueryParameters = [:]
    }
}
