import AsyncHTTPClient
import Foundation
import IdentityEmulator
import MSAL
import MSALVapor
import NIOCore
import TestServers
import Testing
import VaporTesting

/// A Vapor API against the emulator's real tokens: API 1 accepting External ID users, calling Microsoft Graph and
/// API 2 on their behalf through `req.msal`, with the identity platform's consent and claims challenges passed back.
@Suite("Vapor protected web API with the emulator's tokens", .timeLimit(.minutes(2)))
struct VaporDownstreamTests {
    typealias IDs = Directory.DemoIDs

    /// API 1 as a Vapor app: `GET /me` (Graph's `me` on the caller's behalf), `GET /todolist` (API 2's list, with the
    /// scopes asked), `GET /apptoken` (API 1's own token for Graph).
    static func withAPI(
        _ emulator: RunningEmulator, api2Scopes: [String] = ["api://\(IDs.api2)/ToDoList.Read"],
        _ test: (Vapor.Application) async throws -> Void
    ) async throws {
        var validation = try AccessTokenValidator.Configuration(
            authority: Authority(emulator.authority("organizations").absoluteString), audiences: [IDs.api1],
            allowedTenants: [IDs.externalTenant])
        validation.transport = try DefaultHTTPTransport()
        let client = try ConfidentialClientApplication(
            configuration: ConfidentialClientApplicationConfiguration(
                clientID: IDs.api1, credential: .secret(IDs.api1Secret),
                authority: Authority(emulator.authority(IDs.externalTenant).absoluteString)))
        let graph = DownstreamAPI(
            app: client, baseURL: emulator.baseURL.appendingPathComponent("v1.0/"), scopes: ["User.Read"])
        let api2 = DownstreamAPI(app: client, baseURL: emulator.baseURL, scopes: api2Scopes)
        try await withApp { app in
            app.msal.accessTokens = AccessTokenValidator(configuration: validation)
            app.msal.client = client
            let api = app.requiringAccessToken().requiring(scopes: ["ToDoList.Read"])
            api.get("me") { req in
                let (response, body) = try await req.msal.call(graph, .get, "me")
                return Response(
                    status: .init(statusCode: response.status.code), body: .init(data: body))
            }
            api.get("todolist") { req in
                let (response, _) = try await req.msal.call(api2, .get, "api2/todolist")
                return "\(response.status.code)"
            }
            api.get("obo") { req in
                try await req.msal.tokenOnBehalfOfCaller(scopes: ["User.Read"]).accessToken.isEmpty ? "no" : "yes"
            }
            try await test(app)
        }
    }

    static func janeToken(_ emulator: RunningEmulator) async throws -> String {
        try await PasswordGrant.token(
            emulator, username: "jane@example.com", password: "Jane-Demo-Pass4", tenant: IDs.externalTenant,
            scope: "api://\(IDs.api1)/ToDoList.Read")
    }

    static func get(_ app: Vapor.Application, _ path: String, token: String) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(.GET, path, headers: ["Authorization": "Bearer \(token)"])
    }

    @Test(
        "the caller's token, exchanged on their behalf, reads their Graph profile; an app token from another tenant is refused"
    )
    func onBehalfOfGraph() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let jane = try await Self.janeToken(emulator)
            try await Self.withAPI(emulator) { app in
                let me = try await Self.get(app, "/me", token: jane)
                #expect(me.status == .ok)
                let profile = try JSONSerialization.jsonObject(with: Data(me.body.readableBytesView)) as? [String: Any]
                #expect(profile?["userPrincipalName"] as? String == "jane@example.com")
                #expect(try await Self.get(app, "/obo", token: jane).body.string == "yes")

                // Contoso's daemon holds a real token for API 1, but Contoso is not an allowed tenant.
                let contoso = try await ConfidentialClientApplication(
                    configuration: ConfidentialClientApplicationConfiguration(
                        clientID: IDs.confidentialClient, credential: .secret(IDs.confidentialSecret),
                        authority: Authority(emulator.authority(IDs.contosoTenant).absoluteString))
                ).acquireTokenForClient(ClientCredentialParameters(scopes: ["api://\(IDs.api1)/.default"])).accessToken
                let refused = try await Self.get(app, "/me", token: contoso)
                #expect(refused.status == .unauthorized)
                #expect(refused.headers.first(name: .wwwAuthenticate)?.contains("invalid_token") == true)
            }
        }
    }

    @Test("a downstream call without consent is a consent challenge; a policy's claims go back to the caller")
    func challengesPassedBack() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let jane = try await Self.janeToken(emulator)
            // API 1 holds consent for API 2's ToDoList.Read only.
            try await Self.withAPI(emulator, api2Scopes: ["api://\(IDs.api2)/ToDoList.ReadWrite"]) { app in
                let response = try await Self.get(app, "/todolist", token: jane)
                #expect(response.status == .forbidden)
                let header = try #require(response.headers.first(name: .wwwAuthenticate))
                #expect(header.contains(#"error="consent_required""#))
                #expect(header.contains("ToDoList.ReadWrite"))
            }
            try await Self.withAPI(emulator) { app in
                // A policy that wants more (MFA): Entra's claims go back to the caller in a 401 challenge.
                let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
                var scenario = HTTPClientRequest(url: emulator.baseURL.absoluteString + "/_emulator/scenarios")
                scenario.method = .POST
                scenario.headers.add(name: "Content-Type", value: "application/json")
                scenario.body = .bytes(
                    ByteBuffer(string: #"{"route":"token","fault":"multifactorRequired","count":1}"#))
                let created = try await http.execute(scenario, timeout: .seconds(10)).status
                try await http.shutdown()
                #expect(created == .created)
                let response = try await Self.get(app, "/todolist", token: jane)
                #expect(response.status == .unauthorized)
                let header = try #require(response.headers.first(name: .wwwAuthenticate))
                #expect(header.contains(#"error="insufficient_claims""#))
                #expect(header.contains(#"client_id="\#(IDs.api1)""#))
                #expect(try await Self.get(app, "/todolist", token: jane).body.string == "200")
            }
        }
    }
}
