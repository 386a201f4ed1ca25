import Foundation
import Locking
import NIOSSL

/// PEM certificates a transport trusts besides the system's. Their shape is checked when they are given (each
/// block's base64 decodes to one DER `SEQUENCE` of the length it declares); they are parsed into a TLS
/// configuration on the first request that needs one, so a command answered from the cache parses nothing.
final class AdditionalTrustRoots: Sendable {
    private let pem: String
    private let parsed = Locked<TLSConfiguration?>(nil)

    /// - Throws: ``MSALError`` `invalidParameter` when `pem` holds no certificate block or a block is not a
    ///   whole DER structure.
    init(pem: String) throws {
        let blocks = PEMBlocks.decodedBlocks(of: "CERTIFICATE", in: pem)
        guard !blocks.isEmpty else {
            throw MSALError.internal(
                .invalidParameter, "The trusted CA is not a PEM certificate: no certificate block.")
        }
        guard blocks.allSatisfy({ $0.map(Self.isWholeSequence) ?? false }) else {
            throw MSALError.internal(
                .invalidParameter, "The trusted CA is not a PEM certificate: a block is not a certificate's encoding.")
        }
        self.pem = pem
    }

    /// The client TLS configuration that trusts these certificates too, parsed once.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` when a certificate cannot be parsed.
    func tlsConfiguration() throws -> TLSConfiguration {
        try parsed.withLock { (parsed: inout TLSConfiguration?) throws(MSALError) -> TLSConfiguration in
            if let parsed { return parsed }
            var tls = TLSConfiguration.makeClientConfiguration()
            do {
                tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))]
            } catch {
                throw MSALError.internal(
                    .invalidParameter, "The trusted CA is not a PEM certificate: \(error)", underlyingError: error)
            }
            parsed = tls
            return tls
        }
    }

    /// How many configurations have been parsed (0 or 1), for tests.
    var parsedCount: Int { parsed.withLock { $0 == nil ? 0 : 1 } }

    /// Whether `der` is one DER `SEQUENCE` (a certificate's outer structure) whose length is the data's.
    private static func isWholeSequence(_ der: Data) -> Bool {
        let bytes = [UInt8](der.prefix(6))
        guard bytes.count >= 2, bytes[0] == 0x30 else { return false }
        if bytes[1] < 0x80 { return der.count == 2 + Int(bytes[1]) }
        let lengthBytes = Int(bytes[1] & 0x7f)
        guard (1...4).contains(lengthBytes), bytes.count >= 2 + lengthBytes else { return false }
        let length = bytes[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | Int($1) }
        return der.count == 2 + lengthBytes + length
    }
}
