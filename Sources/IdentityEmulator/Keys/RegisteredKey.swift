import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// A key credential, parsed: the RSA public key that verifies the app's client assertions and the
/// header values that select it.
struct RegisteredKey: Sendable {
    /// Why a ``KeyCredential`` cannot be used, for the directory validation's message.
    enum Problem: Error, Equatable {
        case neitherOrBoth
        case badCertificate
        case badPublicKey
        case notRSA
        case tooSmall(bits: Int)
        case missingKeyID
    }

    let publicKey: _RSA.Signing.PublicKey
    /// SHA-1 of the certificate's DER (the `x5t` thumbprint); `nil` for a bare public key.
    let sha1: [UInt8]?
    /// SHA-256 of the certificate's DER (the `x5t#S256` thumbprint); `nil` for a bare public key.
    let sha256: [UInt8]?
    /// The `kid` that selects the key.
    let keyID: String?

    /// - Throws: ``Problem``.
    init(_ credential: KeyCredential) throws(Problem) {
        switch (credential.certificate, credential.publicKey) {
        case (let pem?, nil):
            guard let document = try? PEMDocument(pemString: pem), document.discriminator == "CERTIFICATE",
                let certificate = try? Certificate(derEncoded: document.derBytes)
            else { throw .badCertificate }
            guard let key = _RSA.Signing.PublicKey(certificate.publicKey) else { throw .notRSA }
            publicKey = key
            sha1 = Array(Insecure.SHA1.hash(data: document.derBytes))
            sha256 = Array(SHA256.hash(data: document.derBytes))
        case (nil, let pem?):
            guard let key = try? _RSA.Signing.PublicKey(unsafePEMRepresentation: pem) else { throw .badPublicKey }
            guard credential.keyId?.isEmpty == false else { throw .missingKeyID }
            publicKey = key
            sha1 = nil
            sha256 = nil
        default:
            throw .neitherOrBoth
        }
        guard publicKey.keySizeInBits >= 2048 else { throw .tooSmall(bits: publicKey.keySizeInBits) }
        keyID = credential.keyId
    }

    /// True when the header's thumbprints or `kid` name this key.
    func matches(sha256 headerSHA256: [UInt8]?, sha1 headerSHA1: [UInt8]?, keyID headerKeyID: String?) -> Bool {
        if let headerSHA256, headerSHA256 == sha256 { return true }
        if let headerSHA1, headerSHA1 == sha1 { return true }
        if let headerKeyID, let keyID, headerKeyID == keyID { return true }
        return false
    }
}

extension RegisteredKey.Problem: CustomStringConvertible {
    var description: String {
        switch self {
        case .neitherOrBoth: "needs exactly one of 'certificate' and 'publicKey'"
        case .badCertificate: "'certificate' is not a PEM X.509 certificate (-----BEGIN CERTIFICATE-----)"
        case .badPublicKey: "'publicKey' is not a PEM RSA public key (-----BEGIN PUBLIC KEY-----)"
        case .notRSA: "the certificate's key is not an RSA key"
        case .tooSmall(let bits): "the RSA key has \(bits) bits; at least 2048 are required"
        case .missingKeyID: "a 'publicKey' needs a 'keyId' (the assertion header's 'kid' selects it)"
        }
    }
}
