import AsyncHTTPClient
import Foundation
import IdentityEmulator
import SampleServers
import Testing
import TodoAPI
import WebAppSample

/// What the samples print once they listen: the URL first (the line scripts read), every route they serve, the
/// identity provider, and the emulator's demo user to sign in as.
@Suite("The samples' banners", .timeLimit(.minutes(2)))
struct SampleBannerTests {
    typealias IDs = Directory.DemoIDs

    @Test("the demo user is read from the emulator's directory: Jane in External ID, Megan in Contoso")
    func demoUsers() throws {
        let jane = try #require(Directory.demo.passwordUser(in: IDs.externalTenant))
        #expect((jane.userPrincipalName, jane.password) == ("jane@example.com", "Jane-Demo-Pass4"))
        let megan = try #require(Directory.demo.passwordUser(in: "Contoso.onmicrosoft.com"))
        #expect((megan.userPrincipalName, megan.password) == ("MeganB@contoso.onmicrosoft.com", "Megan-Demo-Pass1"))
        #expect(Directory.demo.passwordUser(in: "nowhere.example") == nil)
    }

    /// Each route of `banner` with a method, `{id}` as 1: its status without a session or a token.
    static func statuses(of banner: SampleBanner, at site: URL, http: HTTPClient) async throws -> [String: Int] {
        var statuses: [String: Int] = [:]
        for route in banner.routes {
            for method in route.method.split(separator: "|") {
                var request = HTTPClientRequest(
                    url: site.absoluteString + route.path.replacingOccurrences(of: "{id}", with: "1"))
                request.method = .init(rawValue: String(method))
                if method == "POST" {
                    request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                    request.body = .bytes(.init(string: ""))
                }
                statuses["\(method) \(route.path)"] = Int(
                    try await http.execute(request, timeout: .seconds(30)).status.code)
            }
        }
        return statuses
    }

    @Test(
        "webapp-sample: its URL, what to open, every route it serves, the authority, the to-do API, Jane",
        arguments: SampleFramework.allCases)
    func webAppBanner(framework: SampleFramework) async throws {
        try await WebAppSite.with(framework: framework) { site in
            let jane = try #require(Directory.demo.passwordUser(in: IDs.externalTenant))
            let banner = WebAppSampleServer.banner(
                site.configuration, url: site.url, demoUser: (jane.userPrincipalName, try #require(jane.password)))
            let lines = banner.text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first == "webapp-sample listening on \(site.url.absoluteString)")
            #expect(banner.text.contains(framework.bannerLine))
            #expect(banner.text.contains("Open \(site.url.absoluteString)/ in a browser and sign in."))
            #expect(
                banner.text.contains(
                    "Identity provider: \(site.configuration.client.authority.url.absoluteString) (client id \(IDs.webApp))"
                ))
            #expect(banner.text.contains("To-do API: \(site.configuration.todoListURL.absoluteString)"))
            #expect(
                banner.text.contains("Demo user (the emulator's built-in directory): jane@example.com  Jane-Demo-Pass4")
            )
            #expect(banner.text.contains(#"  POST      /todos/{id}/delete  delete a to-do"#))
            #expect(banner.text.hasSuffix("Press Ctrl-C to stop.\n"))
            // Every route it lists is served: none is a 404 or a 405.
            let statuses = try await Self.statuses(of: banner, at: site.url, http: site.http)
            #expect(statuses.count == 10)
            #expect(statuses.filter { $0.value == 404 || $0.value == 405 }.isEmpty, "\(statuses)")
            #expect(statuses["GET /"] == 200 && statuses["GET /style.css"] == 200)
        }
    }

    @Test(
        "todo-api: its URL, each API's routes, the tenants it accepts, where /api1/me gets tokens, Jane",
        arguments: SampleFramework.allCases)
    func todoAPIBanner(framework: SampleFramework) async throws {
        try await TodoAPIEndToEndTests.withServices(framework) { emulator, api, http in
            let configuration = try TodoAPIEndToEndTests.configuration(emulator, framework: framework)
            let banner = TodoAPIServer.banner(
                configuration, url: api, demoUser: ("jane@example.com", "Jane-Demo-Pass4"))
            #expect(banner.text.hasPrefix("todo-api listening on \(api.absoluteString)\n"))
            #expect(banner.text.contains(framework.bannerLine))
            for path in ["/api1/todolist", "/api1/todolist/{id}", "/api1/me", "/api2/todolist", "/api2/todolist/{id}"] {
                #expect(banner.text.contains(" \(path) "), "\(path)")
            }
            #expect(!banner.text.contains("/api2/me"))
            #expect(banner.text.contains("tenants accepted: \(IDs.contosoTenant), \(IDs.externalTenant)"))
            #expect(banner.text.contains("GET /api1/me: on-behalf-of tokens from tenant \(IDs.externalTenant)"))
            #expect(banner.text.contains("jane@example.com  Jane-Demo-Pass4"))
            #expect(
                banner.text.contains(
                    "Try it: msal native signin --email jane@example.com, then msal native call \(api.absoluteString)/api1/todolist --scopes api://\(IDs.api1)/ToDoList.Read"
                ))
            // Every route it lists is served: without a token, each asks for one.
            let statuses = try await Self.statuses(of: banner, at: api, http: http)
            #expect(statuses.count == 7)
            #expect(Set(statuses.values) == [401], "\(statuses)")

            var withoutSecret = configuration
            withoutSecret.api1Credential = nil
            let off = TodoAPIServer.banner(withoutSecret, url: api, demoUser: nil).text
            #expect(!off.contains("your Microsoft Graph profile"))
            #expect(off.contains("GET /api1/me is off: API 1 has no client secret (set TODO_API1_SECRET)."))
            #expect(!off.contains("Demo user"))
            #expect(off.contains("Try it: msal call \(api.absoluteString)/api1/todolist --scopes"))
        }
    }
}
