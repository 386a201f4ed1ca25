import Foundation
import HTTPTypes
import IdentityEmulator
import Testing

@testable import MSAL

/// The CA a transport trusts besides the system's: its shape checked when given, its certificates parsed on the
/// first request (a command answered from the cache parses none).
@Suite("A transport's extra trusted CA")
struct AdditionalTrustRootsTests {
    static let notACertificate = "-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n"

    @Test("the emulator's CA, parsed at the first request, makes its TLS endpoint trusted")
    func trusted() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trust-roots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, tlsDirectory: folder)) { emulator in
            let roots = try AdditionalTrustRoots(pem: try #require(emulator.caCertificatePEM))
            #expect(roots.parsedCount == 0, "nothing parsed before a request")
            let transport = try DefaultHTTPTransport(trustedCAPEM: emulator.caCertificatePEM)
            let url = emulator.baseURL.appendingPathComponent("common/v2.0/.well-known/openid-configuration")
            let (response, _) = try await transport.send(HTTPRequest(method: .get, url: url), body: nil)
            #expect(response.status == .ok)
            #expect(try roots.tlsConfiguration().additionalTrustRoots.count == 1)
            #expect(roots.parsedCount == 1)
        }
    }

    @Test(
        "text without a certificate block, or a block that is not one DER structure, is refused when given",
        arguments: [
            "not a certificate",
            "-----BEGIN CERTIFICATE-----\nnot*base64\n-----END CERTIFICATE-----\n",
            "-----BEGIN CERTIFICATE-----\nMAMCAQ==\n-----END CERTIFICATE-----\n",
            "-----BEGIN CERTIFICATE-----\nAgEB\n-----END CERTIFICATE-----\n",
        ])
    func refusedWhenGiven(_ pem: String) {
        #expect { try DefaultHTTPTransport(trustedCAPEM: pem) } throws: { error in
            (error as? MSALError)?.internalCode == .invalidParameter
        }
    }

    @Test("a whole DER structure that is no certificate is refused by the first request, which sends nothing")
    func refusedAtFirstRequest() async throws {
        let transport = try DefaultHTTPTransport(trustedCAPEM: Self.notACertificate)
        let request = HTTPRequest(method: .get, url: URL(string: "https://127.0.0.1:9/")!)
        await #expect { try await transport.send(request, body: nil) } throws: { error in
            (error as? MSALError)?.internalCode == .invalidParameter
        }
    }
}
