import Foundation
import Hummingbird

/// How a confidential client proved itself at the token endpoint; its access tokens say so in
/// `appidacr` / `azpacr`.
enum ClientCredentialKind: Sendable {
    case secret
    case certificate
    case federated

    /// `"1"` for a secret, `"2"` for a certificate or a federated credential.
    var authenticationClass: String { self == .secret ? "1" : "2" }
}

/// Client authentication at `/{tenant}/oauth2/v2.0/token`: a secret in the body or through HTTP Basic,
/// or a client assertion (`private_key_jwt`: a certificate's or a federated credential's JWT).
struct ClientAuthentication: Sendable {
    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// Tolerance for an assertion's `nbf` ahead of the emulator's clock.
    static let clockSkew: TimeInterval = 300

    let core: EmulatorCore

    /// Checks the credential a client sent.
    ///
    /// - Returns: how a confidential client authenticated; `nil` for a public client.
    /// - Throws: ``EntraError``: AADSTS700025 when a public client sends a credential, 7000218 when a
    ///   confidential one sends none, 7000215 for a wrong secret, the assertion errors of
    ///   `server-side.md` §1.4 and §5.4.
    func authenticate(_ client: Application, form: FormBody, request: Request, selector: TenantSelector)
        async throws(EntraError) -> ClientCredentialKind?
    {
        let secret = form.nonEmpty("client_secret") ?? Self.basicCredentials(request)?.secret
        let assertion = form.nonEmpty("client_assertion")
        let assertionType = form.nonEmpty("client_assertion_type")
        guard client.isConfidential else {
            if secret != nil || assertion != nil { throw .publicClientSentSecret }
            return nil
        }
        if assertion != nil || assertionType != nil {
            guard let assertionType else { throw .missingParameter("client_assertion_type") }
            guard assertionType == Self.assertionType else { throw .unexpectedAssertionType }
            guard let assertion else { throw .missingParameter("client_assertion") }
            return try await validate(ClientAssertion(assertion), client: client, request: request, selector: selector)
        }
        guard let secret else { throw .secretRequired }
        guard let expected = client.secret, !expected.isEmpty, SecretComparison.matches(secret, expected) else {
            throw .invalidSecret
        }
        return .secret
    }

    /// `Authorization: Basic base64(urlencode(id):urlencode(secret))`.
    static func basicCredentials(_ request: Request) -> (id: String, secret: String)? {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6))), let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":")
        else { return nil }
        let decode = { (s: Substring) in s.removingPercentEncoding ?? String(s) }
        return (decode(text[..<colon]), decode(text[text.index(after: colon)...]))
    }

    /// The checks of `server-side.md` §1.5, in its order. An assertion whose `iss` is not the client id
    /// is a federated one when the app has federated credentials.
    private func validate(_ assertion: ClientAssertion, client: Application, request: Request, selector: TenantSelector)
        async throws(EntraError) -> ClientCredentialKind
    {
        guard ClientAssertion.algorithms.contains(assertion.algorithm) else {
            throw .unsupportedAssertionAlgorithm(assertion.algorithm)
        }
        if let issuer = assertion.string("iss"), issuer.lowercased() != client.clientId.lowercased(),
            !client.federatedCredentials.isEmpty
        {
            try await FederatedAssertion(core: core).validate(assertion, issuer: issuer, client: client)
            return .federated
        }
        let sha256 = assertion.thumbprint("x5t#S256")
        let sha1 = assertion.thumbprint("x5t")
        let keyID = assertion.keyID
        guard assertion.header["x5t#S256"] != nil || assertion.header["x5t"] != nil || keyID != nil else {
            throw .noAssertionKeySelector
        }
        let shown = sha1.map(ClientAssertion.hex) ?? sha256.map(ClientAssertion.hex) ?? keyID ?? ""
        guard
            let key = core.state.index.keys(of: client.clientId).first(where: {
                $0.matches(sha256: sha256, sha1: sha1, keyID: keyID)
            })
        else { throw .assertionKeyNotFound(thumbprint: shown, clientID: client.clientId) }
        guard let issuer = assertion.string("iss") else { throw .missingAssertionClaim("iss") }
        guard let subject = assertion.string("sub") else { throw .missingAssertionClaim("sub") }
        guard issuer.lowercased() == client.clientId.lowercased() else { throw .assertionClientMismatch }
        guard subject == issuer else { throw .assertionSubjectMismatchesIssuer }
        let audiences = assertion.audiences
        guard !audiences.isEmpty else { throw .missingAssertionClaim("aud") }
        guard audiences.contains(where: { isTokenEndpoint($0, of: selector) }) else { throw .assertionAudienceMismatch }
        guard assertion.verifies(with: key.publicKey) else { throw .badAssertionSignature(thumbprint: shown) }
        let expires = try assertion.checkTimeRange(now: core.state.now, skew: Self.clockSkew)
        try await remember(assertion, issuer: issuer, expires: expires)
        return .certificate
    }

    /// Refuses a different assertion that reuses a `jti`; the same assertion again is fine (§1.2).
    func remember(_ assertion: ClientAssertion, issuer: String, expires: Date) async throws(EntraError) {
        guard let jti = assertion.string("jti") else { return }
        guard await core.state.recordAssertion(issuer: issuer, jti: jti, digest: assertion.digest, expiresAt: expires)
        else { throw .assertionIdentifierReused }
    }

    /// True when `audience` is this tenant's token endpoint on one of the emulator's names, the tenant by
    /// GUID or domain (`https://127.0.0.1:8400/{tenant}/oauth2/v2.0/token`).
    private func isTokenEndpoint(_ audience: String, of selector: TenantSelector) -> Bool {
        guard let url = URL(string: audience), let host = url.host, ["http", "https"].contains(url.scheme ?? ""),
            core.address.accepts(authority: ServedAddress.bracketed(host) + (url.port.map { ":\($0)" } ?? ""))
        else { return false }
        let parts = url.path.split(separator: "/").map { $0.lowercased() }
        guard parts.count == 4, Array(parts[1...]) == ["oauth2", "v2.0", "token"] else { return false }
        switch selector {
        case .tenant(let tenant): return [tenant.id.lowercased(), tenant.domain.lowercased()].contains(parts[0])
        case .multiTenant(let alias): return parts[0] == alias
        case .consumers: return ["consumers", DirectoryIndex.consumersTenantID].contains(parts[0])
        }
    }
}
