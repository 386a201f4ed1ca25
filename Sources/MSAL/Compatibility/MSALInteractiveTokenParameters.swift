import Foundation

/// The `prompt` of an interactive sign-in (MSAL's `MSALPromptType`).
public enum MSALPromptType: Int, Sendable {
    /// Lets the user pick one of the accounts signed in to the browser (`select_account`).
    case selectAccount
    /// Asks for credentials even when the browser has a session (`login`).
    case login
    /// Asks for consent even when it was granted before (`consent`).
    case consent
    /// Shows the sign-up page instead of sign-in (`create`, for External ID tenants).
    case create
    /// No prompt parameter: the identity provider asks only when it must.
    case promptIfNecessary

    /// `promptIfNecessary`.
    public static let `default` = MSALPromptType.promptIfNecessary

    var prompt: Prompt? {
        switch self {
        case .selectAccount: .selectAccount
        case .login: .login
        case .consent: .consent
        case .create: .create
        case .promptIfNecessary: nil
        }
    }
}

/// What an interactive sign-in asks for (MSAL's `MSALInteractiveTokenParameters`).
open class MSALInteractiveTokenParameters: MSALTokenParameters {
    /// `.promptIfNecessary` by default.
    public var promptType = MSALPromptType.default
    /// Pre-fills the username on the sign-in page.
    public var loginHint: String?
    /// Skips home-realm discovery for this domain (`domain_hint`).
    public var domainHint: String?
    /// Scopes of other resources the user consents to in the same sign-in; the token is for `scopes`.
    public var extraScopesToConsent: [String]?
    /// How the sign-in page is shown: on Linux, which browser opens it.
    public var webviewParameters: MSALWebviewParameters

    /// Parameters for an interactive sign-in in the given browser.
    public init(scopes: [String], webviewParameters: MSALWebviewParameters) {
        self.webviewParameters = webviewParameters
        super.init(scopes: scopes)
    }

    /// Without webview parameters (MSAL 1.x, the 2019 tutorials): the app's browser launcher.
    override public convenience init(scopes: [String]) {
        self.init(scopes: scopes, webviewParameters: MSALWebviewParameters())
    }

    /// The core parameters.
    func coreParameters() -> InteractiveParameters {
        var parameters = InteractiveParameters(
            scopes: scopes, prompt: promptType.prompt, loginHint: loginHint ?? account?.username)
        parameters.domainHint = domainHint
        parameters.claims = claimsRequest?.jsonString()
        parameters.extraQueryParameters = extraQueryParameters ?? [:]
        parameters.extraScopesToConsent = extraScopesToConsent ?? []
        parameters.authority = authority?.authority
        parameters.browser = webviewParameters.browserLauncher
        return parameters
    }
}

/// What a silent token request asks for (MSAL's `MSALSilentTokenParameters`).
open class MSALSilentTokenParameters: MSALTokenParameters {
    /// Skip the cached access token and use the refresh token.
    public var forceRefresh = false

    /// Parameters for a silent request for `account`'s token.
    public init(scopes: [String], account: MSALAccount) {
        super.init(scopes: scopes)
        self.account = account
    }

    /// The core parameters.
    ///
    /// - Throws: ``MSALError`` `interactionRequired` without an account, as MSAL does.
    func coreParameters() throws -> SilentParameters {
        guard let account else {
            throw MSALError(
                .interactionRequired, internalCode: .accountRequired, "No account provided for the silent request.")
        }
        var parameters = SilentParameters(scopes: scopes, account: account.account, forceRefresh: forceRefresh)
        parameters.claims = claimsRequest?.jsonString()
        parameters.authority = authority?.authority
        parameters.extraQueryParameters = extraQueryParameters ?? [:]
        return parameters
    }
}
