import Foundation
import MSAL

/// Seed 004 (Portuguese tutorial, External ID, iOS): interactive sign-in with the claims read, silent
/// sign-in through `loadCurrentAccount`, and sign-out from the browser on a shared device, reporting the
/// previous account, as the tutorial writes them (`webViewParamaters` included). From the
/// series' sample app, not on the page: the properties, `initMSAL`, `getDeviceMode` and the helpers.
/// Changed lines, marked `// Linux:`: UIKit and the constants, which point at the emulator.
final class Seed004ViewController: ConsoleViewController, @unchecked Sendable {
    // Linux: the constants point at the emulator's External ID tenant (config values).
    let kClientID: String
    let kAuthority: String

    typealias AccountCompletion = (MSALAccount?) -> Void

    var accessToken = String()
    var applicationContext: MSALPublicClientApplication?
    var webViewParamaters: MSALWebviewParameters?
    var currentAccount: MSALAccount?
    var currentDeviceMode: MSALDeviceMode?

    // Linux: console widgets instead of UIKit's.
    let loggingText: ConsoleTextView
    let signOutButton: ConsoleButton
    let usernameLabel: ConsoleLabel

    init(environment: TutorialEnvironment) {
        kClientID = environment.externalClientID
        kAuthority = environment.authority("contosocustomers.onmicrosoft.com")
        let console = Console()
        loggingText = ConsoleTextView("loggingText", console)
        signOutButton = ConsoleButton("signOutButton", console)
        usernameLabel = ConsoleLabel("usernameLabel", console)
        super.init(environment: environment, console: console)
    }

    func initMSAL() throws {
        guard let authorityURL = URL(string: kAuthority) else {
            self.updateLogging(text: "Unable to create authority URL")
            return
        }
        let authority = try MSALCIAMAuthority(url: authorityURL)
        let msalConfiguration = MSALPublicClientApplicationConfig(
            clientId: kClientID, redirectUri: nil, authority: authority)
        environment.configure(msalConfiguration)  // Linux: the device's cache, browser and clock (config values).
        self.applicationContext = try MSALPublicClientApplication(configuration: msalConfiguration)
        self.webViewParamaters = MSALWebviewParameters(authPresentationViewController: self)
    }

    func getDeviceMode() {
        self.applicationContext?.getDeviceInformation(
            with: nil,
            completionBlock: { (deviceInformation, error) in
                guard let deviceInfo = deviceInformation else {
                    self.updateLogging(text: "Device info not returned. Error: \(String(describing: error))")
                    return
                }
                self.currentDeviceMode = deviceInfo.deviceMode
                self.updateLogging(text: "Device mode: \(deviceInfo.deviceMode == .shared ? "shared" : "private")")
            })
    }

    func acquireTokenInteractively() {
        guard let applicationContext = self.applicationContext else { return }
        guard let webViewParameters = self.webViewParamaters else { return }

        updateLogging(text: "Acquiring token interactively...")

        let parameters = MSALInteractiveTokenParameters(
            scopes: Configuration.kScopes, webviewParameters: webViewParameters)
        parameters.promptType = .selectAccount

        applicationContext.acquireToken(with: parameters) { (result, error) in

            if let error = error {

                self.updateLogging(text: "Could not acquire token: \(error)")
                return
            }

            guard let result = result else {

                self.updateLogging(text: "Could not acquire token: No result returned")
                return
            }

            self.accessToken = result.accessToken
            self.updateLogging(text: "Access token is \(self.accessToken)")
            self.updateCurrentAccount(account: result.account)

            // The tutorial's claims snippet, "once the app has acquired an access token":
            let claims = result.account.accountClaims
            let preferredUsername = claims?["preferred_username"] as? String
            // Linux test: shows the value.
            self.updateLogging(text: "preferred_username: \(preferredUsername ?? "none")")
        }
    }

    func acquireTokenSilently() {
        self.loadCurrentAccount { (account) in

            guard let currentAccount = account else {

                self.updateLogging(text: "No token found, try to acquire a token interactively first")
                return
            }

            self.acquireTokenSilently(currentAccount)
        }
    }

    func loadCurrentAccount(completion: AccountCompletion? = nil) {

        guard let applicationContext = self.applicationContext else { return }

        let msalParameters = MSALParameters()
        msalParameters.completionBlockQueue = DispatchQueue.main

        // Note that this sample showcases an app that signs in a single account at a time
        applicationContext.getCurrentAccount(
            with: msalParameters,
            completionBlock: { (currentAccount, previousAccount, error) in

                if let error = error {
                    self.updateLogging(text: "Couldn't query current account with error: \(error)")
                    return
                }

                if let currentAccount = currentAccount {

                    self.updateCurrentAccount(account: currentAccount)
                    self.acquireTokenSilently(currentAccount)

                    if let completion = completion {
                        completion(self.currentAccount)
                    }

                    return
                }

                // If testing with Microsoft's shared device mode, see the account that has been signed out from another app. More details here:
                // https://docs.microsoft.com/azure/active-directory/develop/msal-ios-shared-devices
                if let previousAccount = previousAccount {

                    self.updateLogging(
                        text:
                            "The account with username \(String(describing: previousAccount.username)) has been signed out."
                    )

                } else {

                    self.updateLogging(text: "")
                }

                self.accessToken = ""
                self.updateCurrentAccount(account: nil)

                if let completion = completion {
                    completion(nil)
                }
            })
    }

    func acquireTokenSilently(_ account: MSALAccount) {
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

        updateLogging(text: "Acquiring token silently...")

        let parameters = MSALSilentTokenParameters(scopes: Configuration.kScopes, account: account)

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
        }
    }

    func signOut(_ sender: ConsoleButton) {  // Linux: no @IBAction; a console button.

        guard let applicationContext = self.applicationContext else { return }

        guard let account = self.currentAccount else { return }

        guard let webViewParamaters = self.webViewParamaters else { return }

        updateLogging(text: "Signing out...")

        do {

            /**
             Removes all tokens from the cache for this application for the provided account

             - account:    The account to remove from the cache
             */

            let signoutParameters = MSALSignoutParameters(webviewParameters: webViewParamaters)

            // If testing with Microsoft's shared device mode, trigger signout from browser. More details here:
            // https://docs.microsoft.com/azure/active-directory/develop/msal-ios-shared-devices

            if self.currentDeviceMode == .shared {
                signoutParameters.signoutFromBrowser = true
            } else {
                signoutParameters.signoutFromBrowser = false
            }

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

    // From the series' sample app (not on the page): the helpers the tutorial calls.

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

    func updateCurrentAccount(account: MSALAccount?) {
        self.currentAccount = account
        self.usernameLabel.text = account?.username ?? "Signed out"  // Linux: the label is a console widget.
        self.updateSignOutButton(enabled: account != nil)
    }
}
