import Foundation
import MSAL

#if canImport(FoundationNetworking)
    import FoundationNetworking  // Linux: URLSession lives here.
#endif

/// Seed 000 (Polish tutorial, iOS): the ViewController's MSAL and Graph logic as the tutorial writes
/// it. Changed lines, marked `// Linux:`: UIKit (widgets, `@objc`, the foreground notification) and
/// the constants, which point at the emulator.
final class Seed000ViewController: ConsoleViewController, @unchecked Sendable {
    // Linux: the constants point at the emulator (config values).
    let kClientID: String
    let kGraphEndpoint: String
    let kAuthority: String

    let kScopes: [String] = ["user.read"]  // request permission to read the profile of the signed-in user

    var accessToken = String()
    var applicationContext: MSALPublicClientApplication?
    var webViewParameters: MSALWebviewParameters?
    var currentAccount: MSALAccount?

    // Linux: console widgets instead of UIKit's.
    var loggingText: ConsoleTextView!
    var signOutButton: ConsoleButton!
    var callGraphButton: ConsoleButton!
    var usernameLabel: ConsoleLabel!

    init(environment: TutorialEnvironment) {
        kClientID = environment.clientID
        kGraphEndpoint = environment.graphEndpoint
        kAuthority = environment.authority("common")
        super.init(environment: environment, console: Console())
    }

    // Linux: the UI is console widgets.
    func initUI() {
        usernameLabel = ConsoleLabel("usernameLabel", console)
        callGraphButton = ConsoleButton("callGraphButton", console)
        signOutButton = ConsoleButton("signOutButton", console)
        loggingText = ConsoleTextView("loggingText", console)
    }

    // Linux: no foreground notification to observe.
    func platformViewDidLoadSetup() {}

    override func viewDidLoad() {

        super.viewDidLoad()

        initUI()

        do {
            try self.initMSAL()
        } catch let error {
            self.updateLogging(text: "Unable to create Application Context \(error)")
        }

        self.loadCurrentAccount()
        self.platformViewDidLoadSetup()
    }

    func initMSAL() throws {

        guard let authorityURL = URL(string: kAuthority) else {
            self.updateLogging(text: "Unable to create authority URL")
            return
        }

        let authority = try MSALAADAuthority(url: authorityURL)

        let msalConfiguration = MSALPublicClientApplicationConfig(
            clientId: kClientID, redirectUri: nil, authority: authority)
        environment.configure(msalConfiguration)  // Linux: the device's cache, browser and clock (config values).
        self.applicationContext = try MSALPublicClientApplication(configuration: msalConfiguration)
        self.initWebViewParams()
    }

    func initWebViewParams() {
        self.webViewParameters = MSALWebviewParameters(authPresentationViewController: self)
    }

    func getGraphEndpoint() -> String {
        return kGraphEndpoint.hasSuffix("/") ? (kGraphEndpoint + "v1.0/me/") : (kGraphEndpoint + "/v1.0/me/")
    }

    func callGraphAPI(_ sender: AnyObject) {  // Linux: no @objc.

        self.loadCurrentAccount { (account) in

            guard let currentAccount = account else {

                // We check to see if we have a current logged in account.
                // If we don't, then we need to sign someone in.
                self.acquireTokenInteractively()
                return
            }

            self.acquireTokenSilently(currentAccount)
        }
    }

    typealias AccountCompletion = (MSALAccount?) -> Void

    func loadCurrentAccount(completion: AccountCompletion? = nil) {

        guard let applicationContext = self.applicationContext else { return }

        let msalParameters = MSALParameters()
        msalParameters.completionBlockQueue = DispatchQueue.main

        applicationContext.getCurrentAccount(
            with: msalParameters,
            completionBlock: { (currentAccount, previousAccount, error) in

                if let error = error {
                    self.updateLogging(text: "Couldn't query current account with error: \(error)")
                    return
                }

                if let currentAccount = currentAccount {

                    self.updateLogging(
                        text:
                            "Found a signed in account \(String(describing: currentAccount.username)). Updating data for that account..."
                    )

                    self.updateCurrentAccount(account: currentAccount)

                    if let completion = completion {
                        completion(self.currentAccount)
                    }

                    return
                }

                self.updateLogging(text: "Account signed out. Updating UX")
                self.accessToken = ""
                self.updateCurrentAccount(account: nil)

                if let completion = completion {
                    completion(nil)
                }
            })
    }

    func acquireTokenInteractively() {

        guard let applicationContext = self.applicationContext else { return }
        guard let webViewParameters = self.webViewParameters else { return }

        // #1
        let parameters = MSALInteractiveTokenParameters(scopes: kScopes, webviewParameters: webViewParameters)
        parameters.promptType = .selectAccount

        // #2
        applicationContext.acquireToken(with: parameters) { (result, error) in

            // #3
            if let error = error {

                self.updateLogging(text: "Could not acquire token: \(error)")
                return
            }

            guard let result = result else {

                self.updateLogging(text: "Could not acquire token: No result returned")
                return
            }

            // #4
            self.accessToken = result.accessToken
            self.updateLogging(text: "Access token is \(self.accessToken)")
            self.updateCurrentAccount(account: result.account)
            self.getContentWithToken()
        }
    }

    func acquireTokenSilently(_ account: MSALAccount!) {

        guard let applicationContext = self.applicationContext else { return }

        /**

         Acquire a token for an existing account silently

         - forScopes:           Permissions you want included in the access token received
         in the result in the completionBlock. Not all scopes are
         guaranteed to be included in the access token returned.
         - account:             An account object that we retrieved from the application object before that the
         authentication flow will be locked down to.
         - completionBlock:     The completion block that will be called when the authentication
         flow completes, or encounters an error.
         */

        let parameters = MSALSilentTokenParameters(scopes: kScopes, account: account)

        applicationContext.acquireTokenSilent(with: parameters) { (result, error) in

            if let error = error {

                let nsError = error as NSError

                // interactionRequired means we need to ask the user to sign-in. This usually happens
                // when the user's Refresh Token is expired or if the user has changed their password
                // among other possible reasons.

                if nsError.domain == MSALErrorDomain {

                    if nsError.code == MSALError.interactionRequired.rawValue {

                        DispatchQueue.main.async {
                            self.acquireTokenInteractively()
                        }
                        return
                    }
                }

                self.updateLogging(text: "Could not acquire token silently: \(error)")
                return
            }

            guard let result = result else {

                self.updateLogging(text: "Could not acquire token: No result returned")
                return
            }

            self.accessToken = result.accessToken
            self.updateLogging(text: "Refreshed Access token is \(self.accessToken)")
            self.updateSignOutButton(enabled: true)
            self.getContentWithToken()
        }
    }

    func getContentWithToken() {

        // Specify the Graph API endpoint
        let graphURI = getGraphEndpoint()
        let url = URL(string: graphURI)
        var request = URLRequest(url: url!)

        // Set the Authorization header for the request. We use Bearer tokens, so we specify Bearer + the token we got from the result
        request.setValue("Bearer \(self.accessToken)", forHTTPHeaderField: "Authorization")

        URLSession.shared.dataTask(with: request) { data, response, error in

            if let error = error {
                self.updateLogging(text: "Couldn't get graph result: \(error)")
                return
            }

            guard let result = try? JSONSerialization.jsonObject(with: data!, options: []) else {

                self.updateLogging(text: "Couldn't deserialize result JSON")
                return
            }

            self.updateLogging(text: "Result from Graph: \(result))")

        }.resume()
    }

    func signOut(_ sender: AnyObject) {  // Linux: no @objc.

        guard let applicationContext = self.applicationContext else { return }

        guard let account = self.currentAccount else { return }

        do {

            /**
             Removes all tokens from the cache for this application for the provided account

             - account:    The account to remove from the cache
             */

            let signoutParameters = MSALSignoutParameters(webviewParameters: self.webViewParameters!)
            // set this to true if you also want to signout from browser or webview
            signoutParameters.signoutFromBrowser = false

            applicationContext.signout(
                with: account, signoutParameters: signoutParameters,
                completionBlock: { (success, error) in

                    if let error = error {
                        self.updateLogging(text: "Couldn't sign out account with error: \(error)")
                        return
                    }

                    self.updateLogging(text: "Sign out completed successfully")
                    self.accessToken = ""
                    self.updateCurrentAccount(account: nil)
                })

        }
    }

    func updateLogging(text: String) {

        if Thread.isMainThread {
            self.loggingText.text = text
        } else {
            DispatchQueue.main.async {
                self.loggingText.text = text
            }
        }
    }

    func updateSignOutButton(enabled: Bool) {
        if Thread.isMainThread {
            self.signOutButton.isEnabled = enabled
        } else {
            DispatchQueue.main.async {
                self.signOutButton.isEnabled = enabled
            }
        }
    }

    func updateAccountLabel() {

        guard let currentAccount = self.currentAccount else {
            self.usernameLabel.text = "Signed out"
            return
        }

        self.usernameLabel.text = currentAccount.username
    }

    func updateCurrentAccount(account: MSALAccount?) {
        self.currentAccount = account
        self.updateAccountLabel()
        self.updateSignOutButton(enabled: account != nil)
    }

    func getDeviceMode(_ sender: AnyObject) {  // Linux: no @objc.

        if #available(iOS 13.0, *) {
            self.applicationContext?.getDeviceInformation(
                with: nil,
                completionBlock: { (deviceInformation, error) in

                    guard let deviceInfo = deviceInformation else {
                        self.updateLogging(text: "Device info not returned. Error: \(String(describing: error))")
                        return
                    }

                    let isSharedDevice = deviceInfo.deviceMode == .shared
                    let modeString = isSharedDevice ? "shared" : "private"
                    self.updateLogging(text: "Received device info. Device is in the \(modeString) mode.")
                })
        } else {
            self.updateLogging(text: "Running on older iOS. GetDeviceInformation API is unavailable.")
        }
    }
}
