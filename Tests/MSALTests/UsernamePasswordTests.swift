import Foundation
import IdentityEmulator
import Logging
import Testing

@testable import MSAL

/// Username and password sign-in (ROPC) against the emulator: the user realm first, the password grant, the
/// answer cached as every sign-in's, and Entra's refusals for MFA, federated users and wrong passwords.
@Suite("Username and password sign-in (ROPC)")
struct UsernamePasswordTests {
    static let megan = UsernamePasswordParameters(
        scopes: ["User.Read"], username: "MeganB@contoso.onmicrosoft.com", password: "Megan-Demo-Pass1")

    @Test("signs the user in: the user realm, then the password grant; the account is cached and silent calls use it")
    func signsIn() async throws {
        try await Harness.with { h in
            let transport = try IdentityPlatformClientTests.RecordingTransport()
            let app = try h.app(transport: transport)
            let result = try await app.acquireTokenByUsernamePassword(Self.megan)
            #expect(result.account.username == "MeganB@contoso.onmicrosoft.com")
            #expect(result.source == .identityProvider)
            #expect(try await h.tokenRequests() == ["password"])
            let paths = transport.requests.compactMap { $0.url?.path }
            let realm = try #require(
                paths.firstIndex { $0.hasSuffix("/common/userrealm/MeganB@contoso.onmicrosoft.com") })
            let token = try #require(paths.firstIndex { $0.hasSuffix("/oauth2/v2.0/token") })
            #expect(realm < token)
            #expect(try await app.accounts().map(\.username) == ["MeganB@contoso.onmicrosoft.com"])
            #expect(try await app.currentAccount().current?.identifier == result.account.identifier)
            let silent = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: result.account))
            #expect(silent.source == .cache)
            #expect(silent.accessToken == result.accessToken)
        }
    }

    @Test("a wrong password is invalidGrant with AADSTS50126")
    func wrongPassword() async throws {
        try await Harness.with { h in
            var parameters = Self.megan
            parameters.password = "not-the-password"
            let error = try await #require(throws: MSALError.self) {
                try await h.app().acquireTokenByUsernamePassword(parameters)
            }
            #expect(error.code == .invalidGrant)
            #expect(error.stsErrorCodes == [50126])
        }
    }

    @Test("a user who must pass MFA: interactionRequired, with invalid_grant, basic_action and AADSTS50076 kept")
    func multifactorRequired() async throws {
        try await Harness.with { h in
            let app = try h.app(client: h.ids.externalPublicClient, tenant: "contosocustomers.onmicrosoft.com")
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenByUsernamePassword(
                    UsernamePasswordParameters(
                        scopes: ["User.Read"], username: h.ids.mfaUser, password: h.ids.mfaUserPassword))
            }
            #expect(error.code == .interactionRequired)
            #expect(error.oauthError == "invalid_grant")
            #expect(error.oauthSubError == "basic_action")
            #expect(error.stsErrorCodes == [50076])
            #expect(try await app.accounts().isEmpty)
        }
    }

    @Test("a federated user: interactionRequired saying why, and the password is never sent")
    func federatedUser() async throws {
        try await Harness.with { h in
            let transport = try IdentityPlatformClientTests.RecordingTransport()
            let app = try h.app(transport: transport)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenByUsernamePassword(
                    UsernamePasswordParameters(
                        scopes: ["User.Read"], username: "pat@fabrikam.com", password: "Pat-Secret-9"))
            }
            #expect(error.code == .interactionRequired)
            #expect(error.message.contains("fabrikam.com is federated"))
            #expect(error.message.contains("WS-Trust"))
            #expect(try await h.tokenRequests().isEmpty)
            #expect(
                !transport.sent.contains { String(decoding: $0.body ?? Data(), as: UTF8.self).contains("Pat-Secret-9") }
            )
        }
    }

    @Test("the password and username are not logged with PII logging off, nor in the parameters' description")
    func nothingLogged() async throws {
        try await Harness.with { h in
            let store = CapturingLogHandler.Store()
            var logger = Logger(label: "test", factory: { _ in CapturingLogHandler(store: store) })
            logger.logLevel = .trace
            let app = try h.app(logger: logger)
            _ = try await app.acquireTokenByUsernamePassword(Self.megan)
            var wrong = Self.megan
            wrong.password = "Wrong-Pass-77"
            _ = try? await app.acquireTokenByUsernamePassword(wrong)
            let logs = store.all
            #expect(logs.contains("userrealm"))
            for secret in ["Megan-Demo-Pass1", "Wrong-Pass-77", "MeganB@contoso.onmicrosoft.com", "MeganB"] {
                #expect(!logs.contains(secret), "\(secret) logged")
            }
            var dumped = ""
            dump(Self.megan, to: &dumped)
            for shown in [Self.megan.description, dumped] {
                #expect(!shown.contains("Megan-Demo-Pass1"))
                #expect(!shown.contains("MeganB"))
            }
        }
    }

    @Test("extra query parameters go on the token endpoint's URL, not in the form")
    func extraQueryParameters() async throws {
        try await Harness.with { h in
            let transport = try IdentityPlatformClientTests.RecordingTransport()
            let app = try h.app(transport: transport)
            var parameters = Self.megan
            parameters.extraQueryParameters = ["slice": "testslice", "dc": "ESTS-PUB-WUS2"]
            _ = try await app.acquireTokenByUsernamePassword(parameters)
            let token = try #require(transport.sent.first { $0.request.url?.path.hasSuffix("/token") == true })
            #expect(token.request.url?.query == "dc=ESTS-PUB-WUS2&slice=testslice")
            #expect(!String(decoding: token.body ?? Data(), as: UTF8.self).contains("slice"))
        }
    }
}
