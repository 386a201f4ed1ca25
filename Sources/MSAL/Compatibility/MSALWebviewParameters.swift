import Foundation

/// How the sign-in page is shown (MSAL's `MSALWebviewParameters`). On Linux there is no web view:
/// the page opens in a browser and the redirect comes back to a loopback listener.
public final class MSALWebviewParameters {
    /// The browser for this call; the app's ``MSALPublicClientApplicationConfig/browserLauncher``
    /// (the system browser unless configured) when `nil`.
    public var browserLauncher: (any BrowserLauncher)?

    /// The app's browser launcher.
    public init() {}

    /// Takes the object that would present the web view (a view controller on iOS). Any object is
    /// accepted; when it is a ``BrowserLauncher`` it opens the pages, otherwise the app's launcher does.
    public init(authPresentationViewController: Any) {
        browserLauncher = authPresentationViewController as? any BrowserLauncher
    }
}

/// How to sign out (MSAL's `MSALSignoutParameters`).
public final class MSALSignoutParameters: MSALParameters {
    /// Also end the identity provider's browser session by opening its sign-out page (false by default).
    public var signoutFromBrowser = false
    /// The browser that opens the sign-out page.
    public let webviewParameters: MSALWebviewParameters

    public init(webviewParameters: MSALWebviewParameters) {
        self.webviewParameters = webviewParameters
    }
}

/// Which accounts ``MSALPublicClientApplication/accountsFromDevice(for:completionBlock:)`` returns
/// (MSAL's `MSALAccountEnumerationParameters`).
public final class MSALAccountEnumerationParameters: MSALParameters {
    public var identifier: String?
    public var username: String?

    /// All accounts.
    override public init() {}

    public init(identifier: String?) {
        self.identifier = identifier
    }

    public init(identifier: String?, username: String) {
        self.identifier = identifier
        self.username = username
    }
}
