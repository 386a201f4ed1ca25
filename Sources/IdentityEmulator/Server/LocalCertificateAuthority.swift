import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A throw-away certificate authority and a server certificate for `127.0.0.1`, `::1`, `localhost` (and a
/// public URL's host), so the emulator can serve HTTPS that clients trust through the CA's PEM file.
///
/// The CA carries a critical name constraint permitting only those host names: a client that trusts its file
/// trusts it for no other host name, so a stolen or planted CA file cannot vouch for
/// `login.microsoftonline.com` (IP addresses are not constrained; see ``nameConstraints(extraName:)``).
struct LocalCertificateAuthority: Sendable {
    let caCertificatePEM: String
    let serverCertificateDER: [UInt8]
    let serverKeyDER: [UInt8]
    /// The CA's certificate and key, to issue certificates (the tests' impostors).
    let caCertificate: Certificate
    let caKey: P256.Signing.PrivateKey

    /// A new CA and a server certificate it issued.
    ///
    /// - Parameter extraName: another name the server certificate is for (a `--public-url` host).
    static func generate(now: Date, extraName: String? = nil) throws -> LocalCertificateAuthority {
        let (ca, caKey) = try makeCA(now: now, extraName: extraName)
        return try LocalCertificateAuthority(caCertificate: ca, caKey: caKey, now: now, extraName: extraName)
    }

    /// A server certificate for the loopback names (and `extraName`) issued by `caCertificate`.
    init(caCertificate: Certificate, caKey: P256.Signing.PrivateKey, now: Date, extraName: String?) throws {
        let serverKey = P256.Signing.PrivateKey()
        let names =
            [
                GeneralName.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                .ipAddress(ASN1OctetString(contentBytes: ArraySlice(Self.ipv6Loopback))),
            ] + (extraName.map { [Self.subjectAlternativeName($0)] } ?? [])
        let server = try Self.issue(
            names: names, key: serverKey, caName: caCertificate.subject, caKey: caKey,
            caKeyID: SubjectKeyIdentifier(hash: caCertificate.publicKey).keyIdentifier, now: now)
        var serializer = DER.Serializer()
        try serializer.serialize(server)
        // A PEM file ends with a line break, so that another certificate appended to it starts on a line of its own.
        caCertificatePEM = try caCertificate.serializeAsPEM().pemString + "\n"
        serverCertificateDER = serializer.serializedBytes
        serverKeyDER = Array(serverKey.derRepresentation)
        self.caCertificate = caCertificate
        self.caKey = caKey
    }

    /// A CA certificate valid for ten years, constrained to the loopback names and `extraName`, and its key.
    static func makeCA(now: Date, extraName: String?) throws -> (Certificate, P256.Signing.PrivateKey) {
        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName {
            OrganizationName("identity-emulator")
            CommonName("identity-emulator local CA")
        }
        let caPublicKey = Certificate.PublicKey(caKey.publicKey)
        let ca = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: caPublicKey,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(10 * 365 * 86_400),
            issuer: caName, subject: caName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                Critical(nameConstraints(extraName: extraName))
                SubjectKeyIdentifier(hash: caPublicKey)
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey))
        return (ca, caKey)
    }

    /// A server certificate for `names` and `key` signed by this CA (whatever its constraint permits: for tests).
    func issue(names: [GeneralName], key: P256.Signing.PrivateKey = P256.Signing.PrivateKey(), now: Date) throws
        -> Certificate
    {
        let keyID = SubjectKeyIdentifier(hash: caCertificate.publicKey).keyIdentifier
        return try Self.issue(
            names: names, key: key, caName: caCertificate.subject, caKey: caKey, caKeyID: keyID, now: now)
    }

    private static func issue(
        names: [GeneralName], key: P256.Signing.PrivateKey, caName: DistinguishedName,
        caKey: P256.Signing.PrivateKey, caKeyID: ArraySlice<UInt8>, now: Date
    ) throws -> Certificate {
        let publicKey = Certificate.PublicKey(key.publicKey)
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(365 * 86_400),
            issuer: caName, subject: try DistinguishedName { CommonName("localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true, keyEncipherment: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names)
                SubjectKeyIdentifier(hash: publicKey)
                AuthorityKeyIdentifier(keyIdentifier: caKeyID)
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey))
    }

    /// Only `localhost` (and its subdomains) and the public URL's host name. IP addresses stay unconstrained:
    /// BoringSSL, which NIOSSL and so every Swift client here verifies with, refuses any chain whose CA
    /// constrains IP addresses ("unsupported constraint type"), and a DNS constraint is what keeps the CA from
    /// vouching for `login.microsoftonline.com`.
    static func nameConstraints(extraName: String?) -> NameConstraints {
        var domains = ["localhost"]
        if case .dnsName(let name)? = extraName.map(Self.subjectAlternativeName) { domains.append(name) }
        return NameConstraints(permittedDNSDomains: domains)
    }

    /// The server side TLS configuration presenting the server certificate.
    func serverTLSConfiguration() throws -> TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: serverCertificateDER, format: .der))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: serverKeyDER, format: .der)))
    }

    private static let ipv6Loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]

    /// An IP address entry for a literal IPv4 or IPv6 address (brackets allowed), else a DNS name.
    private static func subjectAlternativeName(_ name: String) -> GeneralName {
        let literal = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            return .ipAddress(ASN1OctetString(contentBytes: ArraySlice(withUnsafeBytes(of: &v4) { Array($0) })))
        }
        if inet_pton(AF_INET6, literal, &v6) == 1 {
            return .ipAddress(ASN1OctetString(contentBytes: ArraySlice(withUnsafeBytes(of: &v6) { Array($0) })))
        }
        return .dnsName(name)
    }
}
