import Foundation
import Locking

/// Turns a ``ClientCredential`` into the form fields that authenticate the client (`client_secret`, or
/// `client_assertion_type` and `client_assertion`). Signed assertions are kept per token endpoint and
/// reused until ``reuseMargin`` before they expire, as MSAL Python does, rather than signed per request.
final class ClientAuthenticator: Sendable {
    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// How long a signed assertion is valid (Entra: "5–10 minutes after nbf at most").
    static let assertionLifetime: TimeInterval = 600
    /// A signed assertion is signed again when less than this is left.
    static let reuseMargin: TimeInterval = 60

    let clientID: String
    let credential: ClientCredential
    let clock: any TimeSource
    let random: any RandomSource
    private let signed = Locked<[String: (assertion: String, expiresOn: Date)]>([:])

    init(clientID: String, credential: ClientCredential, clock: any TimeSource, random: any RandomSource) {
        self.clientID = clientID
        self.credential = credential
        self.clock = clock
        self.random = random
    }

    /// The fields to add to a request for `tokenEndpoint`.
    ///
    /// - Throws: ``MSALError`` when the assertion cannot be signed or provided; `CancellationError`.
    func formFields(tokenEndpoint: URL) async throws -> [(String, String)] {
        switch credential.kind {
        case .secret(let secret):
            return [("client_secret", secret)]
        case .certificate(let certificate, let sendX5C):
            return [
                ("client_assertion_type", Self.assertionType),
                ("client_assertion", try assertion(certificate, sendX5C: sendX5C, audience: tokenEndpoint)),
            ]
        case .assertion(let provide):
            try Task.checkCancellation()
            let assertion = try await provide(ClientAssertionRequest(clientID: clientID, tokenEndpoint: tokenEndpoint))
            return [("client_assertion_type", Self.assertionType), ("client_assertion", assertion)]
        }
    }

    /// `true` for certificate and assertion credentials, whose tokens carry `appidacr`/`azpacr` 2.
    var usesAssertion: Bool {
        if case .secret = credential.kind { return false }
        return true
    }

    private func assertion(_ certificate: ClientCertificate, sendX5C: Bool, audience: URL) throws -> String {
        let now = clock.now()
        let key = audience.absoluteString
        if let kept = signed.withLock({ $0[key] }), kept.expiresOn.timeIntervalSince(now) > Self.reuseMargin {
            return kept.assertion
        }
        let assertion = try ClientAssertion(
            certificate: certificate, sendX5C: sendX5C, clientID: clientID, audience: key,
            id: UUIDText.random(random), issuedAt: now, lifetime: Self.assertionLifetime
        ).signed()
        signed.withLock { $0[key] = (assertion, now.addingTimeInterval(Self.assertionLifetime)) }
        return assertion
    }
}
