import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import Locking
import Logging
import MSAL
import NIOCore
import Testing

@Suite("End to end: device code, calling APIs with a claims challenge, faults, logging")
struct MoreFlowsTests {
    @Test("device code: the callback gets the code; slow_down adds 5 s to the interval; tokens arrive")
    func deviceCodeWithSlowDown() async throws {
        try await Harness.with { h in
            let waits = Locked<[Duration]>([])
            let app = try h.app(sleep: { duration in
                waits.withLock { $0.append(duration) }
                await Task.yield()
            })
            try await h.scenario("token", "slowDown")
            let shown = Locked<DeviceCodeInfo?>(nil)
            let result = try await app.acquireTokenByDeviceCode(DeviceCodeParameters(scopes: ["User.Read"])) { info in
                shown.withLock { $0 = info }
                try await DeviceLogin(base: h.emulator.baseURL, http: h.http).signIn(
                    code: info.userCode, username: "AdeleV@contoso.onmicrosoft.com", password: "Adele-Demo-Pass2")
            }
            let info = try #require(shown.withLock { $0 })
            #expect(info.userCode.count == 9)
            #expect(info.verificationURI.absoluteString == "\(h.emulator.baseURL.absoluteString)/devicelogin")
            #expect(info.message.contains(info.userCode))
            #expect(result.account.username == "AdeleV@contoso.onmicrosoft.com")
            #expect(waits.withLock { $0 } == [.seconds(5), .seconds(10)])
        }
    }

    @Test("device code: the parameters' authority names the tenant the user signs in to")
    func deviceCodeInAnotherTenant() async throws {
        try await Harness.with { h in
            let app = try h.app()
            var parameters = DeviceCodeParameters(scopes: ["User.Read"])
            parameters.authority = try h.authority("fabrikam.onmicrosoft.com")
            let result = try await app.acquireTokenByDeviceCode(parameters) { info in
                try await DeviceLogin(base: h.emulator.baseURL, http: h.http).signIn(
                    code: info.userCode, username: "MeganB@contoso.onmicrosoft.com", password: "Megan-Demo-Pass1")
            }
            #expect(result.tenantProfile.tenantID == h.ids.fabrikamTenant)
            #expect(!result.tenantProfile.isHomeTenantProfile)
            #expect(result.tenantProfile.localAccountID == "a81f3c5e-7d2b-4e96-b0a4-c3e5f7a9d1b2")
        }
    }

    @Test("device code: an expired code stops polling with timedOut")
    func deviceCodeExpiry() async throws {
        try await Harness.with { h in
            let app = try h.app()
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenByDeviceCode(DeviceCodeParameters(scopes: ["User.Read"])) { _ in
                    try await h.setClockOffset(901)
                }
            }
            #expect(error.internalCode == .timedOut)
            #expect(error.oauthError == "expired_token")
        }
    }

    @Test("device code: declining is userCanceled")
    func deviceCodeDeclined() async throws {
        try await Harness.with { h in
            let app = try h.app()
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenByDeviceCode(DeviceCodeParameters(scopes: ["User.Read"])) { info in
                    try await DeviceLogin(base: h.emulator.baseURL, http: h.http).decline(code: info.userCode)
                }
            }
            #expect(error.code == .userCanceled)
        }
    }

    @Test(
        "calling Graph: 200, then after a revocation the CAE challenge asks for interaction with the claims; with them it works again"
    )
    func graphClaimsChallenge() async throws {
        try await Harness.with { h in
            let user = h.user(Harness.megan)
            let app = try h.app(user: user, capabilities: ["cp1"])
            let signedIn = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            let me = HTTPRequest(method: .get, url: h.emulator.baseURL.appendingPathComponent("v1.0/me"))
            let (ok, _) = try await app.send(me, scopes: ["User.Read"], account: signedIn.account)
            #expect(ok.status == .ok)
            h.clock.advance(by: 1)
            try await h.revoke("MeganB@contoso.onmicrosoft.com")
            let error = try await #require(throws: MSALError.self) {
                try await app.send(me, scopes: ["User.Read"], account: signedIn.account)
            }
            #expect(error.code == .interactionRequired)
            let claims = try #require(error.claimsChallenge)
            #expect(claims.contains("nbf"))
            user.then(Harness.megan)
            var again = InteractiveParameters(scopes: ["User.Read"])
            again.claims = claims
            again.prompt = .login
            let renewed = try await app.acquireTokenInteractively(again)
            let (after, _) = try await app.send(me, scopes: ["User.Read"], account: renewed.account)
            #expect(after.status == .ok)
        }
    }

    @Test("a 500 is retried once; a second 500 is a serverError and the cache stays as it was")
    func serverErrors() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan))
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            try await h.scenario("token", "serverError")
            let retried = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            #expect(retried.source == .identityProvider)
            try await h.scenario("token", "serverError", count: 2)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            }
            #expect(error.code == .serverError)
            let cached = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account))
            #expect(cached.accessToken == retried.accessToken)
        }
    }

    @Test("malformed and HTML answers are clear errors", arguments: ["malformedJSON", "htmlError", "truncatedBody"])
    func brokenAnswers(fault: String) async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan))
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            try await h.scenario("token", fault, count: 2)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            }
            #expect([.invalidResponse, .unhandledResponse].contains(error.internalCode), "\(error)")
        }
    }

    @Test("logs carry no token, code, password or username unless PII logging is on")
    func noSecretsInLogs() async throws {
        try await Harness.with { h in
            let store = CapturingLogHandler.Store()
            var logger = Logger(label: "test", factory: { _ in CapturingLogHandler(store: store) })
            logger.logLevel = .trace
            let app = try h.app(user: h.user(Harness.megan), logger: logger)
            let result = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            h.clock.advance(by: 4000)
            _ = try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: result.account))
            let logs = store.all
            #expect(!logs.isEmpty)
            for secret in [
                result.accessToken, result.idToken ?? "-", "Megan-Demo-Pass1", "MeganB@contoso.onmicrosoft.com",
                "code=",
            ] {
                #expect(!logs.contains(secret))
            }
        }
    }
}
