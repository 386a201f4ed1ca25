import Foundation

/// `prompt` on the authorize request.
public enum Prompt: String, Sendable {
    case selectAccount = "select_account"
    case login
    case consent
    case create
    case none
}

/// What an interactive sign-in asks for.
public struct InteractiveParameters: Sendable {
    public var scopes: [String]
    /// `nil` sends no prompt (MSAL's `promptIfNecessary`).
    public var prompt: Prompt?
    public var loginHint: String?
    public var domainHint: String?
    /// A claims request (JSON), e.g. from a claims challenge; merged with the client capabilities.
    public var claims: String?
    /// Extra query parameters for `/authorize`.
    public var extraQueryParameters: [String: String]
    /// Another authority than the app's, e.g. a specific tenant.
    public var authority: Authority?
    /// The browser for this call; the app's by default.
    public var browser: (any BrowserLauncher)?

    public init(scopes: [String], prompt: Prompt? = nil, loginHint: String? = nil) {
        self.scopes = scopes
        self.prompt = prompt
        self.loginHint = loginHint
        extraQueryParameters = [:]
    }
}

/// What a silent token request asks for.
public struct SilentParameters: Sendable {
    public var scopes: [String]
    public var account: Account
    /// Skip the cached access token and use the refresh token.
    public var forceRefresh: Bool
    /// A claims request (JSON): skips the cache and is sent with the refresh.
    public var claims: String?
    /// Another authority than the app's, e.g. a tenant where the account is a guest.
    public var authority: Authority?

    public init(scopes: [String], account: Account, forceRefresh: Bool = false) {
        self.scopes = scopes
        self.account = account
        self.forceRefresh = forceRefresh
    }
}
