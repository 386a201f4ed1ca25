import Foundation
import FoundationNetworking  // Linux: URLSession lives here.
import Locking
import MSAL

/// Seed 001 (Hungarian tutorial, native authentication): sign in with email and password, then access
/// tokens for two protected APIs from the one sign-in, and the APIs called with them, as the tutorial
/// writes it. From the series' sign-in tutorial, not on this page: the properties, `SignInStartDelegate`
/// and the helpers. Changed lines, marked `// Linux:`: UIKit, `@IBAction`, and the constants, which
/// point at the emulator's External ID tenant and sample APIs.
@MainActor final class Seed001ViewController {  // Linux: UIViewController is main-actor isolated; this class is too.
    // Linux: the constants point at the emulator (config values).
    let protectedAPIUrl1: String?
    let protectedAPIUrl2: String?
    let protectedAPIScopes1: [String]
    let protectedAPIScopes2: [String]

    var accessTokenAPI1: String?
    var accessTokenAPI2: String?

    var nativeAuth: MSALNativeAuthPublicClientApplication!
    var accountResult: MSALNativeAuthUserAccountResult?

    // Linux: console widgets instead of UIKit's.
    let console = Console()
    let resultTextView: ConsoleTextView
    let emailTextField = ConsoleTextField()
    let passwordTextField = ConsoleTextField()

    init(environment: TutorialEnvironment) throws {
        let base = environment.emulator.baseURL.absoluteString
        let api1 = "api://\(environment.api1)"
        let api2 = "api://\(environment.api2)"
        protectedAPIUrl1 = base + "/api1/todolist"
        protectedAPIUrl2 = base + "/api2/todolist"
        protectedAPIScopes1 = ["\(api1)/ToDoList.Read", "\(api1)/ToDoList.ReadWrite"]
        protectedAPIScopes2 = ["\(api2)/ToDoList.Read", "\(api2)/ToDoList.ReadWrite"]
        resultTextView = ConsoleTextView("loggingText", console)
        // Linux: the emulator's External ID tenant and the device's cache and clock (config values).
        let authority = try MSALCIAMAuthority(
            url: URL(string: environment.authority("contosocustomers.onmicrosoft.com"))!)
        let configuration = MSALNativeAuthPublicClientApplicationConfig(
            clientId: environment.externalClientID, authority: authority,
            challengeTypes: [.OOB, .password])
        environment.configure(configuration)
        nativeAuth = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: configuration)
    }

    func signInPressed(_: Any) {  // Linux: no @IBAction
        guard let email = emailTextField.text, let password = passwordTextField.text else {
            resultTextView.text = "Email or password not set"
            return
        }

        print("Signing in with email \(email) and password")

        showResultText("Signing in...")

        nativeAuth.signIn(username: email, password: password, delegate: self)
    }

    func protectedApi1Pressed(_: Any) {  // Linux: no @IBAction
        guard let url = protectedAPIUrl1, !protectedAPIScopes1.isEmpty else {
            showResultText("API 1 not configured.")
            return
        }

        if let accessToken = accessTokenAPI1 {
            accessProtectedAPI(apiUrl: url, accessToken: accessToken)
        } else {
            accountResult?.getAccessToken(scopes: protectedAPIScopes1, delegate: self)
            let message = "Retrieving access token to use with API 1..."
            showResultText(message)
            print(message)
        }
    }

    func protectedApi2Pressed(_: Any) {  // Linux: no @IBAction
        guard let url = protectedAPIUrl2, !protectedAPIScopes2.isEmpty else {
            showResultText("API 2 not configured.")
            return
        }

        if let accessToken = accessTokenAPI2 {
            accessProtectedAPI(apiUrl: url, accessToken: accessToken)
        } else {
            accountResult?.getAccessToken(scopes: protectedAPIScopes2, delegate: self)
            let message = "Retrieving access token to use with API 2..."
            showResultText(message)
            print(message)
        }
    }

    func accessProtectedAPI(apiUrl: String, accessToken: String) {
        guard let url = URL(string: apiUrl) else {
            let errorMessage = "Invalid API url"
            print(errorMessage)
            DispatchQueue.main.async {
                self.showResultText(errorMessage)
            }
            return
        }

        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")

        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            if let error = error {
                print("Error found when accessing API: \(error.localizedDescription)")
                DispatchQueue.main.async {
                    self.showResultText(error.localizedDescription)
                }
                return
            }

            guard let httpResponse = response as? HTTPURLResponse, (200...299).contains(httpResponse.statusCode)
            else {
                DispatchQueue.main.async {
                    self.showResultText("Unsuccessful response found when accessing the API")
                }
                return
            }

            guard let data = data, let result = try? JSONSerialization.jsonObject(with: data, options: []) else {
                DispatchQueue.main.async {
                    self.showResultText("Couldn't deserialize result JSON")
                }
                return
            }

            DispatchQueue.main.async {
                self.showResultText(
                    """
                    Accessed API successfully using access token.
                    HTTP response code: \(httpResponse.statusCode)
                    HTTP response body: \(result)
                    """)
            }
        }

        task.resume()
    }

    func showResultText(_ text: String) {
        resultTextView.text = text
    }

    func updateUI() {
        // Linux: no buttons to enable; the console shows the state.
    }
}

extension Seed001ViewController: SignInStartDelegate {
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        showResultText("Signed in: \(result.account.username ?? "")")
        accountResult = result
        updateUI()
    }

    func onSignInStartError(error: SignInStartError) {
        showResultText("Unable to sign in: \(error.errorDescription ?? "No error description")")
    }
}

extension Seed001ViewController: CredentialsDelegate {
    func onAccessTokenRetrieveCompleted(result: MSALNativeAuthTokenResult) {
        print("Access Token: \(result.accessToken)")

        if protectedAPIScopes1.allSatisfy(result.scopes.contains),
            let url = protectedAPIUrl1
        {
            accessTokenAPI1 = result.accessToken
            accessProtectedAPI(apiUrl: url, accessToken: result.accessToken)
        }

        if protectedAPIScopes2.allSatisfy(result.scopes.contains(_:)),
            let url = protectedAPIUrl2
        {
            accessTokenAPI2 = result.accessToken
            accessProtectedAPI(apiUrl: url, accessToken: result.accessToken)
        }

        showResultText(
            "Signed in." + "\n\n" + "Scopes:\n\(result.scopes)" + "\n\n" + "Access Token:\n\(result.accessToken)")
        updateUI()
    }

    func onAccessTokenRetrieveError(error: MSAL.RetrieveAccessTokenError) {
        showResultText("Error retrieving access token: \(error.errorDescription ?? "No error description")")
    }
}

/// `UITextField`: only its text matters.
final class ConsoleTextField: Sendable {
    private let value = Locked<String?>(nil)
    var text: String? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
