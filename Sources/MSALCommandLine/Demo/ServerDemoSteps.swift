import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL

/// The server side of the demo: a daemon with a certificate calls API 1 with an app token, on Hummingbird and on
/// Vapor; API 1, itself a confidential client, calls Microsoft Graph on behalf of the customer who called it; services
/// on an Azure VM and in App Service get tokens as their managed identities, holding no secret.
struct ServerDemoSteps {
    let emulator: RunningEmulator
    let http: HTTPClient
    let clock: DemoClock
    let narrator: Narrator
    /// todo-api (the tutorials' API 1 and API 2), running in this process beside the emulator.
    let todoAPI: URL
    /// The same todo-api served by Vapor through MSALVapor.
    let todoAPIOnVapor: URL

    private let ids = Directory.DemoIDs.self
    static let stepCount = 4

    func run(from first: Int) async throws {
        let base = emulator.baseURL
        try await narrator.step(
            first, "A daemon with a certificate gets an app token and calls API 1, which checks its roles"
        ) {
            let certificate = try ClientCertificate(
                privateKeyPEM: ids.daemonPrivateKeyPEM, certificatePEM: ids.daemonCertificatePEM)
            let daemon = try makeApp(
                clientID: ids.confidentialClient, credential: .certificate(certificate), tenant: ids.contosoTenant)
            let scopes = ["api://\(ids.api1)/.default"]
            let token = try await daemon.acquireTokenForClient(ClientCredentialParameters(scopes: scopes))
            narrator.detail(
                "client assertion signed \(certificate.algorithm.rawValue) with certificate x5t#S256 \(certificate.sha256Thumbprint.prefix(12))…; roles: \(token.roles.joined(separator: ", "))"
            )
            let again = try await daemon.acquireTokenForClient(ClientCredentialParameters(scopes: scopes))
            narrator.detail("the same token again from the \(again.source == .cache ? "cache" : "network")")
            let (response, data) = try await send(
                token.authorizationHeader, to: todoAPI.appendingPathComponent("api1/todolist"))
            guard response.status == .ok else { throw DemoError("API 1 answered HTTP \(response.status.code)") }
            let body = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            narrator.detail(
                "API 1: HTTP 200 for app \(body?["app"] ?? "?"), every user's list (\((body?["lists"] as? [String: Any])?.count ?? 0)) with its read-all role"
            )
        }
        try await onVapor(first + 1)
        try await narrator.step(first + 2, "API 1 calls Microsoft Graph /me on behalf of the customer who called it") {
            let customer = "sam@example.com"
            let native = try NativeDemoSteps(
                emulator: emulator, http: http, clock: clock, narrator: narrator, todoAPI: todoAPI
            ).makeApp()
            guard case .codeRequired(let state, _) = try await native.signIn(username: customer),
                case .completed(let user) = try await state.submitCode(
                    try await Outbox(base: base, http: http).lastCode(to: customer))
            else {
                throw DemoError("\(customer) could not sign in with an email code")
            }
            let incoming = try await user.getAccessToken(scopes: ["api://\(ids.api1)/ToDoList.Read"])
            narrator.detail("\(customer) signed in with an email code and called API 1 with a token for it")
            let api1 = try makeApp(
                clientID: ids.api1, credential: .secret(ids.api1Secret), tenant: ids.externalTenant)
            let graph = try await api1.acquireTokenOnBehalfOf(
                OnBehalfOfParameters(
                    userAssertion: incoming.accessToken, scopes: ["User.Read"]))
            let (response, body) = try await send(
                graph.authorizationHeader, to: base.appendingPathComponent("v1.0/me"))
            guard response.status == .ok,
                let profile = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            else {
                throw DemoError("Graph answered HTTP \(response.status.code)")
            }
            narrator.detail(
                "API 1 exchanged it for a Graph token (on-behalf-of): /me is \(profile["displayName"] ?? "?") <\(profile["mail"] ?? profile["userPrincipalName"] ?? "?")>"
            )
            let again = try await api1.acquireTokenOnBehalfOf(
                OnBehalfOfParameters(
                    userAssertion: incoming.accessToken, scopes: ["User.Read"]))
            narrator.detail(
                "the next call with the same token: Graph token from the \(again.source == .cache ? "cache" : "network")"
            )
        }
        try await managedIdentities(first + 3)
    }

    /// The same API served by Vapor, its routes protected by MSALVapor's authenticator and permission requirements:
    /// the daemon's token (from its cache) is accepted with its read-all role, a request without one is challenged.
    private func onVapor(_ step: Int) async throws {
        try await narrator.step(step, "The same API on Vapor: MSALVapor checks the daemon's token and its role") {
            let daemon = try makeApp(
                clientID: ids.confidentialClient, credential: .secret(ids.confidentialSecret), tenant: ids.contosoTenant
            )
            let token = try await daemon.acquireTokenForClient(
                ClientCredentialParameters(scopes: ["api://\(ids.api1)/.default"]))
            let list = todoAPIOnVapor.appendingPathComponent("api1/todolist")
            let (response, data) = try await send(token.authorizationHeader, to: list)
            guard response.status == .ok else {
                throw DemoError("API 1 on Vapor answered HTTP \(response.status.code)")
            }
            let body = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            narrator.detail("API 1 on Vapor: HTTP 200 for app \(body?["app"] ?? "?") with its read-all role")
            let (anonymous, _) = try await DefaultHTTPTransport().send(
                HTTPRequest(method: .get, url: list), body: nil)
            let challenge = anonymous.headerFields[.wwwAuthenticate] ?? "none"
            guard anonymous.status == .unauthorized else {
                throw DemoError("API 1 on Vapor answered HTTP \(anonymous.status.code) without a token")
            }
            narrator.detail("without a token: HTTP 401, WWW-Authenticate: \(challenge)")
        }
    }

    /// IMDS on the VM `vm-1` (its system-assigned identity, for Graph) and App Service on `app-1` (the
    /// user-assigned `id-orders`, for API 1), each found from the variables Azure sets on the host.
    private func managedIdentities(_ step: Int) async throws {
        try await narrator.step(step, "Services on Azure get tokens as their managed identities, with no secret") {
            let vm = try makeManagedIdentityApp(host: "vm-1", identity: .systemAssigned)
            let graph = try await vm.acquireToken(ManagedIdentityParameters(resource: "https://graph.microsoft.com"))
            narrator.detail(
                "vm-1 (\(vm.source)): a Graph token for its system-assigned identity, roles: \(graph.roles.joined(separator: ", "))"
            )
            let again = try await vm.acquireToken(ManagedIdentityParameters(resource: "https://graph.microsoft.com"))
            narrator.detail("the same token again from the \(again.source == .cache ? "cache" : "network")")
            let app = try makeManagedIdentityApp(
                host: "app-1", identity: .userAssignedClientID(ids.userAssignedIdentity))
            let token = try await app.acquireToken(ManagedIdentityParameters(resource: "api://\(ids.api1)"))
            let (response, _) = try await send(
                token.authorizationHeader, to: todoAPI.appendingPathComponent("api1/todolist"))
            guard response.status == .ok else { throw DemoError("API 1 answered HTTP \(response.status.code)") }
            narrator.detail(
                "app-1 (\(app.source)): the user-assigned id-orders calls API 1 with its \(token.roles.joined(separator: ", ")) role: HTTP 200"
            )
        }
    }

    private func makeManagedIdentityApp(host: String, identity: ManagedIdentity) throws -> ManagedIdentityApplication {
        var configuration = try ManagedIdentityApplicationConfiguration(identity: identity)
        guard let environment = emulator.managedIdentityEnvironment(host: host) else {
            throw DemoError("The directory has no host \(host).")
        }
        configuration.environment = environment
        configuration.clock = clock
        configuration.cache = PartitionedTokenCache(clock: clock)
        configuration.sleep = { [clock] duration in await clock.sleep(duration) }
        return try ManagedIdentityApplication(configuration: configuration)
    }

    private func send(_ authorization: String, to url: URL) async throws -> (HTTPResponse, Data) {
        try await DefaultHTTPTransport().send(
            HTTPRequest(method: .get, url: url, headerFields: [.authorization: authorization]), body: nil)
    }

    private func makeApp(clientID: String, credential: ClientCredential, tenant: String) throws
        -> ConfidentialClientApplication
    {
        var configuration = try ConfidentialClientApplicationConfiguration(
            clientID: clientID, credential: credential,
            authority: Authority(emulator.authority(tenant).absoluteString))
        configuration.clock = clock
        configuration.sleep = { [clock] duration in await clock.sleep(duration) }
        return try ConfidentialClientApplication(configuration: configuration)
    }
}
