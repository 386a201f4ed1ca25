import Foundation
import MSAL

#if canImport(FoundationNetworking)
    import FoundationNetworking  // Linux: URLSession lives here.
#endif

/// Seed 003 (Chinese (Taiwan) tutorial, 2019): the older API forms — `allAccounts()`, `remove(_:)`,
/// `MSALInteractiveTokenParameters(scopes:)` without webview parameters — as the tutorial writes them.
/// Changed lines, marked `// Linux:`: UIKit and the constants, which point at the emulator.
final class Seed003ViewController: ConsoleViewController, @unchecked Sendable {
    // Linux: the constants point at the emulator (config values).
    let kClientID: String

    // Additional variables for Auth and Graph API
    let kGraphURI: String
    let kScopes: [String] = ["https://graph.microsoft.com/user.read"]
    let kAuthority: String
    var accessToken = String()
    var applicationContext: MSALPublicClientApplication?

    // Linux: console widgets instead of UIKit's.
    var loggingText: ConsoleTextView!
    var signOutButton: ConsoleButton!
    var callGraphButton: ConsoleButton!

    init(environment: TutorialEnvironment) {
        kClientID = environment.clientID
        kGraphURI = environment.graphEndpoint + "v1.0/me/"
        kAuthority = environment.authority("common")
        super.init(environment: environment, console: Console())
    }

    // Linux: the UI is console widgets.
    func initUI() {
        callGraphButton = ConsoleButton("callGraphButton", console)
        signOutButton = ConsoleButton("signOutButton", console)
        signOutButton.isEnabled = false
        loggingText = ConsoleTextView("loggingText", console)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        initUI()
        do {
            try self.initMSAL()
        } catch let error {
            self.loggingText.text = "Unable to create Application Context \(error)"
        }
    }

    func initMSAL() throws {

        guard let authorityURL = URL(string: kAuthority) else {
            self.loggingText.text = "Unable to create authority URL"
            return
        }

        let authority = try MSALAADAuthority(url: authorityURL)

        let msalConfiguration = MSALPublicClientApplicationConfig(
            clientId: kClientID, redirectUri: nil, authority: authority)
        environment.configure(msalConfiguration)  // Linux: the device's cache, browser and clock (config values).
        self.applicationContext = try MSALPublicClientApplication(configuration: msalConfiguration)
    }

    func callGraphAPI(_ sender: ConsoleButton) {  // Linux: no @objc; a console button.

        guard let currentAccount = self.currentAccount() else {
            // We check to see if we have a current logged in account.
            // If we don't, then we need to sign someone in.
            acquireTokenInteractively()
            return
        }

        acquireTokenSilently(currentAccount)
    }

    func currentAccount() -> MSALAccount? {

        guard let applicationContext = self.applicationContext else { return nil }

        // We retrieve our current account by getting the first account from cache
        // In multi-account applications, account should be retrieved by home account identifier or username instead

        do {
            let cachedAccounts = try applicationContext.allAccounts()
            if !cachedAccounts.isEmpty {
                return cachedAccounts.first
            }
        } catch let error as NSError {
            self.updateLogging(text: "Didn't find any accounts in cache: \(error)")
        }

        return nil
    }

    func acquireTokenInteractively() {

        guard let applicationContext = self.applicationContext else { return }
        // #1
        let parameters = MSALInteractiveTokenParameters(scopes: kScopes)
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
            self.updateSignOutButton(enabled: true)
            self.getContentWithToken()
        }
    }

    func acquireTokenSilently(_ account: MSALAccount!) {
        guard let applicationContext = self.applicationContext else { return }
        let parameters = MSALSilentTokenParameters(scopes: kScopes, account: account)

        applicationContext.acquireTokenSilent(with: parameters) { (result, error) in
            if let error = error {
                let nsError = error as NSError
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
        let url = URL(string: kGraphURI)
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

    func signOut(_ sender: ConsoleButton) {  // Linux: no @objc; a console button.

        guard let applicationContext = self.applicationContext else { return }

        guard let account = self.currentAccount() else { return }

        do {

            /**
             Removes all tokens from the cache for this application for the provided account

             - account:    The account to remove from the cache */

            try applicationContext.remove(account)
            self.loggingText.text = ""
            self.signOutButton.isEnabled = false

        } catch let error as NSError {

            self.updateLogging(text: "Received error signing account out: \(error)")
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
}
