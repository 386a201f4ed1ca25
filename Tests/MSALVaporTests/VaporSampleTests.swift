import Foundation
import IdentityEmulator
import IdentityEmulatorTesting
import MSAL
import SampleServers
import Testing
import TodoAPI
import VaporTesting
import WebAppSample

/// The samples' Vapor applications in Vapor's testing library (in memory, no socket), with the emulator's tokens:
/// todo-api's answers and webapp-sample's pages, as `--framework vapor` serves them.
@Suite("The samples on Vapor, in Vapor's testing library", .timeLimit(.minutes(2)))
struct VaporSampleTests {
    typealias IDs = Directory.DemoIDs

    static func json(_ response: TestingHTTPResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any] ?? [:]
    }

    @Test("todo-api: a user reads, adds and deletes; no token, a missing scope and an unknown route are explained")
    func todoAPI() async throws {
        try await withIdentityEmulator { emulator in
            var configuration = try TodoAPIConfiguration(
                authority: emulator.authority("organizations"),
                allowedTenants: [IDs.externalTenant], apis: [.init(name: "api1", clientID: IDs.api1)],
                api1Credential: nil, api1Tenant: IDs.externalTenant,
                graphBaseURL: emulator.baseURL.appendingPathComponent("v1.0/"))
            configuration.framework = .vapor
            try await withApp { app in
                try TodoAPIServer.configure(app, configuration)
                let tester = try app.testing()
                let anonymous = try await tester.sendRequest(.GET, "api1/todolist")
                #expect(anonymous.status == .unauthorized)
                #expect(anonymous.headers.first(name: .wwwAuthenticate) == "Bearer")
                #expect(Self.json(anonymous)["error"] as? String == "unauthorized")

                let reader = try await emulator.accessToken(
                    api: IDs.api1, user: "jane@example.com", scopes: ["ToDoList.Read"], tenant: IDs.externalTenant)
                let bearer: HTTPHeaders = ["Authorization": "Bearer \(reader)", "Content-Type": "application/json"]
                let refused = try await tester.sendRequest(
                    .POST, "api1/todolist", headers: bearer, body: ByteBuffer(string: #"{"description":"x"}"#))
                #expect(refused.status == .forbidden)
                #expect(refused.headers.first(name: .wwwAuthenticate)?.contains("insufficient_scope") == true)

                let writer = try await emulator.accessToken(
                    api: IDs.api1, user: "jane@example.com", scopes: ["ToDoList.ReadWrite"], tenant: IDs.externalTenant)
                let writing: HTTPHeaders = ["Authorization": "Bearer \(writer)", "Content-Type": "application/json"]
                let created = try await tester.sendRequest(
                    .POST, "api1/todolist", headers: writing, body: ByteBuffer(string: #"{"description":"Buy milk"}"#))
                #expect(created.status == .created)
                let id = try #require(Self.json(created)["id"] as? Int)
                let listed = try await tester.sendRequest(.GET, "api1/todolist", headers: bearer)
                #expect(
                    (Self.json(listed)["todos"] as? [[String: Any]])?.first?["description"] as? String == "Buy milk")
                #expect(
                    try await tester.sendRequest(.DELETE, "api1/todolist/\(id)", headers: writing).status == .noContent)
                let gone = try await tester.sendRequest(.DELETE, "api1/todolist/\(id)", headers: writing)
                #expect(gone.status == .notFound)
                #expect(Self.json(gone)["error_description"] as? String == "There is no to-do \(id) in your list.")
                let malformed = try await tester.sendRequest(
                    .POST, "api1/todolist", headers: writing, body: ByteBuffer(string: "not json"))
                #expect(malformed.status == .badRequest)
                #expect(Self.json(malformed)["error"] as? String == "invalid_request")

                let unknown = try await tester.sendRequest(.GET, "nowhere")
                #expect(unknown.status == .notFound)
                #expect(Self.json(unknown)["error_description"] as? String == "There is nothing at GET /nowhere.")
            }
        }
    }

    @Test("webapp-sample: home anonymous, a page that needs a token starts a sign-in back to it, the stylesheet")
    func webApp() async throws {
        try await withIdentityEmulator { emulator in
            var configuration = WebAppSampleConfiguration(
                client: try ConfidentialClientApplicationConfiguration(
                    clientID: IDs.webApp, credential: .secret(IDs.webAppSecret),
                    authority: emulator.authority(IDs.externalTenant)),
                graphBaseURL: emulator.baseURL.appendingPathComponent("v1.0/"),
                todoListURL: emulator.baseURL.appendingPathComponent("api1/todolist"),
                todoScope: "api://\(IDs.api1)/ToDoList.ReadWrite")
            configuration.framework = .vapor
            try await withApp { app in
                try VaporWebApp.configure(app, configuration)
                let tester = try app.testing()
                let home = try await tester.sendRequest(.GET, "/")
                #expect(home.status == .ok)
                #expect(home.headers.first(name: .contentType) == "text/html; charset=utf-8")
                #expect(home.headers.first(name: .cacheControl) == "no-store")
                #expect(String(buffer: home.body).contains("You are not signed in."))
                let profile = try await tester.sendRequest(.GET, "profile")
                #expect(profile.status == .found)
                let location = try #require(profile.headers.first(name: .location))
                #expect(location.hasPrefix("/auth/signin?returnTo="))
                #expect(location.removingPercentEncoding?.hasSuffix("=/profile") == true, "\(location)")
                let css = try await tester.sendRequest(.GET, "style.css")
                #expect(css.headers.first(name: .contentType) == "text/css; charset=utf-8")
                let missing = try await tester.sendRequest(.GET, "nowhere")
                #expect(missing.status == .notFound)
                #expect(String(buffer: missing.body).contains("There is nothing at GET /nowhere."))
            }
        }
    }
}
