import Foundation
import IdentityEmulator
import InMemoryLogging
import Logging
import MSAL
import SampleServers
import TestServers
import Testing
import TodoAPI

/// todo-api answers every request it cannot serve with JSON saying why (`error`, `error_description`) and logs it
/// with its cause, never the token.
@Suite("todo-api's errors", .timeLimit(.minutes(2)))
struct TodoAPIErrorTests {
    typealias IDs = Directory.DemoIDs

    /// The entries of `logs` for failed requests.
    static func failures(_ logs: InMemoryLogHandler) -> [InMemoryLogHandler.Entry] {
        logs.entries.filter { $0.message == "request failed" }
    }

    @Test(
        "a workforce user's token at /api1/me: 403 naming API 1's tenant, the identity provider's refusal logged",
        arguments: SampleFramework.allCases)
    func workforceUserAtMe(framework: SampleFramework) async throws {
        let logs = InMemoryLogHandler()
        try await TodoAPIEndToEndTests.withServices(framework, logger: Logger(label: "todo-api") { _ in logs }) {
            emulator, api, _ in
            let megan = try #require(Directory.demo.passwordUser(in: IDs.contosoTenant))
            let token = try await PasswordGrant.token(
                emulator, username: megan.userPrincipalName, password: try #require(megan.password),
                tenant: "organizations", scope: "api://\(IDs.api1)/ToDoList.Read")
            let me = try await TodoAPIEndToEndTests.send(.get, api.appendingPathComponent("api1/me"), token: token)
            #expect(me.status == 403)
            #expect(me.body["error"] as? String == "user_not_in_tenant")
            let description = try #require(me.body["error_description"] as? String)
            #expect(description.contains("not a member of tenant \(IDs.externalTenant)"))
            #expect(description.contains("Sign in with an account of that tenant."))
            let logged = try #require(Self.failures(logs).first)
            #expect(logged.level == .info)
            #expect(logged.metadata["status"] == "403")
            #expect(logged.metadata["path"] == "/api1/me")
            #expect(logged.metadata["cause"]?.description.contains("AADSTS50020") == true)
            #expect(!logs.entries.contains { "\($0.message) \($0.metadata)".contains(token) })
        }
    }

    @Test(
        "no token, an unknown route, a bad id: JSON with error and error_description, the challenge kept, logged",
        arguments: SampleFramework.allCases)
    func refusals(framework: SampleFramework) async throws {
        let logs = InMemoryLogHandler()
        try await TodoAPIEndToEndTests.withServices(framework, logger: Logger(label: "todo-api") { _ in logs }) {
            emulator, api, _ in
            let anonymous = try await TodoAPIEndToEndTests.send(
                .get, api.appendingPathComponent("api1/todolist"), token: nil)
            #expect(anonymous.status == 401)
            #expect(anonymous.challenge == "Bearer")
            #expect(anonymous.body["error"] as? String == "unauthorized")
            #expect(
                anonymous.body["error_description"] as? String
                    == "This needs an access token: send it as `Authorization: Bearer <token>`.")

            let unknown = try await TodoAPIEndToEndTests.send(.get, api.appendingPathComponent("nowhere"), token: nil)
            #expect(unknown.status == 404)
            #expect(unknown.body["error"] as? String == "not_found")
            #expect(unknown.body["error_description"] as? String == "There is nothing at GET /nowhere.")

            let jane = try await PasswordGrant.token(
                emulator, username: WebAppSite.jane.username, password: WebAppSite.jane.password,
                tenant: IDs.externalTenant, scope: "api://\(IDs.api1)/ToDoList.ReadWrite")
            let missing = try await TodoAPIEndToEndTests.send(
                .delete, api.appendingPathComponent("api1/todolist/41"), token: jane)
            #expect(missing.status == 404)
            #expect(missing.body["error_description"] as? String == "There is no to-do 41 in your list.")

            #expect(Self.failures(logs).map { $0.metadata["status"] } == ["401", "404", "404"])
            #expect(!logs.entries.contains { "\($0.message) \($0.metadata)".contains(jane) })
        }
    }
}
