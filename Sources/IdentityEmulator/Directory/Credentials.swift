import Foundation

/// A certificate or public key registered on an application, for client assertions (`private_key_jwt`).
///
/// A certificate is found by the assertion header's `x5t#S256` (SHA-256 of its DER) or `x5t` (SHA-1); a
/// bare public key by the header's `kid`, which must equal ``keyId``. Exactly one of ``certificate`` and
/// ``publicKey`` is given; the RSA key has at least 2048 bits.
public struct KeyCredential: Codable, Sendable {
    /// A PEM X.509 certificate (`-----BEGIN CERTIFICATE-----`).
    public var certificate: String?
    /// A PEM RSA public key (`-----BEGIN PUBLIC KEY-----`, SubjectPublicKeyInfo).
    public var publicKey: String?
    /// The `kid` that selects this key; required with ``publicKey``, optional with a certificate.
    public var keyId: String?

    public init(certificate: String? = nil, publicKey: String? = nil, keyId: String? = nil) {
        self.certificate = certificate
        self.publicKey = publicKey
        self.keyId = keyId
    }
}

/// A federated identity credential: tokens of an external issuer (a Kubernetes cluster, a CI system)
/// that the app may present as client assertions instead of a secret or certificate.
///
/// An assertion matches when its `iss`, `sub` and `aud` equal ``issuer``, ``subject`` and the one
/// audience, case-sensitively. The literal `{emulator}` in ``issuer`` stands for the emulator's issuer
/// origin, so `{emulator}/_emulator/workload` names its built-in workload issuer.
public struct FederatedCredential: Codable, Sendable {
    /// A unique name per app: 3–120 URL-safe characters.
    public var name: String
    /// The external issuer URL (at most 600 characters).
    public var issuer: String
    /// The subject of the external tokens, e.g. `system:serviceaccount:demo:daemon` (at most 600 characters).
    public var subject: String
    /// Exactly one audience, normally `api://AzureADTokenExchange`.
    public var audiences: [String]

    public init(name: String, issuer: String, subject: String, audiences: [String] = ["api://AzureADTokenExchange"]) {
        self.name = name
        self.issuer = issuer
        self.subject = subject
        self.audiences = audiences
    }

    /// The placeholder for the emulator's issuer origin in ``issuer``.
    static let emulatorPlaceholder = "{emulator}"

    /// ``issuer`` with `{emulator}` replaced by `origin`.
    func expandedIssuer(origin: String) -> String {
        issuer.replacingOccurrences(of: Self.emulatorPlaceholder, with: origin)
    }
}
