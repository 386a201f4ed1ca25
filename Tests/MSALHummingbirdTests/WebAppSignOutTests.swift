import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import Testing

/// Sign-out from the web app: a `POST` with the session's anti-forgery token; a `GET`, or a `POST` another site
/// could make, signs nobody out.
@Suite("Web-app sign-out", .timeLimit(.minutes(2)))
struct WebAppSignOutTests {
    @Test("GET shows the button; a POST without the session's token is refused; with it, the session ends")
    func signOutNeedsPostAndToken() async throws {
        try await WebAppSite.with { site in
            let user = AutomatedUser(http: site.http, choices: [])
            let session = try await site.signInJane(try await site.start(), as: user)

            let page = try await site.request("/auth/signout", cookies: [session])
            #expect(page.status == .ok)
            #expect(page.headers.first(name: "Content-Security-Policy") == "frame-ancestors 'none'")
            let html = String(buffer: try await page.body.collect(upTo: 1 << 20))
            #expect(html.contains(#"<button type="submit" id="signout">Sign out</button>"#))
            let token = try #require(WebAppSite.antiForgeryToken(in: html))
            #expect(token.count >= 43)
            #expect(try await site.signedIn(session), "a GET signs nobody out")

            for form in ["", "csrf_token=", "csrf_token=forged", "csrf_token=\(token.dropLast())"] {
                let forged = try await site.request("/auth/signout", cookies: [session], form: form)
                #expect(forged.status == .forbidden, "\(form)")
                #expect(try await site.signedIn(session), "\(form)")
            }
            // Another browser's token is not this session's.
            let other = try await site.finishWithSSO(try await site.start(), user: user)
            let otherSession = "msal_session=" + (try #require(WebAppSite.cookie("msal_session", in: other)))
            let otherHome = try await site.request("/", cookies: [otherSession]).body.collect(upTo: 1 << 20)
            let otherToken = try #require(WebAppSite.antiForgeryToken(in: String(buffer: otherHome)))
            #expect(otherToken != token)
            let crossed = try await site.request("/auth/signout", cookies: [session], form: "csrf_token=\(otherToken)")
            #expect(crossed.status == .forbidden)

            let signOut = try await site.request("/auth/signout", cookies: [session], form: "csrf_token=\(token)")
            #expect(signOut.status == .seeOther)
            #expect(signOut.headers.first(name: "Location")?.contains("/oauth2/v2.0/logout") == true)
            #expect(try await site.signedIn(session) == false)

            // Nobody signed in: nothing to do, back home.
            let anonymous = try await site.request("/auth/signout", form: "csrf_token=\(token)")
            #expect(anonymous.status == .seeOther)
            #expect(anonymous.headers.first(name: "Location") == "/")
            #expect(try await site.request("/auth/signout").headers.first(name: "Location") == "/")
        }
    }
}
