import EmulatorAutomation
import Foundation
import IdentityEmulator
import Locking
import MSAL
import Testing

@Suite(
    "Silent details: declined scopes, proactive refresh, FOCI, throttling, transport failures, persistence, current account"
)
struct SilentDetailsTests {
    @Test("scopes the server declined: serverDeclinedScopes with the granted and declined lists")
    func declinedScopes() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan))
            try await h.scenario("token", "declineScopes")
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read", "Mail.Read"]))
            }
            #expect(error.code == .serverDeclinedScopes)
            #expect(error.declinedScopes == ["Mail.Read"])
            #expect(error.grantedScopes?.contains("User.Read") == true)
            #expect(error.errorUserInfo["MSALDeclinedScopesKey"] as? [String] == ["Mail.Read"])
            let account = try #require(try await app.accounts().first)
            let granted = try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: account))
            #expect(granted.source == .cache)
        }
    }

    @Test("after refresh_on a token is refreshed; if that fails the still-valid cached one is returned")
    func proactiveRefresh() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan), capabilities: ["cp1"])
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            h.clock.advance(by: 1900)
            try await h.scenario("token", "serverError", count: 2)
            let fallback = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account))
            #expect(fallback.accessToken == first.accessToken)
            #expect(fallback.source == .cache)
            let refreshed = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account))
            #expect(refreshed.source == .identityProvider)
            #expect(refreshed.accessToken != first.accessToken)
        }
    }

    @Test("a family app signs in once; its sibling gets tokens silently with the family refresh token")
    func familyRefreshToken() async throws {
        try await Harness.with { h in
            let cache = TokenCache()
            let one = try h.app(client: h.ids.familyClientOne, user: h.user(Harness.megan), cache: cache)
            let signedIn = try await one.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            let two = try h.app(client: h.ids.familyClientTwo, cache: cache)
            let sibling = try await two.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: signedIn.account))
            #expect(sibling.source == .identityProvider)
            #expect(try await h.tokenRequests() == ["authorization_code", "refresh_token"])
        }
    }

    @Test("429 with a short Retry-After is waited for and retried; a long one is reported")
    func throttling() async throws {
        try await Harness.with { h in
            let waits = Locked<[Duration]>([])
            let app = try h.app(user: h.user(Harness.megan), sleep: { d in waits.withLock { $0.append(d) } })
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            _ = try await h.admin("POST", "scenarios", body: #"{"route":"token","fault":"throttle","retryAfter":"2"}"#)
            _ = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            #expect(waits.withLock { $0 } == [.seconds(2)])
            _ = try await h.admin(
                "POST", "scenarios", body: #"{"route":"token","fault":"throttle","retryAfter":"600"}"#)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            }
            #expect(error.internalCode == .throttled)
            #expect(error.retryAfter == 600)
            #expect(error.httpStatus == 429)

            // The same request again: refused at once, without reaching the identity platform, until the wait is over.
            let requests = try await h.tokenRequests().count
            let local = try await #require(throws: MSALError.self) {
                try await app.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            }
            #expect(local.internalCode == .throttled && local.message.hasPrefix("Not sent (throttled locally"))
            #expect((local.retryAfter ?? 0) > 0 && (local.retryAfter ?? 0) <= 600)
            #expect(try await h.tokenRequests().count == requests)
            h.clock.advance(by: 601)
            _ = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            #expect(try await h.tokenRequests().count == requests + 1)
        }
    }

    @Test("a refresh refused with invalid_grant is not sent again for 120 s, unless a new sign-in changed the cache")
    func refusedRefreshThrottled() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan, Harness.megan))
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            h.clock.advance(by: 1)
            try await h.revoke("MeganB@contoso.onmicrosoft.com")
            h.clock.advance(by: 1)
            let silent = SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true)
            // The error, or nil when a token came back (never printed: it would put a token in the test's output).
            let failure = { () async -> MSALError? in
                do {
                    _ = try await app.acquireTokenSilently(silent)
                    return nil
                } catch {
                    return error as? MSALError
                }
            }
            let refused = try #require(await failure(), "the revoked refresh token must be refused")
            #expect(refused.code == .interactionRequired && refused.internalCode != .throttled)
            let requests = try await h.tokenRequests().count
            let local = try #require(await failure(), "the same refresh must fail locally")
            #expect(local.code == .interactionRequired && local.internalCode == .throttled)
            #expect(try await h.tokenRequests().count == requests, "no request while throttled")

            // A new sign-in brings a new refresh token: another request, sent at once.
            _ = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"], prompt: .login))
            _ = try await app.acquireTokenSilently(silent)
            #expect(try await h.tokenRequests().suffix(2) == ["authorization_code", "refresh_token"])
        }
    }

    @Test("a transport failure is a clear error and leaves the cache untouched")
    func transportFailure() async throws {
        try await Harness.with { h in
            let cache = TokenCache()
            let app = try h.app(user: h.user(Harness.megan), cache: cache)
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            var configuration = app.configuration
            configuration.transport = FailingTokenTransport(inner: configuration.transport)
            let offline = try PublicClientApplication(configuration: configuration)
            let error = try await #require(throws: MSALError.self) {
                try await offline.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            }
            #expect(error.internalCode == .transportFailed)
            let cached = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account))
            #expect(cached.accessToken == first.accessToken)
        }
    }

    @Test("the cache persists through a TokenCachePersistence and another app instance reads it")
    func persistence() async throws {
        try await Harness.with { h in
            let storage = MemoryPersistence()
            let app = try h.app(user: h.user(Harness.megan), cache: TokenCache(persistence: storage))
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            let saved = try #require(try await storage.load())
            let text = String(decoding: saved, as: UTF8.self)
            #expect(text.contains("\"AccessToken\""))
            #expect(text.contains("\"credential_type\": \"RefreshToken\""))
            let restarted = try h.app(cache: TokenCache(persistence: storage))
            let current = try await restarted.currentAccount().current
            #expect(current?.identifier == first.account.identifier)
            let silent = try await restarted.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: try #require(current)))
            #expect(silent.source == .cache)
        }
    }

    @Test("current and previous account follow sign-ins and sign-outs")
    func currentAndPrevious() async throws {
        try await Harness.with { h in
            let user = h.user(Harness.megan)
            let app = try h.app(user: user)
            let megan = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            user.then(Harness.adele)
            let adele = try await app.acquireTokenInteractively(
                InteractiveParameters(scopes: ["User.Read"], prompt: .login))
            var accounts = try await app.currentAccount()
            #expect(accounts.current == adele.account)
            #expect(accounts.previous == megan.account)
            try await app.signOut(adele.account)
            accounts = try await app.currentAccount()
            #expect(accounts.current == megan.account)
            #expect(accounts.previous == adele.account)
            #expect(accounts.previous?.username == "AdeleV@contoso.onmicrosoft.com")
        }
    }
}

/// Fails every token-endpoint request as if the network were down.
struct FailingTokenTransport: HTTPTransport {
    let inner: any HTTPTransport

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        if request.url?.path.hasSuffix("/token") == true {
            throw MSALError.internal(.transportFailed, "connection refused")
        }
        return try await inner.send(request, body: body)
    }
}

/// Cache bytes in memory, standing in for a file.
actor MemoryPersistence: TokenCachePersistence {
    private var data: Data?
    func load() async throws -> Data? { data }
    func save(_ data: Data) async throws { self.data = data }
}

@Suite("Authority aliases and device mode")
struct AliasAndDeviceModeTests {
    @Test("tokens cached through one alias (127.0.0.1) serve an app configured with another (localhost)")
    func aliasesShareTheCache() async throws {
        try await Harness.with { h in
            let cache = TokenCache()
            let viaIP = try h.app(user: h.user(Harness.megan), cache: cache)
            let signedIn = try await viaIP.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            var configuration = viaIP.configuration
            configuration.authority = try Authority("http://localhost:\(h.emulator.port)/organizations")
            let viaName = try PublicClientApplication(configuration: configuration)
            #expect(try await viaName.accounts().count == 1)
            let hit = try await viaName.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: signedIn.account))
            #expect(hit.source == .cache)
            #expect(hit.accessToken == signedIn.accessToken)
        }
    }

    @Test("device information reports the configured mode")
    func deviceMode() async throws {
        try await Harness.with { h in
            var configuration = try h.app().configuration
            #expect(
                try PublicClientApplication(configuration: configuration).deviceInformation().deviceMode == .private)
            configuration.deviceMode = .shared
            let shared = try PublicClientApplication(configuration: configuration).deviceInformation()
            #expect(shared.deviceMode == .shared)
            #expect(!shared.hasSSOExtension)
        }
    }
}

@Suite("File persistence")
struct FilePersistenceTests {
    @Test("the cache file is created 0600 in a 0700 folder, written atomically, and read back by a new app")
    func fileCache() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "msal-cache-\(UUID().uuidString)/msal")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let file = folder.appendingPathComponent("token_cache.json")
        try await Harness.with { h in
            let app = try h.app(
                user: h.user(Harness.megan), cache: TokenCache(persistence: FileTokenCachePersistence(url: file)))
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.path)
            #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["token_cache.json"])
            let again = try h.app(cache: TokenCache(persistence: FileTokenCachePersistence(url: file)))
            let silent = try await again.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account))
            #expect(silent.source == .cache)
        }
    }

    @Test("the default path follows XDG_CACHE_HOME")
    func defaultPath() {
        #expect(
            FileTokenCachePersistence.defaultURL(environment: ["XDG_CACHE_HOME": "/x/cache"]).path
                == "/x/cache/msal/token_cache.json")
        #expect(FileTokenCachePersistence.defaultURL(environment: [:]).path.hasSuffix("/.cache/msal/token_cache.json"))
    }
}
