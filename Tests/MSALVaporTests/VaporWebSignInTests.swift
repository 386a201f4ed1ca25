import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL
import MSALPostgres
import TestServers
import Testing

/// MSALVapor's web sign-in against the emulator over plain HTTP: the round trip by query and by `form_post`, a new
/// session id at sign-in, return paths that could send the user elsewhere, sign-out by `POST` with the session's
/// anti-forgery token, and the users' tokens in PostgreSQL.
@Suite("Vapor web-app sign-in", .timeLimit(.minutes(3)))
struct VaporWebSignInTests {
    @Test("query: a sealed sign-in cookie, Jane signed in under a new session id, a page that needs her token")
    func queryRoundTrip() async throws {
        try await VaporWebSite.with { site in
            let asked = try await site.request("/profile?view=full")
            #expect(asked.status == .found)
            #expect(asked.headers.first(name: "Location") == "/auth/signin?returnTo=%2Fprofile%3Fview%3Dfull")
            let response = try await site.request("/auth/signin?returnTo=/profile")
            let cookie = try #require(response.headers["Set-Cookie"].first { $0.hasPrefix("msal_signin=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/auth"))
            #expect(cookie.contains("Max-Age=600"))
            let location = try #require(response.headers.first(name: "Location"))
            #expect(location.contains("code_challenge_method=S256"))

            let user = AutomatedUser(http: site.http, choices: [])
            let first = try await site.signInJane(try await site.start(returnTo: "/profile"), as: user)
            #expect(try await site.signedIn(first))
            let profile = try await VaporWebSite.text(try await site.request("/profile", cookies: [first]))
            #expect(profile == "jane@example.com token")

            // Signed in again from the same browser: a new id, and the older one is worth nothing.
            let again = try await site.finishWithSSO(
                try await site.start(cookies: [first]), user: user, cookies: [first])
            #expect(again.status == .found)
            let setCookie = try #require(again.headers["Set-Cookie"].first { $0.hasPrefix("msal_session=") })
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax"))
            let second = "msal_session=" + (try #require(VaporWebSite.cookie("msal_session", in: again)))
            #expect(second != first)
            #expect(try await site.signedIn(second))
            #expect(try await site.signedIn(first) == false)
        }
    }

    @Test("an answer without the sign-in's state is ignored and changes nothing; without a sign-in cookie, 400")
    func answersNeedTheState() async throws {
        try await VaporWebSite.with { site in
            let started = try await site.start()
            for forged in ["error=access_denied&state=forged", "code=stolen&state=forged", "code=stolen"] {
                let answer = try await site.request("/auth/redirect?\(forged)", cookies: [started.signInCookie])
                #expect(answer.status == .badRequest, "\(forged)")
                #expect(!answer.headers["Set-Cookie"].contains { $0.hasPrefix("msal_signin=") }, "\(forged)")
            }
            #expect(try await site.request("/auth/redirect?code=x&state=y").status == .badRequest)
            let session = try await site.signInJane(started, as: AutomatedUser(http: site.http, choices: []))
            #expect(try await site.signedIn(session))
        }
    }

    @Test("a form_post sign-in returns to the page and its query")
    func formPost() async throws {
        try await VaporWebSite.with(responseMode: .formPost) { site in
            let started = try await site.start(returnTo: "%2Fprofile%3Fview%3Dfull")
            #expect(started.authorize.query?.contains("response_mode=form_post") == true)
            let user = AutomatedUser(
                http: site.http, choices: [.signIn(username: "jane@example.com", password: "Jane-Demo-Pass4")])
            user.setCookie("msal_signin", String(started.signInCookie.dropFirst("msal_signin=".count)))
            try await user.open(started.authorize)
            #expect(user.pagesSeen.last == "form_post")
            let session = "msal_session=" + (try #require(user.cookie("msal_session")))
            #expect(try await site.signedIn(session))
        }
    }

    @Test("a return path a browser could read as another site goes home; a local one goes out as ASCII")
    func hostileReturnPaths() async throws {
        let table: [(String, String)] = [
            ("%2Fprofile%3Fview%3Dfull", "/profile?view=full"),
            ("/%09/evil.example", "/"),
            ("/%5Cevil.example", "/"),
            ("/%252F/evil.example", "/"),
            ("https://evil.example/", "/"),
            ("//evil.example", "/"),
            ("javascript:alert(1)", "/"),
            ("/caf%C3%A9", "/caf%C3%A9"),
        ]
        try await VaporWebSite.with { site in
            let user = AutomatedUser(http: site.http, choices: [])
            _ = try await site.signInJane(try await site.start(), as: user)
            for (returnTo, expected) in table {
                let answer = try await site.finishWithSSO(try await site.start(returnTo: returnTo), user: user)
                #expect(answer.status == .found, "\(returnTo)")
                #expect(answer.headers.first(name: "Location") == expected, "\(returnTo)")
            }
        }
    }

    @Test("GET shows the sign-out button; a POST without the session's token is refused; with it, the session ends")
    func signOutByPost() async throws {
        try await VaporWebSite.with { site in
            let session = try await site.signInJane(
                try await site.start(), as: AutomatedUser(http: site.http, choices: []))
            let page = try await site.request("/auth/signout", cookies: [session])
            #expect(page.status == .ok)
            #expect(page.headers.first(name: "Content-Security-Policy") == "frame-ancestors 'none'")
            let html = try await VaporWebSite.text(page)
            let token = try #require(VaporWebSite.antiForgeryToken(in: html))
            #expect(try await site.signedIn(session), "a GET signs nobody out")
            #expect(try await VaporWebSite.text(try await site.request("/", cookies: [session])).contains(token))

            for form in ["", "csrf_token=", "csrf_token=forged", "csrf_token=\(token.dropLast())"] {
                let forged = try await site.request("/auth/signout", cookies: [session], form: form)
                #expect(forged.status == .forbidden, "\(form)")
                #expect(try await site.signedIn(session), "\(form)")
            }
            let signOut = try await site.request("/auth/signout", cookies: [session], form: "csrf_token=\(token)")
            #expect(signOut.status == .seeOther)
            let endSession = try #require(signOut.headers.first(name: "Location").flatMap(URLComponents.init(string:)))
            #expect(endSession.path.hasSuffix("/oauth2/v2.0/logout"))
            #expect(
                endSession.queryItems?.first { $0.name == "post_logout_redirect_uri" }?.value
                    == site.url.absoluteString + "/")
            #expect(try await site.signedIn(session) == false)
            #expect(try await site.request("/auth/signout").headers.first(name: "Location") == "/")
        }
    }

    @Test("with the users' tokens in PostgreSQL: signed in, Jane's partition is in the table; signed out, it is gone")
    func partitionInPostgres() async throws {
        try await PostgresCluster.with { cluster in
            let store = try PostgresTokenCacheStore(url: cluster.socketURL, operationTimeout: .seconds(30))
            do {
                try await VaporWebSite.with(cache: PartitionedTokenCache(store: store)) { site in
                    let session = try await site.signInJane(
                        try await site.start(), as: AutomatedUser(http: site.http, choices: []))
                    #expect(try await site.signedIn(session))
                    let jane = TokenCachePartition.user(
                        homeAccountID: "7a9c1e3f-5b7d-4f9a-8c2e-4f6a8c0e2b4d.\(Directory.DemoIDs.externalTenant)")
                    #expect(try await store.load(jane) != nil)
                    let home = try await VaporWebSite.text(try await site.request("/", cookies: [session]))
                    let token = try #require(VaporWebSite.antiForgeryToken(in: home))
                    _ = try await site.request("/auth/signout", cookies: [session], form: "csrf_token=\(token)")
                    #expect(try await store.load(jane) == nil)
                }
                await store.shutdown()
            } catch {
                await store.shutdown()
                throw error
            }
        }
    }
}
