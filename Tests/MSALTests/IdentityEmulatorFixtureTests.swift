import Foundation
import IdentityEmulator
import IdentityEmulatorTesting
import MSAL
import Testing

/// IdentityEmulatorTesting, as an app's tests use it: an emulator per test (over TLS too), a sign-in without a
/// browser, tokens minted and checked, the outbox, the request log, the clock.
@Suite("Test fixtures: IdentityEmulatorTesting", .timeLimit(.minutes(3)))
struct IdentityEmulatorFixtureTests {
    typealias IDs = Directory.DemoIDs
    static let megan = (username: "MeganB@contoso.onmicrosoft.com", password: "Megan-Demo-Pass1")

    @Test("a sign-in without a browser over TLS: a ready app, its silent call from the cache, the request log")
    func signInOverTLS() async throws {
        try await withIdentityEmulator(tls: true) { emulator in
            #expect(emulator.baseURL.scheme == "https")
            let (app, result) = try await emulator.signIn(Self.megan.username, password: Self.megan.password)
            #expect(result.account.username == Self.megan.username)
            let tokenRequests = try await emulator.requests(pathSuffix: "/oauth2/v2.0/token")
            #expect(tokenRequests.map(\.grantType) == ["authorization_code"])
            #expect(tokenRequests.first?.clientID == IDs.publicClient)
            #expect(tokenRequests.first?.status == 200)
            let again = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: result.account))
            #expect(again.source == .cache)
            #expect(try await emulator.requests(pathSuffix: "/oauth2/v2.0/token").count == 1)
        }
    }

    @Test("a wrong password fails the sign-in with the emulator's error")
    func wrongPassword() async throws {
        try await withIdentityEmulator { emulator in
            let error = await #expect(throws: IdentityEmulatorFixtureError.self) {
                _ = try await emulator.signIn(Self.megan.username, password: "not-the-password")
            }
            #expect(error?.description.contains("AADSTS50126") == true, "\(String(describing: error))")
        }
    }

    @Test("minted tokens pass an API's validator with what was asked: scopes, roles, groups, claims; an ID token")
    func mintedTokens() async throws {
        try await withIdentityEmulator { emulator in
            let validator = try emulator.accessTokenValidator(api: IDs.api1)
            let user = try await validator.validate(
                try await emulator.accessToken(
                    api: IDs.api1, user: "jane@example.com", scopes: ["ToDoList.Read"], tenant: IDs.externalTenant,
                    groups: ["g1"], claims: ["acr": "c1"]))
            #expect(user.scopes == ["ToDoList.Read"])
            #expect(user.claims["groups"] as? [String] == ["g1"])
            #expect(user.claims["acr"] as? String == "c1")
            let daemon = try await validator.validate(
                try await emulator.appToken(api: IDs.api1, app: IDs.confidentialClient, tenant: IDs.externalTenant))
            #expect(daemon.isAppOnly)
            #expect(daemon.roles.contains("ToDoList.Read.All"))
            let id = try await emulator.idToken(app: IDs.publicClient, user: Self.megan.username)
            #expect(id.split(separator: ".").count == 3)
            await #expect(throws: IdentityEmulatorFixtureError.self) {
                _ = try await emulator.accessToken(api: IDs.api1, user: "nobody@example.com", scopes: ["ToDoList.Read"])
            }
        }
    }

    @Test("claims for the next token a user is issued, the outbox, and the clock")
    func nextTokensOutboxAndClock() async throws {
        try await withIdentityEmulator { emulator in
            try await emulator.claimsForNextTokens(
                ["wids": ["62e90394-69f5-4237-9190-012177145e10"]], user: Self.megan.username)
            let (_, result) = try await emulator.signIn(Self.megan.username, password: Self.megan.password)
            let payload = try #require(result.accessToken.split(separator: ".").dropFirst().first)
            let claims = try JSONSerialization.jsonObject(with: try #require(MSAL.Base64URL.decode(payload)))
            #expect((claims as? [String: Any])?["wids"] as? [String] == ["62e90394-69f5-4237-9190-012177145e10"])

            var configuration = try PublicClientApplicationConfiguration(
                clientID: IDs.externalPublicClient,
                authority: try emulator.authority("contosocustomers.onmicrosoft.com"))
            configuration.transport = emulator.transport
            let native = try NativeAuthApplication(configuration: configuration)
            guard case .codeRequired = try await native.resetPassword(username: "jane@example.com") else {
                Issue.record("no code was sent")
                return
            }
            let sent = try await emulator.outbox()
            #expect(sent.map(\.to) == ["jane@example.com"])
            #expect(try await emulator.lastCode(to: "JANE@example.com") == sent.last?.code)

            let graph = try await emulator.accessToken(
                api: "https://graph.microsoft.com", user: Self.megan.username, scopes: ["User.Read"], lifetime: 600)
            let me = HTTPRequest(
                method: .get, url: emulator.baseURL.appendingPathComponent("v1.0/me"),
                headerFields: [.authorization: "Bearer \(graph)"])
            #expect(try await emulator.transport.send(me, body: nil).0.status == .ok)
            try await emulator.advanceClock(by: 3600)
            #expect(try await emulator.transport.send(me, body: nil).0.status == .unauthorized)
        }
    }
}
