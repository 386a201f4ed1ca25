import Foundation
import IdentityEmulator
import MSAL
import Testing

/// Regional endpoints (ESTS-R) against the emulator, reached as `http://localhost:{port}`: its regional names are
/// `{region}.localhost:{port}`, and its request log tells which host each token request named.
@Suite("Regional endpoints")
struct RegionalEndpointTests {
    @Test(
        "a named region's app token comes from {region}.{host}, issued by the global issuer, cached as the global one's"
    )
    func namedRegion() async throws {
        try await Harness.with { h in
            let cache = PartitionedTokenCache(clock: h.clock)
            let app = try h.regionalApp(.named("WestUS2"), cache: cache)
            let first = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(first.source == .identityProvider)
            #expect(try await h.tokenHosts() == ["westus2.localhost:\(h.emulator.port)"])
            let api = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.api1Default))
            let issuer = try Self.claims(of: api.accessToken)["iss"] as? String
            #expect(issuer == "\(h.emulator.issuerOrigin.absoluteString)/\(h.ids.contosoTenant)/v2.0")

            let again = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(again.source == .cache)
            // An app on the global endpoint with the same cache finds the regional token: one cache either way.
            let global = try h.regionalApp(nil, cache: cache)
            let fromGlobal = try await global.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(fromGlobal.source == .cache)
            #expect(fromGlobal.accessToken == first.accessToken)
            #expect(try await h.tokenHosts().count == 2)
        }
    }

    @Test("auto-detection takes REGION_NAME first, as Azure Functions set it, without asking IMDS")
    func detectedFromRegionName() async throws {
        try await Harness.with { h in
            let app = try h.regionalApp(
                .autoDetect,
                environment: [
                    "REGION_NAME": "East US 2", "AZURE_POD_IDENTITY_AUTHORITY_HOST": "\(h.emulator.baseURL)/hosts/vm-1",
                ])
            _ = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(try await h.tokenHosts() == ["eastus2.localhost:\(h.emulator.port)"])
            #expect(try await h.locationRequests() == 0)
        }
    }

    @Test("auto-detection asks IMDS's compute location once per app when REGION_NAME is unset")
    func detectedFromIMDS() async throws {
        try await Harness.with { h in
            let app = try h.regionalApp(
                .autoDetect, environment: ["AZURE_POD_IDENTITY_AUTHORITY_HOST": "\(h.emulator.baseURL)/hosts/vm-1"])
            for _ in 0..<2 {
                _ = try await app.acquireTokenForClient(
                    ClientCredentialParameters(scopes: h.graphDefault, forceRefresh: true))
            }
            let regional = "\(AzureHost.defaultLocation).localhost:\(h.emulator.port)"
            #expect(try await h.tokenHosts() == [regional, regional])
            #expect(try await h.locationRequests() == 1)
        }
    }

    @Test(
        "when detection finds no region (IMDS answers 404), the app uses the global endpoint, and asks IMDS only once")
    func detectionFailsToGlobal() async throws {
        try await Harness.with { h in
            // app-1 is an App Service host: IMDS's compute metadata is not there.
            let app = try h.regionalApp(
                .autoDetect, environment: ["AZURE_POD_IDENTITY_AUTHORITY_HOST": "\(h.emulator.baseURL)/hosts/app-1"])
            for _ in 0..<2 {
                let result = try await app.acquireTokenForClient(
                    ClientCredentialParameters(scopes: h.graphDefault, forceRefresh: true))
                #expect(result.source == .identityProvider)
            }
            #expect(try await h.tokenHosts() == ["localhost:\(h.emulator.port)", "localhost:\(h.emulator.port)"])
            #expect(try await h.locationRequests() == 1)
        }
    }

    @Test("a regional endpoint that fails is an error, as in MSAL.NET: the global endpoint is not asked instead")
    func regionalFailureIsAnError() async throws {
        try await Harness.with { h in
            let app = try h.regionalApp(.named("westus2"))
            try await h.scenario("token", "serverError", count: 10)
            await #expect(throws: MSALError.self) {
                try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            }
            let hosts = try await h.tokenHosts()
            #expect(!hosts.isEmpty)
            #expect(hosts.allSatisfy { $0 == "westus2.localhost:\(h.emulator.port)" })
        }
    }

    @Test(
        "a region that is not a DNS label, or one with an authority that is not Entra's, is refused when the app is made"
    )
    func refusedConfigurations() throws {
        let credential = ClientCredential.secret("s")
        var configuration = ConfidentialClientApplicationConfiguration(
            clientID: "c", credential: credential, authority: try Authority("https://login.microsoftonline.com/t"))
        configuration.azureRegion = .named("west us/2")
        #expect(throws: MSALError.self) { try ConfidentialClientApplication(configuration: configuration) }
        configuration.azureRegion = .named("westus2")
        configuration.authority = try Authority("https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_signin")
        #expect(throws: MSALError.self) { try ConfidentialClientApplication(configuration: configuration) }
    }

    private static func claims(of jwt: String) throws -> [String: Any] {
        let part = jwt.split(separator: ".")[1]
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let data = try #require(Data(base64Encoded: base64))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

extension Harness {
    /// The daemon against the emulator as `http://localhost:{port}/{contoso}`, with `region`.
    fileprivate func regionalApp(
        _ region: AzureRegion?, environment: [String: String] = [:], cache: PartitionedTokenCache? = nil
    ) throws -> ConfidentialClientApplication {
        var configuration = try ConfidentialClientApplicationConfiguration(
            clientID: ids.confidentialClient, credential: daemonSecret,
            authority: Authority("http://localhost:\(emulator.port)/\(ids.contosoTenant)"))
        configuration.clock = clock
        configuration.sleep = { _ in await Task.yield() }
        configuration.azureRegion = region
        configuration.environment = environment
        if let cache { configuration.cache = cache }
        return try ConfidentialClientApplication(configuration: configuration)
    }

    /// The `Host` each token request named, oldest first.
    fileprivate func tokenHosts() async throws -> [String] {
        let json = try await admin("GET", "requests?path=/oauth2/v2.0/token")
        return ((json["requests"] as? [[String: Any]]) ?? []).compactMap { $0["host"] as? String }
    }

    /// How many times IMDS was asked for the compute location.
    fileprivate func locationRequests() async throws -> Int {
        let json = try await admin("GET", "requests?path=/metadata/instance/compute/location")
        return (json["requests"] as? [[String: Any]])?.count ?? 0
    }
}
