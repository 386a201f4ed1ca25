import EmulatorAutomation
import Foundation
import Locking
import MSAL
import Testing

/// The MSAL-shaped API itself: errors as `NSError`, completion queues, accounts, logging, authorities.
@Suite("MSAL for iOS/macOS API on Linux", .timeLimit(.minutes(2)))
struct CompatibilityAPITests {
    /// An app against the emulator with the test's cache, user and clock.
    private func app(_ env: TutorialEnvironment) throws -> MSALPublicClientApplication {
        let configuration = MSALPublicClientApplicationConfig(
            clientId: env.clientID, redirectUri: nil,
            authority: try MSALAADAuthority(url: URL(string: env.authority("organizations"))!))
        env.configure(configuration)
        return try MSALPublicClientApplication(configuration: configuration)
    }

    private func signIn(_ app: MSALPublicClientApplication) async throws -> MSALResult {
        try await app.acquireToken(
            with: MSALInteractiveTokenParameters(scopes: ["User.Read"], webviewParameters: MSALWebviewParameters()))
    }

    @Test("a silent failure bridges to NSError with MSAL's domain, code and userInfo keys")
    func errorsAsNSError() async throws {
        try await TutorialEnvironment.with(TutorialEnvironment.megan) { env in
            let app = try app(env)
            let result = try await signIn(app)
            env.clock.advance(by: 1)
            try await env.revoke("MeganB@contoso.onmicrosoft.com")
            let parameters = MSALSilentTokenParameters(scopes: ["User.Read"], account: result.account)
            parameters.forceRefresh = true
            let error: (any Error)? = await withCheckedContinuation { continuation in
                app.acquireTokenSilent(with: parameters) { _, error in continuation.resume(returning: error) }
            }
            let nsError = try #require(error) as NSError
            #expect(nsError.domain == MSALErrorDomain)
            #expect(nsError.code == MSALError.interactionRequired.rawValue)
            #expect(nsError.code == -50002)
            #expect(nsError.userInfo[MSALOAuthErrorKey] as? String == "invalid_grant")
            #expect(nsError.userInfo[MSALOAuthSubErrorKey] as? String == "bad_token")
            #expect(nsError.userInfo[MSALSTSErrorCodesKey] as? [Int] == [50173])
            #expect(nsError.userInfo[MSALHTTPResponseCodeKey] as? String == "400")
            #expect(nsError.userInfo[MSALErrorDescriptionKey] is String)
            #expect(nsError.userInfo[MSALCorrelationIDKey] is String)
        }
    }

    @Test("MSAL's raw values and key names")
    func namesAndValues() {
        #expect(MSALError.internal.rawValue == -50000)
        #expect(MSALError.serverDeclinedScopes.rawValue == -50003)
        #expect(MSALError.userCanceled.rawValue == -50005)
        #expect(MSALError.serverInvalidRequestResetPasswordRequired.rawValue == -50142)
        #expect(MSALInternalError.ambiguousAccount.rawValue == -42102)
        #expect(MSALErrorDomain == "MSALErrorDomain")
        let keys = [
            MSALOAuthErrorKey, MSALOAuthSubErrorKey, MSALErrorDescriptionKey, MSALHTTPResponseCodeKey,
            MSALCorrelationIDKey,
            MSALDeclinedScopesKey, MSALGrantedScopesKey, MSALInternalErrorCodeKey, MSALSTSErrorCodesKey,
        ]
        #expect(
            keys == [
                "MSALOAuthErrorKey", "MSALOAuthSubErrorKey", "MSALErrorDescriptionKey", "MSALHTTPResponseCodeKey",
                "MSALCorrelationIDKey", "MSALDeclinedScopesKey", "MSALGrantedScopesKey", "MSALInternalErrorCodeKey",
                "MSALSTSErrorCodesKey",
            ])
        let declined = MSALError(.serverDeclinedScopes, "declined")
        #expect((declined as NSError).code == -50003)
    }

    /// The main queue is recognised by a queue-specific value: under swift-testing on Linux it is
    /// serviced, but not by the process's first thread, so `Thread.isMainThread` is false there.
    @Test("interactive blocks run on the main queue, silent ones off it, and on completionBlockQueue when given")
    func completionQueues() async throws {
        let mainKey = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: mainKey, value: "main")
        try await TutorialEnvironment.with(TutorialEnvironment.megan) { env in
            let app = try app(env)
            let interactive = MSALInteractiveTokenParameters(
                scopes: ["User.Read"], webviewParameters: MSALWebviewParameters())
            let (onMain, account): (Bool, MSALAccount?) = await withCheckedContinuation { continuation in
                app.acquireToken(with: interactive) { result, _ in
                    continuation.resume(returning: (DispatchQueue.getSpecific(key: mainKey) == "main", result?.account))
                }
            }
            #expect(onMain)
            let silent = MSALSilentTokenParameters(scopes: ["User.Read"], account: try #require(account))
            let silentOnMain: Bool = await withCheckedContinuation { continuation in
                app.acquireTokenSilent(with: silent) { _, _ in
                    continuation.resume(returning: DispatchQueue.getSpecific(key: mainKey) == "main")
                }
            }
            #expect(!silentOnMain)

            let key = DispatchSpecificKey<String>()
            let queue = DispatchQueue(label: "caller")
            queue.setSpecific(key: key, value: "caller")
            silent.completionBlockQueue = queue
            let label: String? = await withCheckedContinuation { continuation in
                app.acquireTokenSilent(with: silent) { _, _ in
                    continuation.resume(returning: DispatchQueue.getSpecific(key: key))
                }
            }
            #expect(label == "caller")
        }
    }

    @Test("accounts: synchronous and async reads, lookup by identifier, device enumeration, removal")
    func accounts() async throws {
        try await TutorialEnvironment.with(TutorialEnvironment.megan) { env in
            let app = try app(env)
            let result = try await signIn(app)
            #expect(result.authorizationHeader == "Bearer \(result.accessToken)")
            #expect(result.expiresOn == env.clock.now().addingTimeInterval(3600))
            #expect(result.tenantProfile.tenantId == result.account.homeAccountId?.tenantId)
            let account = result.account
            #expect(account.homeAccountId?.identifier == account.identifier)
            #expect(account.homeAccountId?.objectId == "55868a98-9f9a-4f0e-bed9-4405c0a6eb1f")
            #expect(account.accountClaims?["name"] as? String == "Megan Bowen")
            #expect(account.environment == "127.0.0.1")

            let identifier = try #require(account.identifier)
            let viaThread: [String?] = await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(returning: (try? app.allAccounts())?.map(\.username) ?? [])
                }
            }
            #expect(viaThread == ["MeganB@contoso.onmicrosoft.com"])
            #expect(try await app.account(forIdentifier: identifier)?.username == "MeganB@contoso.onmicrosoft.com")
            #expect(
                try await app.accountsFromDevice(
                    for: MSALAccountEnumerationParameters(identifier: nil, username: "meganb@contoso.onmicrosoft.com")
                ).count == 1)
            #expect(
                try await app.accountsFromDevice(for: MSALAccountEnumerationParameters(identifier: "other")).isEmpty)

            let (current, previous) = try await app.getCurrentAccount(with: nil)
            #expect(current?.identifier == identifier)
            #expect(previous == nil)
            try await app.remove(account)
            #expect(try await app.allAccounts().isEmpty)
        }
    }

    @Test("a silent request without an account needs interaction, as in MSAL")
    func silentWithoutAccount() async throws {
        try await TutorialEnvironment.with(TutorialEnvironment.megan) { env in
            let app = try app(env)
            let account = try await signIn(app).account
            let parameters = MSALSilentTokenParameters(scopes: ["User.Read"], account: account)
            parameters.account = nil
            await #expect(throws: MSALError.self) { try await app.acquireTokenSilent(with: parameters) }
            let code: Int? = await withCheckedContinuation { continuation in
                app.acquireTokenSilent(with: parameters) { _, error in
                    continuation.resume(returning: (error as NSError?)?.code)
                }
            }
            #expect(code == MSALError.interactionRequired.rawValue)
        }
    }

    @Test("interactive parameters reach the authorize request: prompt, login hint, extra query parameters, claims")
    func interactiveParameters() async throws {
        try await TutorialEnvironment.with(TutorialEnvironment.megan) { env in
            let browser = RecordingLauncher(forwardingTo: env.user)
            let parameters = MSALInteractiveTokenParameters(
                scopes: ["User.Read"], webviewParameters: MSALWebviewParameters(authPresentationViewController: browser)
            )
            parameters.promptType = .login
            parameters.loginHint = "MeganB@contoso.onmicrosoft.com"
            parameters.extraQueryParameters = ["dc": "ESTS-PUB-WUS2"]
            parameters.claimsRequest = try MSALClaimsRequest(
                jsonString: #"{"id_token":{"auth_time":{"essential":true}}}"#)
            _ = try await app(env).acquireToken(with: parameters)
            let query = try #require(
                browser.opened.first.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems })
            func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
            #expect(value("prompt") == "login")
            #expect(value("login_hint") == "MeganB@contoso.onmicrosoft.com")
            #expect(value("dc") == "ESTS-PUB-WUS2")
            #expect(value("claims")?.contains("auth_time") == true)
            #expect(MSALPromptType.default == .promptIfNecessary)
            #expect(throws: MSALError.self) { _ = try MSALClaimsRequest(jsonString: "[1]") }
        }
    }

    @Test("the web view's presenting object opens the pages when it is a browser launcher")
    func webviewParameters() throws {
        final class ViewController {}
        #expect(MSALWebviewParameters(authPresentationViewController: ViewController()).browserLauncher == nil)
        #expect(
            MSALWebviewParameters(authPresentationViewController: PrintingBrowserLauncher { _ in }).browserLauncher
                != nil)
        #expect(MSALWebviewParameters().browserLauncher == nil)
        #expect(
            !MSALPublicClientApplication.handleMSALResponse(
                URL(string: "msauth.com.example://auth?code=x")!, sourceApplication: nil))
    }

    @Test("authorities keep MSAL's classes; the default is common")
    func authorities() throws {
        let ciam = try MSALCIAMAuthority(url: URL(string: "https://contoso.ciamlogin.com/")!)
        #expect(ciam.url.absoluteString == "https://contoso.ciamlogin.com/contoso.onmicrosoft.com")
        #expect(
            try MSALAuthority.authority(
                with: URL(string: "https://contoso.b2clogin.com/tfp/contoso.onmicrosoft.com/B2C_1_signin")!)
                is MSALB2CAuthority)
        #expect(
            try MSALAuthority.authority(with: URL(string: "https://login.microsoftonline.com/organizations")!)
                is MSALAADAuthority)
        #expect(throws: MSALError.self) { try MSALB2CAuthority(url: URL(string: "https://contoso.b2clogin.com/")!) }
        #expect(throws: MSALError.self) { try MSALAADAuthority(url: URL(string: "http://example.com/common")!) }
        let configuration = MSALPublicClientApplicationConfig(clientId: "client")
        #expect(configuration.authority.url.absoluteString == "https://login.microsoftonline.com/common")
        #expect(configuration.tokenExpirationBuffer == 300)
        #expect(throws: MSALError.self) { _ = try MSALPublicClientApplication(clientId: " ") }
    }

    @Test("the log callback gets the library's lines at the level asked, without usernames or tokens")
    func logging() async throws {
        try await TutorialEnvironment.with(TutorialEnvironment.megan) { env in
            let lines = Locked<[(MSALLogLevel, String, Bool)]>([])
            MSALGlobalConfig.loggerConfig.logLevel = .verbose
            MSALGlobalConfig.loggerConfig.setLogCallback { level, message, containsPII in
                lines.withLock { $0.append((level, message ?? "", containsPII)) }
            }
            let result = try await signIn(try app(env))
            let seen = lines.withLock { $0 }
            #expect(seen.contains { $0.1.hasPrefix("interactive sign-in finished") && $0.1.contains("username=(pii)") })
            #expect(!seen.contains { $0.1.contains("MeganB") || $0.1.contains(result.accessToken) || $0.2 })
            #expect(MSALGlobalConfig.loggerConfig.logMaskingLevel == .settingsMaskAllPII)
        }
    }
}

/// Remembers the pages it opens and hands them to the scripted user.
private final class RecordingLauncher: BrowserLauncher {
    private let user: AutomatedUser
    private let urls = Locked<[URL]>([])

    init(forwardingTo user: AutomatedUser) {
        self.user = user
    }

    var opened: [URL] { urls.withLock { $0 } }

    func open(_ url: URL) async throws {
        urls.withLock { $0.append(url) }
        try await user.open(url)
    }
}
