import Foundation
import Testing

@testable import MSAL

@Suite("PEM blocks found in text")
struct PEMBlocksTests {
    @Test("blocks of one label among others, with CRLF lines and a header, markers kept, contents decoded")
    func labels() {
        let pem = """
            leading text\r
            -----BEGIN CERTIFICATE-----\r
            Proc-Type: 4,ENCRYPTED\r
            AQID\r
            BA==\r
            -----END CERTIFICATE-----\r
            -----BEGIN PRIVATE KEY-----
            BQY=
            -----END PRIVATE KEY-----
            -----BEGIN CERTIFICATE-----
            Bwg=
            -----END CERTIFICATE-----
            -----BEGIN CERTIFICATE-----
            no end marker
            """
        let blocks = PEMBlocks.text(of: "CERTIFICATE", in: pem)
        #expect(blocks.count == 2)
        #expect(
            blocks.allSatisfy {
                $0.hasPrefix("-----BEGIN CERTIFICATE-----") && $0.hasSuffix("-----END CERTIFICATE-----")
            })
        #expect(PEMBlocks.der(of: "CERTIFICATE", in: pem) == [Data([1, 2, 3, 4]), Data([7, 8])])
        #expect(PEMBlocks.der(of: "PRIVATE KEY", in: pem) == [Data([5, 6])])
        #expect(PEMBlocks.text(of: "CERTIFICATE", in: "-----BEGIN CERTIFICATE-----").isEmpty)
        #expect(PEMBlocks.decodedBlocks(of: "X", in: "-----BEGIN X-----\nnot*base64\n-----END X-----\n") == [nil])
        #expect(
            PEMBlocks.decodedBlocks(of: "X", in: "-----END X-----\n-----BEGIN X-----\nAQ==\n-----END X-----") == [
                Data([1])
            ])
    }

    @Test("the system's CA bundle: every certificate, as many as its BEGIN lines, accepted as trust roots")
    func systemBundle() throws {
        let path = "/etc/ssl/certs/ca-certificates.crt"
        let pem = try #require(try? String(contentsOfFile: path, encoding: .utf8), "\(path) (Debian's ca-certificates)")
        let begins = pem.split(separator: "\n").filter { $0 == "-----BEGIN CERTIFICATE-----" }.count
        #expect(begins > 0)
        #expect(PEMBlocks.der(of: "CERTIFICATE", in: pem).count == begins)
        _ = try AdditionalTrustRoots(pem: pem)
    }
}
