import Foundation

/// How a confidential client proves its identity to the token endpoint: a client secret, a
/// certificate, or an assertion from elsewhere (workload identity federation).
///
/// Its description names the kind only: secrets and keys never appear in logs or errors.
public struct ClientCredential: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case secret(String)
        case certificate(ClientCertificate, sendX5C: Bool)
        case assertion(@Sendable (ClientAssertionRequest) async throws -> String)
    }

    let kind: Kind

    /// A client secret from the app registration, sent as `client_secret`.
    public static func secret(_ secret: String) -> ClientCredential { ClientCredential(kind: .secret(secret)) }

    /// A certificate registered on the app. The library signs a client assertion with it (RFC 7523:
    /// `aud` the token endpoint, `iss` and `sub` the client id, a unique `jti`, valid ten minutes) and
    /// reuses it until a minute before it expires.
    ///
    /// - Parameters:
    ///   - certificate: the private key and certificate.
    ///   - sendX5C: also send the certificate chain (`x5c`), for apps that trust a subject name and
    ///     issuer instead of a registered thumbprint.
    public static func certificate(_ certificate: ClientCertificate, sendX5C: Bool = false) -> ClientCredential {
        ClientCredential(kind: .certificate(certificate, sendX5C: sendX5C))
    }

    /// An assertion made elsewhere, asked for on every token request (for example a token from
    /// another identity provider that the app trusts through a federated credential).
    public static func assertion(
        _ provide: @escaping @Sendable (ClientAssertionRequest) async throws -> String
    ) -> ClientCredential {
        ClientCredential(kind: .assertion(provide))
    }

    /// Workload identity federation: the token in `file` (Kubernetes' projected service account
    /// token, `AZURE_FEDERATED_TOKEN_FILE` on AKS), read again on every token request because the
    /// cluster rotates it.
    ///
    /// - Throws (when a token is requested): ``MSALError`` `invalidParameter` when the file cannot be
    ///   read or is empty.
    public static func federatedTokenFile(_ file: URL) -> ClientCredential {
        .assertion { _ in
            let token: String
            do {
                token = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                throw MSALError.internal(
                    .invalidParameter, "Cannot read the federated token file \(file.path).", underlyingError: error)
            }
            guard !token.isEmpty else {
                throw MSALError.internal(.invalidParameter, "The federated token file \(file.path) is empty.")
            }
            return token
        }
    }

    /// The credential's kind, without the secret.
    public var description: String {
        switch kind {
        case .secret: "ClientCredential.secret(<redacted>)"
        case .certificate(let certificate, _): "ClientCredential.certificate(\(certificate))"
        case .assertion: "ClientCredential.assertion"
        }
    }
}

/// What an assertion is for: the app and the token endpoint it is presented to (its `aud`).
public struct ClientAssertionRequest: Sendable {
    /// The application (client) id.
    public let clientID: String
    /// The token endpoint the assertion is sent to.
    public let tokenEndpoint: URL
}
