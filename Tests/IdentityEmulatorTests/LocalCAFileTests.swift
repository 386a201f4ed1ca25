import Foundation
import IdentityEmulator
import NIOSSL
import Testing

@Suite("The local CA's PEM file")
struct LocalCAFileTests {
    @Test("it ends with a line break, so a bundle made by appending a certificate to it holds both")
    func endsWithLineBreak() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-ca-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, tlsDirectory: folder)) { running in
            let pem = try #require(running.caCertificatePEM)
            let file = try String(contentsOf: try #require(running.caCertificateFile), encoding: .utf8)
            #expect(file == pem)
            #expect(pem.hasSuffix("-----END CERTIFICATE-----\n"))
            // `cat identity-emulator-ca.pem other.pem > bundle.pem`
            let bundle = file + file
            #expect(!bundle.contains("----------"))
            #expect(try NIOSSLCertificate.fromPEMBytes(Array(bundle.utf8)).count == 2)
        }
    }
}
