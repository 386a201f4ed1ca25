import Foundation
import IdentityEmulator
import MSAL
import SampleServers
import TestServers
import Testing
import TodoAPI
import WebAppSample

/// `webapp-sample`, on Hummingbird and on Vapor, in a real browser: headless Chromium over WebDriver signs in through the emulator's pages, sees
/// the Graph profile and the to-dos that todo-api keeps, signs out and is signed out.
@Suite("webapp-sample in a real browser", .timeLimit(.minutes(5)))
struct WebAppBrowserTests {
    typealias IDs = Directory.DemoIDs

    @Test(
        "sign in, profile, a fresh sign-in when the platform wants one, to-dos through todo-api, sign out",
        arguments: SampleFramework.allCases)
    func signInAndOut(framework: SampleFramework) async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let todoAPI = try TodoAPIEndToEndTests.configuration(emulator, framework: framework)
            try await TodoAPIServer.withRunning(todoAPI) { api in
                try await Self.addTodo("Read the External ID tutorial", emulator: emulator, api: api)
                let web = try WebAppSite.configuration(
                    emulator, todoList: api.appendingPathComponent("api1/todolist"), framework: framework)
                try await WebAppSampleServer.withRunning(web) { site in
                    try await WebDriver.withHeadlessChromium { browser in
                        try await browser.open(site)
                        #expect(try await browser.pageSource.contains("You are not signed in."))
                        // A page that needs a token sends the browser to sign in, then back to it.
                        try await browser.open(site.appendingPathComponent("profile"))
                        #expect(try await browser.pageSource.contains("id=\"signin\""))
                        try await browser.signInJane()
                        try await browser.waitFor("#displayName")
                        #expect(try await browser.currentURL == site.appendingPathComponent("profile").absoluteString)
                        #expect(try await browser.pageSource.contains("Jane Customer"))

                        // Jane's refresh token and sessions are revoked: the to-dos need a new token, the refresh
                        // fails with interaction required, and the app signs her in again, back to the same page.
                        let (revoked, _) = try await DefaultHTTPTransport().send(
                            HTTPRequest(
                                method: .post,
                                url: emulator.baseURL.appendingPathComponent("_emulator/users/jane@example.com/revoke"),
                                headerFields: [.contentType: "application/json"]),
                            body: Data("{}".utf8))
                        #expect(revoked.status == .ok)
                        try await browser.open(site.appendingPathComponent("todos"))
                        #expect(try await browser.pageSource.contains("id=\"signin\""))
                        try await browser.signInJane()
                        try await browser.waitFor("#todo-list")
                        #expect(try await browser.currentURL == site.appendingPathComponent("todos").absoluteString)
                        #expect(
                            try await browser.pageSource.contains(
                                #"<span class="item">Read the External ID tutorial</span>"#))
                        #expect(try await browser.pageSource.contains("1 to-do"))
                        try await browser.open(site)
                        #expect(try await browser.pageSource.contains("Signed in as jane@example.com"))

                        try await browser.click("#signout")
                        try await browser.waitFor("#anonymous")  // the click returns before the sign-out's page
                        #expect(try await browser.pageSource.contains("You are not signed in."))
                        try await browser.open(site.appendingPathComponent("profile"))
                        #expect(try await browser.pageSource.contains("id=\"signin\""), "signed out in Entra too")
                    }
                }
            }
        }
    }

    @Test(
        "a form_post sign-in: the emulator's page posts the response to the app by itself, back to the page",
        arguments: SampleFramework.allCases)
    func formPostSignIn(framework: SampleFramework) async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            var web = try WebAppSite.configuration(emulator, framework: framework)
            web.responseMode = .formPost
            try await WebAppSampleServer.withRunning(web) { site in
                try await WebDriver.withHeadlessChromium { browser in
                    try await browser.open(site.appendingPathComponent("profile"))
                    #expect(try await browser.pageSource.contains("id=\"signin\""))
                    try await browser.signInJane()
                    try await browser.waitFor("#displayName")
                    #expect(try await browser.currentURL == site.appendingPathComponent("profile").absoluteString)
                    #expect(try await browser.pageSource.contains("Jane Customer"))
                }
            }
        }
    }

    @Test(
        "after a real sign-in, return paths a browser could read as another site land on the app",
        arguments: SampleFramework.allCases)
    func hostileReturnPaths(framework: SampleFramework) async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let web = try WebAppSite.configuration(emulator, framework: framework)
            try await WebAppSampleServer.withRunning(web) { site in
                try await WebDriver.withHeadlessChromium { browser in
                    func signIn(returnTo: String) throws -> URL {
                        try #require(URL(string: site.absoluteString + "/auth/signin?returnTo=" + returnTo))
                    }
                    func landedOnSite() async throws -> (Bool, String) {
                        let landed = try await browser.currentURL
                        let components = URLComponents(string: landed)
                        return (components?.host == site.host && components?.port == site.port, landed)
                    }
                    // The first sign-in Jane types; the emulator's session signs her in again without a page.
                    try await browser.open(try signIn(returnTo: "/%09/evil.example"))
                    try await browser.signInJane()
                    try await browser.waitFor("#user")
                    #expect(try await landedOnSite().0)
                    #expect(try await browser.pageSource.contains("Signed in as jane@example.com"))
                    for returnTo in [
                        "/%0A/evil.example", "/%0D%0A/evil.example", "%09//evil.example", "/%5Cevil.example",
                        "%5C%5Cevil.example", "/%252F/evil.example", "%E3%80%80//evil.example",
                        "/%E3%80%80/evil.example", "https://evil.example/", "//evil.example",
                    ] {
                        try await browser.open(try signIn(returnTo: returnTo))
                        let (onSite, landed) = try await landedOnSite()
                        #expect(onSite, "\(returnTo) landed on \(landed)")
                    }
                }
            }
        }
    }

    /// Adds a to-do to Jane's list in API 1, with a token from the password grant the emulator allows.
    static func addTodo(_ description: String, emulator: RunningEmulator, api: URL) async throws {
        let token = try await PasswordGrant.token(
            emulator, username: WebAppSite.jane.username, password: WebAppSite.jane.password,
            tenant: IDs.externalTenant, scope: "api://\(IDs.api1)/ToDoList.ReadWrite")
        let (created, _) = try await DefaultHTTPTransport().send(
            HTTPRequest(
                method: .post, url: api.appendingPathComponent("api1/todolist"),
                headerFields: [.authorization: "Bearer \(token)", .contentType: "application/json"]),
            body: try JSONSerialization.data(withJSONObject: ["description": description]))
        #expect(created.status == .created)
    }
}
