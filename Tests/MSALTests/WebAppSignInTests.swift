import Foundation
import IdentityEmulator
import Locking
import MSAL
import Testing

@Suite("Web app sign-in (authorization code, confidential)")
struct WebAppSignInTests {
    /// Signs Megan in to the daemon's web redirect (`http://localhost/callback`, any loopback port)
    /// with a form post; returns the flow and what the browser posted.
    static func signIn(_ h: Harness, app: ConfidentialClientApplication, mode: ResponseMode = .formPost) async throws
        -> (AuthorizationCodeFlow, [String: String])
    {
        let user = h.user(Harness.megan)
        let flow = Locked<AuthorizationCodeFlow?>(nil)
        let response = try await LoopbackRedirectReceiver().receiveResponse(
            at: "http://localhost/callback", timeout: .seconds(30)
        ) { listening in
            var parameters = WebSignInParameters(scopes: ["User.Read"], redirectURI: listening, responseMode: mode)
            parameters.prompt = .login
            let started = try await app.startSignIn(parameters)
            flow.withLock { $0 = started }
            try await user.open(started.authorizationURL)
        }
        #expect(user.pagesSeen.contains(mode == .formPost ? "form_post" : "signin"))
        return (try #require(flow.withLock { $0 }), response.parameters)
    }

    @Test("start, complete from the form post, then silent tokens and a refresh with the credential")
    func signInThenSilent() async throws {
        try await Harness.with { h in
            let transport = try IdentityPlatformClientTests.RecordingTransport()
            let store = RecordingPartitionStore(clock: h.clock)
            let app = try h.confidentialApp(
                tenant: "organizations", cache: PartitionedTokenCache(store: store, clock: h.clock),
                transport: transport)
            let (flow, posted) = try await Self.signIn(h, app: app)
            let query = try #require(
                URLComponents(url: flow.authorizationURL, resolvingAgainstBaseURL: false)?.queryItems)
            let names = Set(query.map(\.name))
            #expect(
                names.isSuperset(of: ["state", "nonce", "code_challenge", "code_challenge_method", "redirect_uri"]))
            #expect(query.first { $0.name == "response_mode" }?.value == "form_post")
            #expect(posted["state"] == flow.state)

            let result = try await app.completeSignIn(flow, response: posted)
            #expect(result.account.username == "MeganB@contoso.onmicrosoft.com")
            #expect(store.saves == [TokenCachePartition.user(homeAccountID: result.account.identifier).description])
            let redemption = try #require(transport.tokenForms.last)
            let form = FormFields(redemption)
            #expect(form["grant_type"] == "authorization_code")
            #expect(form["client_secret"] == h.ids.confidentialSecret)
            #expect(form["code_verifier"] != nil)

            let account = try #require(try await app.account(identifier: result.account.identifier))
            let cached = try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: account))
            #expect(cached.source == .cache)
            let refreshed = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: account, forceRefresh: true))
            #expect(refreshed.source == .identityProvider)
            let refreshRequest = try #require(transport.tokenForms.last)
            let refresh = FormFields(refreshRequest)
            #expect(refresh["grant_type"] == "refresh_token")
            #expect(refresh["client_secret"] == h.ids.confidentialSecret)

            let signOut = try #require(
                try await app.signOut(account, postLogoutRedirectURI: "https://app.example.com/signed-out"))
            #expect(signOut.query?.contains("post_logout_redirect_uri=https://app.example.com/signed-out") == true)
            #expect(try await app.account(identifier: account.identifier) == nil)
            let gone = await #expect(throws: MSALError.self) {
                try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: account))
            }
            #expect(gone?.code == .interactionRequired)
        }
    }

    @Test("a response with another state (even an error), an error, or no code is refused; the flow is Codable")
    func badResponses() async throws {
        try await Harness.with { h in
            let app = try h.confidentialApp(tenant: "organizations", redirectURI: "http://localhost/callback")
            let flow = try await app.startSignIn(WebSignInParameters(scopes: ["User.Read"]))
            #expect(flow.redirectURI == "http://localhost/callback")
            let restored = try JSONDecoder().decode(AuthorizationCodeFlow.self, from: JSONEncoder().encode(flow))
            #expect(restored == flow)
            let forged = await #expect(throws: MSALError.self) {
                try await app.completeSignIn(restored, response: ["code": "abc", "state": "forged"])
            }
            #expect(forged?.internalCode == .invalidState)
            let denied = await #expect(throws: MSALError.self) {
                try await app.completeSignIn(
                    restored,
                    response: [
                        "error": "access_denied", "error_description": "The user cancelled.", "state": flow.state,
                    ])
            }
            #expect(denied?.code == .userCanceled)
            // Any page can send a browser to a web app's redirect URI: an error without the sign-in's state is not
            // the platform's answer.
            for state in [nil, "forged"] as [String?] {
                var response = ["error": "access_denied"]
                response["state"] = state
                let forgedError = await #expect(throws: MSALError.self) {
                    try await app.completeSignIn(restored, response: response)
                }
                #expect(forgedError?.internalCode == .invalidState)
            }
            let empty = await #expect(throws: MSALError.self) {
                try await app.completeSignIn(restored, response: ["state": flow.state])
            }
            #expect(empty?.internalCode == .invalidResponse)

            let noRedirect = try h.confidentialApp(tenant: "organizations")
            let missing = await #expect(throws: MSALError.self) {
                try await noRedirect.startSignIn(WebSignInParameters(scopes: ["User.Read"]))
            }
            #expect(missing?.internalCode == .invalidRedirectURI)
        }
    }
}

/// A form body's fields.
struct FormFields {
    let fields: [String: String]

    init(_ body: Data?) {
        var fields: [String: String] = [:]
        for pair in String(decoding: body ?? Data(), as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        self.fields = fields
    }

    subscript(name: String) -> String? { fields[name] }
}
