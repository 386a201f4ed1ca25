import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import IdentityEmulatorTesting
import Logging
import MSAL
import MSALHummingbird
import NIOCore
import SampleServers
import Testing
import TodoAPI

/// `todo-api` (the tutorials' API 1 and API 2, on Hummingbird and on Vapor) against the emulator's real tokens: a user
/// signed in as the CLI signs in, a daemon with the read-all role, a token for the other API, and API 1 calling
/// Microsoft Graph on the user's behalf.
@Suite("todo-api with the emulator's tokens", .timeLimit(.minutes(2)))
struct TodoAPIEndToEndTests {
    typealias IDs = Directory.DemoIDs

    /// todo-api as `swift run todo-api --framework F` serves it against `emulator`: accepting the External ID and
    /// Contoso tenants, API 1 calling Graph on behalf of External ID users.
    static func configuration(_ emulator: RunningEmulator, framework: SampleFramework = .hummingbird) throws
        -> TodoAPIConfiguration
    {
        var configuration = try TodoAPIConfiguration(
            authority: Authority(emulator.authority("organizations").absoluteString),
            allowedTenants: [IDs.externalTenant, IDs.contosoTenant],
            apis: [.init(name: "api1", clientID: IDs.api1), .init(name: "api2", clientID: IDs.api2)],
            api1Credential: .secret(IDs.api1Secret), api1Tenant: IDs.externalTenant,
            graphBaseURL: emulator.baseURL.appendingPathComponent("v1.0/"))
        configuration.framework = framework
        return configuration
    }

    /// The emulator and todo-api on `framework` (``configuration(_:framework:)``, logging to `logger`), and an HTTP
    /// client.
    static func withServices(
        _ framework: SampleFramework, logger: Logger = Logger(label: "todo-api"),
        _ body: @Sendable (_ emulator: RunningEmulator, _ api: URL, _ http: HTTPClient) async throws -> Void
    ) async throws {
        try await withIdentityEmulator { fixture in
            let emulator = fixture.running
            try await TodoAPIServer.withRunning(
                try configuration(emulator, framework: framework), logger: logger
            ) { api in
                let http = HTTPClient(
                    eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                    configuration: .init(redirectConfiguration: .disallow))
                do {
                    try await body(emulator, api, http)
                    try await http.shutdown()
                } catch {
                    try? await http.shutdown()
                    throw error
                }
            }
        }
    }

    /// Jane's token, signed in interactively through the emulator's pages with the External ID app the CLI uses.
    /// API 1 as it receives `token`: the token validated as the API validates it, and API 1's confidential client.
    static func api1Receiving(_ token: String, emulator: RunningEmulator) async throws
        -> (ValidatedAccessToken, ConfidentialClientApplication)
    {
        var validation = try AccessTokenValidator.Configuration(
            authority: Authority(emulator.authority("organizations").absoluteString),
            audiences: [IDs.api1], allowedTenants: [IDs.externalTenant])
        validation.transport = try DefaultHTTPTransport()
        let validated = try await AccessTokenValidator(configuration: validation).validate(token)
        let api1 = try ConfidentialClientApplication(
            configuration: ConfidentialClientApplicationConfiguration(
                clientID: IDs.api1, credential: .secret(IDs.api1Secret),
                authority: Authority(emulator.authority(IDs.externalTenant).absoluteString)))
        return (validated, api1)
    }

    static func userToken(_ emulator: RunningEmulator, http: HTTPClient, scopes: [String]) async throws -> String {
        var configuration = try PublicClientApplicationConfiguration(
            clientID: IDs.externalPublicClient,
            authority: Authority(emulator.authority(IDs.externalTenant).absoluteString))
        configuration.browser = AutomatedUser(
            http: http, choices: [.signIn(username: "jane@example.com", password: "Jane-Demo-Pass4")])
        configuration.interactiveTimeout = .seconds(30)
        let app = try PublicClientApplication(configuration: configuration)
        return try await app.acquireTokenInteractively(InteractiveParameters(scopes: scopes)).accessToken
    }

    /// The demo daemon's app token for `resource` (its `/.default`), from `tenant`.
    static func daemonToken(_ emulator: RunningEmulator, resource: String, tenant: String) async throws -> String {
        let configuration = try ConfidentialClientApplicationConfiguration(
            clientID: IDs.confidentialClient, credential: .secret(IDs.confidentialSecret),
            authority: Authority(emulator.authority(tenant).absoluteString))
        return try await ConfidentialClientApplication(configuration: configuration)
            .acquireTokenForClient(ClientCredentialParameters(scopes: ["\(resource)/.default"])).accessToken
    }

    static func send(
        _ method: HTTPRequest.Method, _ url: URL, token: String?, body: String? = nil
    ) async throws -> (status: Int, body: [String: Any], challenge: String?) {
        var headerFields = HTTPFields()
        if let token { headerFields[.authorization] = "Bearer \(token)" }
        if body != nil { headerFields[.contentType] = "application/json" }
        let (response, data) = try await DefaultHTTPTransport().send(
            HTTPRequest(method: method, url: url, headerFields: headerFields), body: body.map { Data($0.utf8) })
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        let challenge = response.headerFields[values: .wwwAuthenticate].first
        return (response.status.code, json, challenge)
    }

    @Test(
        "a signed-in user's token: read, add and remove to-dos in API 1; API 1 refuses their token for API 2",
        arguments: SampleFramework.allCases)
    func userToken(framework: SampleFramework) async throws {
        try await Self.withServices(framework) { emulator, api, http in
            let list = api.appendingPathComponent("api1/todolist")
            let writer = try await Self.userToken(
                emulator, http: http, scopes: ["api://\(IDs.api1)/ToDoList.ReadWrite"])
            let created = try await Self.send(.post, list, token: writer, body: #"{"description":"Buy milk"}"#)
            #expect(created.status == 201)
            let id = try #require(created.body["id"] as? Int)
            let listed = try await Self.send(.get, list, token: writer)
            #expect(listed.status == 200)
            #expect(
                (listed.body["todos"] as? [[String: Any]])?.compactMap { $0["description"] as? String } == ["Buy milk"])
            #expect(try await Self.send(.delete, list.appendingPathComponent("\(id)"), token: writer).status == 204)
            #expect(try await Self.send(.delete, list.appendingPathComponent("\(id)"), token: writer).status == 404)
            #expect(try await Self.send(.post, list, token: writer, body: #"{"description":"  "}"#).status == 400)

            let forAPI2 = try await Self.userToken(emulator, http: http, scopes: ["api://\(IDs.api2)/ToDoList.Read"])
            let refused = try await Self.send(.get, list, token: forAPI2)
            #expect(refused.status == 401)
            #expect(refused.challenge?.contains("invalid_token") == true)
            #expect(
                try await Self.send(.get, api.appendingPathComponent("api2/todolist"), token: forAPI2).status == 200)
            // Read-only: no writing.
            let write = try await Self.send(
                .post, api.appendingPathComponent("api2/todolist"), token: forAPI2, body: #"{"description":"x"}"#)
            #expect(write.status == 403)
            #expect(write.challenge?.contains("insufficient_scope") == true)
            #expect(try await Self.send(.get, list, token: nil).status == 401)
        }
    }

    @Test(
        "a daemon's app token: every list with its read-all role, no writing, refused by an API it has no role on",
        arguments: SampleFramework.allCases)
    func daemonToken(framework: SampleFramework) async throws {
        try await Self.withServices(framework) { emulator, api, http in
            let writer = try await Self.userToken(
                emulator, http: http, scopes: ["api://\(IDs.api1)/ToDoList.ReadWrite"])
            _ = try await Self.send(
                .post, api.appendingPathComponent("api1/todolist"), token: writer, body: #"{"description":"Ship it"}"#)

            let daemon = try await Self.daemonToken(emulator, resource: "api://\(IDs.api1)", tenant: IDs.contosoTenant)
            let all = try await Self.send(.get, api.appendingPathComponent("api1/todolist"), token: daemon)
            #expect(all.status == 200)
            #expect(all.body["app"] as? String == IDs.confidentialClient)
            let lists = try #require(all.body["lists"] as? [String: [[String: Any]]])
            #expect(lists.values.flatMap { $0 }.compactMap { $0["description"] as? String } == ["Ship it"])
            let write = try await Self.send(
                .post, api.appendingPathComponent("api1/todolist"), token: daemon, body: #"{"description":"x"}"#)
            #expect(write.status == 403)

            // The daemon holds no role on API 2: its token has no `roles` claim, and with no `scp` either it is no
            // token for this API at all (Microsoft.Identity.Web's IDW10201).
            let forAPI2 = try await Self.daemonToken(emulator, resource: "api://\(IDs.api2)", tenant: IDs.contosoTenant)
            let refused = try await Self.send(.get, api.appendingPathComponent("api2/todolist"), token: forAPI2)
            #expect(refused.status == 401)
            #expect(refused.challenge?.contains("invalid_token") == true)
            // A tenant the API does not accept.
            let fabrikam = try await Self.daemonToken(
                emulator, resource: "api://\(IDs.api1)", tenant: IDs.fabrikamTenant)
            #expect(
                try await Self.send(.get, api.appendingPathComponent("api1/todolist"), token: fabrikam).status == 401)
        }
    }

    @Test(
        "API 1 calls Microsoft Graph on the user's behalf: the user's profile comes back",
        arguments: SampleFramework.allCases)
    func onBehalfOf(framework: SampleFramework) async throws {
        try await Self.withServices(framework) { emulator, api, http in
            let token = try await Self.userToken(emulator, http: http, scopes: ["api://\(IDs.api1)/ToDoList.Read"])
            let me = try await Self.send(.get, api.appendingPathComponent("api1/me"), token: token)
            #expect(me.status == 200)
            #expect(me.body["userPrincipalName"] as? String == "jane@example.com")
            let daemon = try await Self.daemonToken(emulator, resource: "api://\(IDs.api1)", tenant: IDs.contosoTenant)
            #expect(try await Self.send(.get, api.appendingPathComponent("api1/me"), token: daemon).status == 403)
        }
    }

    @Test("a downstream call the user has not consented to becomes a consent challenge for the caller")
    func consentChallenge() async throws {
        try await Self.withServices(.hummingbird) { emulator, _, http in
            let token = try await Self.userToken(emulator, http: http, scopes: ["api://\(IDs.api1)/ToDoList.Read"])
            let (validated, api1) = try await Self.api1Receiving(token, emulator: emulator)
            // API 1 holds consent for API 2's ToDoList.Read only.
            let api2 = DownstreamAPI(
                app: api1, baseURL: emulator.baseURL, scopes: ["api://\(IDs.api2)/ToDoList.ReadWrite"],
                transport: try DefaultHTTPTransport())
            do {
                _ = try await api2.call(.get, "api2/todolist", for: validated)
                Issue.record("the call went through without consent")
            } catch let challenge as BearerChallenge {
                #expect(challenge.status == .forbidden)
                #expect(challenge.wwwAuthenticate.contains("error=\"consent_required\""))
                #expect(challenge.wwwAuthenticate.contains("ToDoList.ReadWrite"))
            }
            let consented = DownstreamAPI(
                app: api1, baseURL: emulator.baseURL, scopes: ["api://\(IDs.api2)/ToDoList.Read"],
                transport: try DefaultHTTPTransport())
            // A policy that wants more (MFA): Entra's claims go back to the caller in a 401 challenge.
            var scenario = HTTPClientRequest(url: emulator.baseURL.absoluteString + "/_emulator/scenarios")
            scenario.method = .POST
            scenario.headers.add(name: "Content-Type", value: "application/json")
            scenario.body = .bytes(ByteBuffer(string: #"{"route":"token","fault":"multifactorRequired","count":1}"#))
            #expect(try await http.execute(scenario, timeout: .seconds(10)).status == .created)
            do {
                _ = try await consented.call(.get, "api2/todolist", for: validated)
                Issue.record("the call went through without the claims the policy asks for")
            } catch let challenge as BearerChallenge {
                #expect(challenge.status == .unauthorized)
                #expect(challenge.wwwAuthenticate.contains("error=\"insufficient_claims\""))
                #expect(challenge.wwwAuthenticate.contains("client_id=\"\(IDs.api1)\""))
                let claims = try #require(
                    challenge.parameters.first { $0.name == "claims" }.flatMap { Data(base64Encoded: $0.value) })
                #expect(String(decoding: claims, as: UTF8.self).contains("polids"))
            }
            #expect(try await consented.call(.get, "api2/todolist", for: validated).0.status == .ok)
        }
    }
}
