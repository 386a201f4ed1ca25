import Foundation
import IdentityEmulator
import Logging
import Testing

@testable import MSAL

/// Every source against the emulator's hosts, selected by the variables Azure sets, as a service on each would run.
@Suite("Managed identity sources", .timeLimit(.minutes(2)))
struct ManagedIdentitySourceTests {
    static let graph = "https://graph.microsoft.com"

    /// Each demo host, the path its requests end with, and how many requests one token takes (Arc's challenge is one).
    static let hosts: [(name: String, path: String, requests: Int)] = [
        ("vm-1", "/metadata/identity/oauth2/token", 1), ("app-1", "/msi/token", 1),
        ("sf-1", "/metadata/identity/oauth2/token", 1), ("ml-1", "/msi/token", 1),
        ("shell-1", "/oauth2/token", 1), ("arc-1", "/metadata/identity/oauth2/token", 2),
    ]

    @Test("each source: the host's identity's token (xms_mirid, idtyp app, roles), then the cache", arguments: hosts)
    func everySource(host: (name: String, path: String, requests: Int)) async throws {
        try await Harness.withAzureHosts { h, keys in
            let app = try h.managedIdentityApp(host: host.name, arcKeyFolder: keys)
            let expected: ManagedIdentitySource =
                switch host.name {
                case "vm-1": .imds
                case "app-1": .appService
                case "sf-1": .serviceFabric
                case "ml-1": .machineLearning
                case "shell-1": .cloudShell
                default: .azureArc
                }
            #expect(app.source == expected)
            let first = try await app.acquireToken(ManagedIdentityParameters(resource: Self.graph + "/.default"))
            #expect(first.source == .identityProvider)
            #expect(first.scopes == [Self.graph])
            #expect(first.tenantID == h.ids.contosoTenant)
            let claims = try JWT(first.accessToken).claims
            if host.name == "shell-1" {
                // Cloud Shell's token is the signed-in portal user's.
                #expect(claims["upn"] as? String == "MeganB@contoso.onmicrosoft.com")
                #expect(claims["xms_mirid"] == nil)
            } else {
                let identity = try #require(
                    h.emulator.directory.managedIdentities.first {
                        $0.clientId == h.ids.systemAssignedIdentities[host.name]
                    })
                #expect(claims["idtyp"] as? String == "app")
                #expect(claims["xms_mirid"] as? String == identity.resourceId)
                #expect(claims["oid"] as? String == identity.objectId)
                #expect(first.roles == ["User.Read.All"])
            }
            // A day-long token is renewed at half its life, as MSAL does for tokens of more than two hours; Cloud
            // Shell's hour-long user token is not.
            if host.name == "shell-1" {
                #expect(first.refreshOn == nil)
            } else {
                let refreshOn = try #require(first.refreshOn)
                #expect(abs(refreshOn.timeIntervalSince(h.clock.now()) - 86_399 / 2) < 2)
            }

            let second = try await app.acquireToken(ManagedIdentityParameters(resource: Self.graph))
            #expect(second.source == .cache)
            #expect(second.accessToken == first.accessToken, "the cached token")
            let served = try await h.managedIdentityRequests("/hosts/\(host.name)" + host.path)
            #expect(served.count == host.requests)
            #expect(served.last == 200)
        }
    }

    @Test("a user-assigned identity by client id, resource id or object id, on IMDS and App Service")
    func userAssigned() async throws {
        try await Harness.withAzureHosts { h, _ in
            let ids = h.ids
            let api1 = "api://\(ids.api1)"
            for host in ["vm-1", "app-1"] {
                for identity: ManagedIdentity in [
                    .userAssignedClientID(ids.userAssignedIdentity),
                    .userAssignedResourceID(ids.userAssignedResourceID),
                    .userAssignedObjectID(ids.userAssignedObjectID),
                ] {
                    let app = try h.managedIdentityApp(host: host, identity: identity)
                    let token = try await app.acquireToken(ManagedIdentityParameters(resource: api1))
                    let claims = try JWT(token.accessToken).claims
                    #expect(claims["oid"] as? String == ids.userAssignedObjectID, "\(host) \(identity)")
                    #expect(claims["xms_mirid"] as? String == ids.userAssignedResourceID)
                    #expect(token.roles == ["ToDoList.Read.All"])
                }
            }
            // The system-assigned and the user-assigned identity keep their tokens apart in one cache.
            let shared = PartitionedTokenCache(clock: h.clock)
            let system = try h.managedIdentityApp(host: "vm-1", cache: shared)
            let user = try h.managedIdentityApp(
                host: "vm-1", identity: .userAssignedClientID(ids.userAssignedIdentity), cache: shared)
            let a = try await system.acquireToken(ManagedIdentityParameters(resource: api1))
            let b = try await user.acquireToken(ManagedIdentityParameters(resource: api1))
            #expect(a.accessToken != b.accessToken)
            #expect(try await user.acquireToken(ManagedIdentityParameters(resource: api1)).source == .cache)
        }
    }

    @Test("an identity the host does not have is refused by IMDS and App Service; others cannot name one at all")
    func unknownAndUnsupportedIdentities() async throws {
        try await Harness.withAzureHosts { h, keys in
            let stranger = ManagedIdentity.userAssignedClientID("00000000-1111-4222-8333-444444444444")
            for host in ["vm-1", "app-1"] {
                let app = try h.managedIdentityApp(host: host, identity: stranger)
                let error = await #expect(throws: MSALError.self) {
                    try await app.acquireToken(ManagedIdentityParameters(resource: Self.graph))
                }
                #expect(error?.httpStatus == 400, "\(host)")
                #expect(error?.internalCode == .invalidRequest, "\(host)")
            }
            for host in ["sf-1", "shell-1", "arc-1"] {
                let app = try h.managedIdentityApp(host: host, identity: stranger, arcKeyFolder: keys)
                let error = await #expect(throws: MSALError.self) {
                    try await app.acquireToken(ManagedIdentityParameters(resource: Self.graph))
                }
                #expect(error?.internalCode == .invalidParameter, "\(host)")
                #expect(try await h.managedIdentityRequests("/hosts/\(host)/oauth2/token").isEmpty)
            }
            let unknown = try h.managedIdentityApp(host: "vm-1")
            let error = await #expect(throws: MSALError.self) {
                try await unknown.acquireToken(ManagedIdentityParameters(resource: "https://nothing.example"))
            }
            #expect(error?.internalCode == .invalidScope)
            #expect(error?.stsErrorCodes == [500011])
            await #expect(throws: MSALError.self) {
                try await unknown.acquireToken(ManagedIdentityParameters(resource: " "))
            }
        }
    }

    @Test("renewed at half its life; a failed renewal keeps the cached token; claims and forceRefresh skip the cache")
    func cacheAndRefresh() async throws {
        try await Harness.withAzureHosts { h, _ in
            let app = try h.managedIdentityApp(host: "app-1", retryPolicy: .none)
            let first = try await app.acquireToken(ManagedIdentityParameters(resource: Self.graph))
            h.clock.advance(by: 86_399 / 2 + 1)
            let renewed = try await app.acquireToken(ManagedIdentityParameters(resource: Self.graph))
            #expect(renewed.source == .identityProvider)
            #expect(renewed.accessToken != first.accessToken)

            h.clock.advance(by: 86_399 / 2 + 1)
            try await h.scenario("managedIdentity", "serverError", count: 1)
            let kept = try await app.acquireToken(ManagedIdentityParameters(resource: Self.graph))
            #expect(kept.source == .cache)
            #expect(kept.accessToken == renewed.accessToken)

            #expect(
                try await app.acquireToken(ManagedIdentityParameters(resource: Self.graph, forceRefresh: true)).source
                    == .identityProvider)
            var challenge = ManagedIdentityParameters(resource: Self.graph)
            challenge.claims = #"{"access_token":{"nbf":{"essential":true}}}"#
            let challenged = try await app.acquireToken(challenge)
            #expect(challenged.source == .identityProvider)
            #expect(try await h.managedIdentityRequests("/hosts/app-1/msi/token") == [200, 200, 500, 200, 200])
        }
    }

    @Test("64 concurrent callers share one request; no token, secret or key reaches the log")
    func concurrentCallersAndLogs() async throws {
        try await Harness.withAzureHosts { h, keys in
            let store = CapturingLogHandler.Store()
            var logger = Logger(label: "mi") { _ in CapturingLogHandler(store: store) }
            logger.logLevel = .trace
            let app = try h.managedIdentityApp(host: "arc-1", arcKeyFolder: keys, logger: logger)
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<64 {
                    group.addTask {
                        try await app.acquireToken(ManagedIdentityParameters(resource: Self.graph)).accessToken
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1)
            #expect(try await h.managedIdentityRequests("/hosts/arc-1/metadata/identity/oauth2/token") == [401, 200])
            let log = store.all
            #expect(log.contains("requesting a managed identity token"))
            #expect(!log.contains(tokens.first!))
            #expect(!log.contains(Directory.DemoIDs.hostSecret))
            // The key file was used once and is gone.
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: keys.path)) ?? []).isEmpty)
        }
    }
}
