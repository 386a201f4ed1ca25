import Foundation

/// Workload identity federation: an external token presented as a client assertion, matched against the
/// app's federated credentials (`server-side.md` §5.3).
///
/// `iss`, `sub` and `aud` must equal one credential's issuer, subject and audience, case-sensitively.
/// The signature is checked with the issuer's keys; offline, only the built-in workload issuer's can be
/// fetched, so a token of any other issuer gets AADSTS50166, as when Entra cannot reach an issuer.
struct FederatedAssertion: Sendable {
    let core: EmulatorCore

    /// - Throws: ``EntraError``: AADSTS700211 (issuer), 700213 (subject), 700212 (audience), 90014 (a missing
    ///   claim), 50166 (keys not reachable), 700027 (signature), 700024 (time range).
    func validate(_ assertion: ClientAssertion, issuer: String, client: Application) async throws(EntraError) {
        let origin = core.issuerOrigin
        let byIssuer = client.federatedCredentials.filter { $0.expandedIssuer(origin: origin) == issuer }
        guard !byIssuer.isEmpty else { throw .noFederatedIssuer(issuer) }
        guard let subject = assertion.string("sub") else { throw .missingAssertionClaim("sub") }
        let bySubject = byIssuer.filter { $0.subject == subject }
        guard !bySubject.isEmpty else { throw .noFederatedSubject(subject) }
        let audiences = assertion.audiences
        guard !audiences.isEmpty else { throw .missingAssertionClaim("aud") }
        guard bySubject.contains(where: { credential in credential.audiences.contains { audiences.contains($0) } })
        else { throw .noFederatedAudience(audiences.joined(separator: " ")) }
        guard issuer == WorkloadIssuer.issuer(origin: origin), let key = try? core.workload.signingKey() else {
            throw .externalOIDCEndpointFailed
        }
        guard assertion.algorithm == "RS256", assertion.keyID == key.kid,
            assertion.verifies(with: key.privateKey.publicKey)
        else { throw .badFederatedSignature(keyID: assertion.keyID ?? "") }
        let expires = try assertion.checkTimeRange(now: core.state.now, skew: ClientAuthentication.clockSkew)
        try await ClientAuthentication(core: core).remember(assertion, issuer: issuer, expires: expires)
    }
}
