import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import SwiftASN1
import Testing
import X509

@testable import IdentityEmulator

/// The emulator's local CA vouches for loopback names only, so trusting its file trusts nothing else.
@Suite("The local CA's name constraint")
struct LocalCertificateAuthorityTests {
    private static func verify(_ leaf: Certificate, by ca: Certificate, hostname: String?, ip: String?) async
        -> CertificateValidationResult
    {
        var verifier = Verifier(rootCertificates: CertificateStore([ca])) {
            RFC5280Policy(validationTime: Date())
            ServerIdentityPolicy(serverHostname: hostname, serverIP: ip)
        }
        return await verifier.validate(leaf: leaf, intermediates: CertificateStore())
    }

    private static func isValid(_ result: CertificateValidationResult) -> Bool {
        if case .validCertificate = result { return true }
        return false
    }

    @Test("the CA permits the host names localhost and the public host only, critically; its server certificate passes")
    func constraint() async throws {
        let authority = try LocalCertificateAuthority.generate(now: Date(), extraName: "emulator.test")
        let ca = authority.caCertificate
        let ext = try #require(ca.extensions[oid: .X509ExtensionID.nameConstraints])
        #expect(ext.critical)
        let constraints = try NameConstraints(ext)
        #expect(Array(constraints.permittedDNSDomains) == ["localhost", "emulator.test"])
        // BoringSSL refuses chains whose CA constrains IP addresses, so they are left unconstrained.
        #expect(constraints.permittedIPRanges.isEmpty)
        let server = try Certificate(derEncoded: authority.serverCertificateDER)
        #expect(Self.isValid(await Self.verify(server, by: ca, hostname: "localhost", ip: nil)))
        #expect(Self.isValid(await Self.verify(server, by: ca, hostname: nil, ip: "127.0.0.1")))
        #expect(Self.isValid(await Self.verify(server, by: ca, hostname: "emulator.test", ip: nil)))
    }

    @Test(
        "a certificate the CA's key signs for login.microsoftonline.com (or any host name beside localhost) is refused",
        arguments: [
            [GeneralName.dnsName("login.microsoftonline.com")],
            [.dnsName("localhost"), .dnsName("login.microsoftonline.com")],
            [.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])), .dnsName("graph.microsoft.com")],
        ])
    func impostor(names: [GeneralName]) async throws {
        let authority = try LocalCertificateAuthority.generate(now: Date())
        let impostor = try authority.issue(names: names, now: Date())
        for (hostname, ip) in [("login.microsoftonline.com", nil), (nil, "127.0.0.1"), ("localhost", nil)]
            as [(String?, String?)]
        {
            #expect(!Self.isValid(await Self.verify(impostor, by: authority.caCertificate, hostname: hostname, ip: ip)))
        }
    }

    @Test(
        "BoringSSL (NIOSSL, every Swift client here) refuses a server whose certificate from the CA also names login.microsoftonline.com"
    )
    func boringSSLEnforcesTheConstraint() async throws {
        let authority = try LocalCertificateAuthority.generate(now: Date())
        let impostor = try await Self.handshakeFailure(
            authority, names: [.dnsName("localhost"), .dnsName("login.microsoftonline.com")])
        #expect(impostor.contains("CERTIFICATE_VERIFY_FAILED"), "\(impostor)")
        // The same server with a certificate for localhost alone gets past the handshake (and then speaks no HTTP).
        let permitted = try await Self.handshakeFailure(authority, names: [.dnsName("localhost")])
        #expect(!permitted.contains("CERTIFICATE_VERIFY_FAILED"), "\(permitted)")
    }

    /// Serves TLS with a certificate for `names` from the CA and fetches `https://localhost:port/` trusting only
    /// the CA: the error the fetch ends with (the server answers no HTTP).
    private static func handshakeFailure(_ authority: LocalCertificateAuthority, names: [GeneralName]) async throws
        -> String
    {
        let key = P256.Signing.PrivateKey()
        var serializer = DER.Serializer()
        try serializer.serialize(try authority.issue(names: names, key: key, now: Date()))
        let serverTLS = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(key.derRepresentation), format: .der)))
        let context = try NIOSSLContext(configuration: serverTLS)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        defer { server.close(promise: nil) }
        var clientTLS = TLSConfiguration.makeClientConfiguration()
        clientTLS.trustRoots = .certificates([
            try NIOSSLCertificate(bytes: Array(authority.caCertificatePEM.utf8), format: .pem)
        ])
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(tlsConfiguration: clientTLS))
        defer { _ = client.shutdown() }
        do {
            _ = try await client.execute(
                HTTPClientRequest(url: "https://localhost:\(server.localAddress?.port ?? 0)/"), timeout: .seconds(2))
            return "no error"
        } catch {
            return String(describing: error)
        }
    }
}
