import Crypto
import Foundation
import _CryptoExtras

/// A certificate credential: an RSA private key (2048 bits or more) and the X.509 certificate
/// registered on the app, with any intermediate certificates after it.
///
/// The private key never leaves this value: its description shows only the thumbprint.
public struct ClientCertificate: Sendable, CustomStringConvertible {
    /// How the client assertion is signed.
    public enum SigningAlgorithm: String, Sendable {
        /// RSASSA-PSS with SHA-256, what Entra documents and MSAL Python, Go and .NET send.
        case ps256 = "PS256"
        /// RSASSA-PKCS1-v1_5 with SHA-256, for identity providers that do not accept PSS (AD FS).
        case rs256 = "RS256"
    }

    let privateKey: _RSA.Signing.PrivateKey
    /// The DER of each certificate, the one matching the key first.
    let chain: [Data]
    /// How assertions are signed; PS256 unless set otherwise.
    public var algorithm: SigningAlgorithm
    /// The SHA-256 thumbprint of the certificate, base64url without padding (the `x5t#S256` header).
    public let sha256Thumbprint: String
    /// The SHA-1 thumbprint of the certificate in upper-case hex, as the Azure portal shows it.
    public let sha1Thumbprint: String

    /// A credential from PEM text.
    ///
    /// - Parameters:
    ///   - privateKeyPEM: an unencrypted RSA key, PKCS#8 (`BEGIN PRIVATE KEY`) or PKCS#1 (`BEGIN RSA PRIVATE KEY`).
    ///   - certificatePEM: one or more `BEGIN CERTIFICATE` blocks; the one matching the key is used.
    ///   - algorithm: PS256 by default.
    /// - Throws: ``MSALError`` `invalidParameter` when the key is not an RSA key of 2048 bits or more, no
    ///   certificate is found, or none matches the key. The message never contains key material.
    public init(privateKeyPEM: String, certificatePEM: String, algorithm: SigningAlgorithm = .ps256) throws {
        let key: _RSA.Signing.PrivateKey
        do {
            key = try _RSA.Signing.PrivateKey(pemRepresentation: Self.privateKeyBlock(in: privateKeyPEM) ?? "")
        } catch {
            throw MSALError.internal(
                .invalidParameter,
                "The certificate credential's private key is not an unencrypted RSA key of 2048 bits or more in PEM.",
                underlyingError: error)
        }
        var certificates = PEMBlocks.der(of: "CERTIFICATE", in: certificatePEM)
        guard !certificates.isEmpty else {
            throw MSALError.internal(.invalidParameter, "The certificate credential has no PEM certificate.")
        }
        // A certificate's DER embeds its subject public key info verbatim.
        let publicKey = key.publicKey.derRepresentation
        guard let leaf = certificates.firstIndex(where: { $0.range(of: publicKey) != nil }) else {
            throw MSALError.internal(
                .invalidParameter, "None of the credential's certificates belongs to its private key.")
        }
        certificates.insert(certificates.remove(at: leaf), at: 0)
        privateKey = key
        chain = certificates
        self.algorithm = algorithm
        sha256Thumbprint = Base64URL.encode(SHA256.hash(data: certificates[0]))
        sha1Thumbprint = Insecure.SHA1.hash(data: certificates[0]).map { String(format: "%02X", $0) }.joined()
    }

    /// A credential from one PEM file holding both the private key and the certificate (as `az` and
    /// `openssl` write them), or from a key file and a certificate file.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` when a file cannot be read or its contents are not a credential.
    public init(pemFile: URL, certificateFile: URL? = nil, algorithm: SigningAlgorithm = .ps256) throws {
        func read(_ url: URL) throws -> String {
            do {
                return try String(contentsOf: url, encoding: .utf8)
            } catch {
                throw MSALError.internal(
                    .invalidParameter, "Cannot read the certificate file \(url.path).", underlyingError: error)
            }
        }
        let keyText = try read(pemFile)
        try self.init(
            privateKeyPEM: keyText, certificatePEM: try certificateFile.map(read) ?? keyText, algorithm: algorithm)
    }

    /// The certificate's thumbprint; never the key.
    public var description: String { "ClientCertificate(x5t#S256: \(sha256Thumbprint), \(algorithm.rawValue))" }

    /// Signs `input` with the credential's algorithm.
    func sign(_ input: String) throws -> Data {
        let digest = SHA256.hash(data: Data(input.utf8))
        let padding: _RSA.Signing.Padding = algorithm == .ps256 ? .PSS : .insecurePKCS1v1_5
        return try privateKey.signature(for: digest, padding: padding).rawRepresentation
    }

    private static func privateKeyBlock(in pem: String) -> String? {
        for label in ["PRIVATE KEY", "RSA PRIVATE KEY"] {
            if let block = PEMBlocks.text(of: label, in: pem).first { return block }
        }
        return nil
    }
}
