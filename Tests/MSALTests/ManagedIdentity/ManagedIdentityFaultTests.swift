import Foundation
import IdentityEmulator
import TestServers
import Testing

@testable import MSAL

/// Retries and their bounds, Azure Arc's key-file checks, Service Fabric's pinned certificate, and the sources the
/// environment names.
@Suite("Managed identity faults", .timeLimit(.minutes(2)))
struct ManagedIdentityFaultTests {
    static let graph = "https://graph.microsoft.com"

    @Test("IMDS retries 503 after 1 then 2 s, 410 every 10 s, and a Retry-After longer than its pause")
    func imdsRetries() async throws {
        try await Harness.withAzureHosts { h, _ in
            let pauses = RecordedPauses()
            let app = try h.managedIdentityApp(host: "vm-1", pauses: pauses)
            try await h.scenario("managedIdentity", "serviceUnavailable", count: 2)
            #expect(
                try await app.acquireToken(ManagedIdentityParameters(resource: Self.graph)).source == .identityProvider)
            #expect(pauses.all == [.seconds(1), .seconds(2)])

            try await h.scenario("managedIdentity", "gone", count: 1)
            _ = try await app.acquireToken(ManagedIdentityParameters(resource: Self.graph, forceRefresh: true))
            #expect(pauses.all.last == .seconds(10))

            _ = try await h.admin(
                "POST", "scenarios", body: #"{"route":"managedIdentity","fault":"throttle","count":1,"retryAfter":"7"}"#
            )
            _ = try await app.acquireToken(ManagedIdentityParameters(resource: Self.graph, forceRefresh: true))
            #expect(pauses.all.last == .seconds(7))
            #expect(
                try await h.managedIdentityRequests("/hosts/vm-1/metadata/identity/oauth2/token") == [
                    503, 503, 200, 410, 200, 429, 200,
                ])
        }
    }

    @Test("retries are bounded: 3 after the first try, then the error; a 400 and a long Retry-After are not retried")
    func retryBounds() async throws {
        try await Harness.withAzureHosts { h, _ in
            let pauses = RecordedPauses()
            let app = try h.managedIdentityApp(host: "app-1", pauses: pauses)
            try await h.scenario("managedIdentity", "serverError", count: 10)
            let error = await #expect(throws: MSALError.self) {
                try await app.acquireToken(ManagedIdentityParameters(resource: Self.graph))
            }
            #expect(error?.code == .serverError)
            #expect(pauses.all == [.seconds(1), .seconds(1), .seconds(1)])
            #expect(try await h.managedIdentityRequests("/hosts/app-1/msi/token") == [500, 500, 500, 500])
            _ = try await h.admin("POST", "reset", body: "{}")

            let stranger = try h.managedIdentityApp(
                host: "vm-1", identity: .userAssignedClientID("00000000-1111-4222-8333-444444444444"), pauses: pauses)
            await #expect(throws: MSALError.self) {
                try await stranger.acquireToken(ManagedIdentityParameters(resource: Self.graph))
            }
            #expect(try await h.managedIdentityRequests("/hosts/vm-1/metadata/identity/oauth2/token") == [400])

            _ = try await h.admin(
                "POST", "scenarios",
                body: #"{"route":"managedIdentity","fault":"throttle","count":1,"retryAfter":"3600"}"#)
            let throttled = await #expect(throws: MSALError.self) {
                try await h.managedIdentityApp(host: "vm-1", pauses: pauses).acquireToken(
                    ManagedIdentityParameters(resource: Self.graph))
            }
            #expect(throttled?.internalCode == .throttled)
            #expect(throttled?.retryAfter == 3600)
            #expect(pauses.all.count == 3)
        }
    }

    @Test("an unreachable endpoint is retried, then reported; with no retries at once")
    func unreachable() async throws {
        var held: ClosedPort?
        for _ in 0..<5 where held == nil {
            held = ClosedPort(try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { $0.port })
        }
        let port = try #require(held, "no port could be held closed").port
        var configuration = try ManagedIdentityApplicationConfiguration()
        configuration.environment = ["AZURE_POD_IDENTITY_AUTHORITY_HOST": "http://127.0.0.1:\(port)"]
        let pauses = RecordedPauses()
        configuration.sleep = { pauses.record($0) }
        let error = await #expect(throws: MSALError.self) {
            try await ManagedIdentityApplication(configuration: configuration).acquireToken(
                ManagedIdentityParameters(resource: Self.graph))
        }
        #expect(error?.internalCode == .transportFailed)
        #expect(pauses.all == [.seconds(1), .seconds(2), .seconds(4)])
        configuration.retryPolicy = .none
        await #expect(throws: MSALError.self) {
            try await ManagedIdentityApplication(configuration: configuration).acquireToken(
                ManagedIdentityParameters(resource: Self.graph))
        }
        #expect(pauses.all.count == 3)
    }

    @Test("Service Fabric: a certificate with another thumbprint ends the handshake; http is refused")
    func pinnedCertificate() async throws {
        try await Harness.withAzureHosts { h, _ in
            var configuration = try ManagedIdentityApplicationConfiguration()
            var environment = try #require(h.emulator.managedIdentityEnvironment(host: "sf-1"))
            environment["IDENTITY_SERVER_THUMBPRINT"] = String(repeating: "AB", count: 20)
            configuration.environment = environment
            configuration.retryPolicy = .none
            let error = await #expect(throws: MSALError.self) {
                try await ManagedIdentityApplication(configuration: configuration).acquireToken(
                    ManagedIdentityParameters(resource: Self.graph))
            }
            #expect(error?.internalCode == .transportFailed)
            #expect(error?.message.contains("thumbprint is") == true, "\(error?.message ?? "")")
            #expect(try await h.managedIdentityRequests("/hosts/sf-1/metadata/identity/oauth2/token").isEmpty)

            environment["IDENTITY_ENDPOINT"] = environment["IDENTITY_ENDPOINT"]!.replacingOccurrences(
                of: "https:", with: "http:")
            configuration.environment = environment
            #expect(throws: MSALError.self) { try ManagedIdentityApplication(configuration: configuration) }
        }
    }

    @Test("the sources the environment names, in MSAL's order, and clear errors for bad values")
    func detection() throws {
        let none = "/nonexistent/himds"
        func source(_ environment: [String: String], agent: String = none) -> ManagedIdentitySource {
            ManagedIdentitySource.detect(in: environment, arcAgentPath: agent)
        }
        let endpoint = "http://127.0.0.1:1/token"
        #expect(source([:]) == .imds)
        #expect(source(["IDENTITY_ENDPOINT": endpoint, "IDENTITY_HEADER": "h"]) == .appService)
        #expect(
            source(["IDENTITY_ENDPOINT": endpoint, "IDENTITY_HEADER": "h", "IDENTITY_SERVER_THUMBPRINT": "t"])
                == .serviceFabric)
        #expect(source(["MSI_ENDPOINT": endpoint, "MSI_SECRET": "s"]) == .machineLearning)
        #expect(source(["MSI_ENDPOINT": endpoint]) == .cloudShell)
        #expect(source(["IDENTITY_ENDPOINT": endpoint, "IMDS_ENDPOINT": "http://127.0.0.1:1"]) == .azureArc)
        #expect(source(["IDENTITY_ENDPOINT": endpoint, "IDENTITY_HEADER": "h", "IMDS_ENDPOINT": "x"]) == .appService)
        let agent = FileManager.default.temporaryDirectory.appendingPathComponent("himds-\(UUID().uuidString)")
        #expect(FileManager.default.createFile(atPath: agent.path, contents: Data()))
        defer { try? FileManager.default.removeItem(at: agent) }
        #expect(source([:], agent: agent.path) == .azureArc)
        let arc = try ManagedIdentityEndpoint(environment: [:], arcAgentPath: agent.path)
        #expect(arc.url.absoluteString == "http://127.0.0.1:40342/metadata/identity/oauth2/token")
        let imds = try ManagedIdentityEndpoint(environment: [:], arcAgentPath: none)
        #expect(imds.url.absoluteString == "http://169.254.169.254/metadata/identity/oauth2/token")
        let pod = try ManagedIdentityEndpoint(
            environment: ["AZURE_POD_IDENTITY_AUTHORITY_HOST": "http://127.0.0.1:9/pods/"], arcAgentPath: none)
        #expect(pod.url.absoluteString == "http://127.0.0.1:9/pods/metadata/identity/oauth2/token")

        for bad in [
            ["IDENTITY_ENDPOINT": "not a url", "IDENTITY_HEADER": "h"],
            ["IDENTITY_ENDPOINT": "https://127.0.0.1:1/t", "IDENTITY_HEADER": "h", "IDENTITY_SERVER_THUMBPRINT": "12"],
            ["MSI_ENDPOINT": "ftp://127.0.0.1/t"],
        ] {
            let error = #expect(throws: MSALError.self) {
                try ManagedIdentityEndpoint(environment: bad, arcAgentPath: none)
            }
            #expect(error?.internalCode == .invalidParameter)
        }
    }
}
