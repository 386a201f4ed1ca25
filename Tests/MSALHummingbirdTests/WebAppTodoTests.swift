import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import InMemoryLogging
import Logging
import SampleServers
import Testing

/// webapp-sample's to-do pages over plain HTTP: adding and deleting through todo-api with the session's
/// anti-forgery token, and failures answered with a page that says what to do, logged with their cause.
@Suite("webapp-sample's to-dos and error pages", .timeLimit(.minutes(2)))
struct WebAppTodoTests {
    /// The anti-forgery token in a page's forms.
    static func antiForgeryToken(in page: String) -> String? {
        guard let start = page.range(of: #"name="csrf_token" value=""#)?.upperBound,
            let end = page[start...].firstIndex(of: "\"")
        else { return nil }
        return String(page[start..<end])
    }

    static func html(_ response: HTTPClientResponse) async throws -> String {
        String(buffer: try await response.body.collect(upTo: 1 << 20))
    }

    @Test(
        "add and delete a to-do through todo-api; a form without the session's token changes nothing",
        arguments: SampleFramework.allCases)
    func addAndDelete(framework: SampleFramework) async throws {
        try await WebAppSite.with(framework: framework, todoList: .todoAPI) { site in
            let session = try await site.signInJane(
                try await site.start(), as: AutomatedUser(http: site.http, choices: []))
            let empty = try await Self.html(try await site.request("/todos", cookies: [session]))
            #expect(empty.contains(#"id="empty""#))
            let token = try #require(Self.antiForgeryToken(in: empty))

            let added = try await site.request(
                "/todos", cookies: [session], form: "csrf_token=\(token)&description=Water+the+plants")
            #expect(added.status == .seeOther)
            #expect(added.headers.first(name: "Location") == "/todos")
            let listed = try await Self.html(try await site.request("/todos", cookies: [session]))
            #expect(listed.contains(#"<span class="item">Water the plants</span>"#))
            #expect(listed.contains("1 to-do"))
            let id = try #require(
                listed.range(of: #"action="/todos/"#).map { listed[$0.upperBound...].prefix(while: \.isNumber) })

            for form in ["description=Forged", "csrf_token=forged&description=Forged"] {
                let forged = try await site.request("/todos", cookies: [session], form: form)
                #expect(forged.status == .forbidden, "\(form)")
                #expect(try await Self.html(forged).contains("did not come from the app&#39;s own page"), "\(form)")
                let kept = try await site.request("/todos/\(id)/delete", cookies: [session], form: form)
                #expect(kept.status == .forbidden, "\(form)")
            }
            let blank = try await site.request("/todos", cookies: [session], form: "csrf_token=\(token)&description=+")
            #expect(blank.status == .badRequest)
            #expect(try await Self.html(blank).contains("Type what needs doing, then press Add."))

            let deleted = try await site.request("/todos/\(id)/delete", cookies: [session], form: "csrf_token=\(token)")
            #expect(deleted.status == .seeOther)
            let after = try await Self.html(try await site.request("/todos", cookies: [session]))
            #expect(!after.contains("Water the plants"))
            #expect(after.contains("0 to-dos"))
            let again = try await site.request("/todos/\(id)/delete", cookies: [session], form: "csrf_token=\(token)")
            #expect(again.status == .notFound)
            #expect(try await Self.html(again).contains("There is no to-do \(id) in your list."))

            // Nobody signed in: the form leads to a sign-in that returns to the list.
            let anonymous = try await site.request("/todos", form: "csrf_token=\(token)&description=x")
            #expect(anonymous.status == .found)
            #expect(anonymous.headers.first(name: "Location") == "/auth/signin?returnTo=/todos")
        }
    }

    @Test(
        "the to-do API down: 502 with a page saying to start todo-api, the connection's failure in the log",
        arguments: SampleFramework.allCases)
    func apiDown(framework: SampleFramework) async throws {
        let logs = InMemoryLogHandler()
        try await WebAppSite.with(
            framework: framework, todoList: .down, logger: Logger(label: "webapp-sample") { _ in logs }
        ) { site in
            let session = try await site.signInJane(
                try await site.start(), as: AutomatedUser(http: site.http, choices: []))
            let todos = try await site.request("/todos", cookies: [session])
            #expect(todos.status == .badGateway)
            #expect(todos.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
            let page = try await Self.html(todos)
            #expect(page.contains(#"<link rel="stylesheet" href="/style.css">"#))
            #expect(page.contains("The to-do API at 127.0.0.1:"))
            #expect(page.contains("did not answer. Start it with `swift run todo-api`"))
            let logged = try #require(logs.entries.first { $0.message == "request failed" })
            #expect(logged.level == .error)
            #expect(logged.metadata["status"] == "502")
            #expect(logged.metadata["path"] == "/todos")
            #expect(logged.metadata["cause"]?.description.contains("GET /api1/todolist failed") == true)
        }
    }

    @Test(
        "an unknown page and a sign-in that did not complete: pages of the app, styled, with a way home",
        arguments: SampleFramework.allCases)
    func errorPages(framework: SampleFramework) async throws {
        try await WebAppSite.with(framework: framework) { site in
            let missing = try await site.request("/nowhere")
            #expect(missing.status == .notFound)
            let page = try await Self.html(missing)
            #expect(page.contains("There is nothing at GET /nowhere."))
            #expect(page.contains(#"<a id="home" href="/">Home</a>"#))
            #expect(page.contains(#"href="/style.css""#))

            // The platform's error for the sign-in in progress: a page, and the sign-in cookie removed.
            let started = try await site.start()
            let denied = try await site.request(
                "/auth/redirect?error=access_denied&state=\(try #require(started.state))",
                cookies: [started.signInCookie])
            #expect(denied.status == .unauthorized)
            #expect(denied.headers["Set-Cookie"].contains { $0.hasPrefix("msal_signin=") && $0.contains("Max-Age=0") })
            #expect(try await Self.html(denied).contains("The sign-in did not complete; start again."))

            let css = try await site.request("/style.css")
            #expect(css.status == .ok)
            #expect(css.headers.first(name: "Content-Type") == "text/css; charset=utf-8")
            #expect(String(buffer: try await css.body.collect(upTo: 1 << 20)).contains("font:"))
        }
    }
}
