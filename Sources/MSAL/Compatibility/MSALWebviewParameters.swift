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
