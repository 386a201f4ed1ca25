import AsyncHTTPClient
import Foundation
import IdentityEmulator
import NIOSSL

/// Runs `body` with an identity emulator started in this process on a free loopback port, and stops it when `body`
/// returns or throws: a test of an app that signs users in, or of an API that checks their tokens, without Entra.
///
///     try await withIdentityEmulator { emulator in
///         let megan = try await emulator.signIn("MeganB@contoso.onmicrosoft.com", password: "Megan-Demo-Pass1")
///         let token = try await emulator.accessToken(api: apiClientID, user: "MeganB@contoso.onmicrosoft.com",
///                                                    scopes: ["ToDoList.Read"])
///     }
///
/// - Parameters:
///   - directory: the tenants, users and applications (the demo directory by default; write one in code).
///   - tls: serve HTTPS with a throwaway local CA, which ``IdentityEmulatorFixture/transport`` and the apps it makes
///     trust.
///   - body: the test.
/// - Throws: `IdentityEmulator.StartError` or `DirectoryConfigurationError` when it cannot start; what `body` throws.
public func withIdentityEmulator<Result: Sendable>(
    directory: Directory = .demo, tls: Bool = false,
    _ body: @Sendable (IdentityEmulatorFixture) async throws -> Result
) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("identity-emulator-\(UUID().uuidString)")
    defer { if tls { try? FileManager.default.removeItem(at: folder) } }
    let configuration = EmulatorConfiguration(port: 0, directory: directory, tlsDirectory: tls ? folder : nil)
    return try await IdentityEmulator.withRunning(configuration) { running in
        var http = HTTPClient.Configuration(redirectConfiguration: .disallow)
        if let pem = running.caCertificatePEM {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))]
            http.tlsConfiguration = tls
        }
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: http)
        do {
            let result = try await body(try IdentityEmulatorFixture(running: running, http: client))
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
