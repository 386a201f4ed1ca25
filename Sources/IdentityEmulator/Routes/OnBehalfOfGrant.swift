import Foundation
import Hummingbird

/// The on-behalf-of grant (`server-side.md` §4): a middle-tier API trades the user's access token it
/// received for a token to a downstream resource, as that user, with itself as the client.
///
/// The assertion must be an access token the emulator signed, unexpired, for the middle tier (its client
/// id or identifier URI), delegated (not app-only, not an ID token), for a user whose sessions were not
/// revoked since; the downstream scopes must be consented for the middle tier by the user or an admin.
struct OnBehalfOfGrant: Sendable {
    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    let core: EmulatorCore
    let minting: TokenMinting

    /// - Throws: ``EntraError``: AADSTS50013 (signature), 240002 (an ID token), 500133 (expired), 500131
    ///   (another audience), 7000114 (app-only), 50173 (revoked), 65001 `consent_required`, and the
    ///   errors of ``TokenMinting/userTokens(_:membership:scopes:nonce:claims:firstResourceOnly:)``.
    func token(_ c: GrantContext) async throws(EntraError) -> Response {
        guard let use = c.form.nonEmpty("requested_token_use") else {
            throw .missingParameter("requested_token_use")
        }
        guard use == "on_behalf_of" else { throw .unsupportedGrantType }
        guard c.credential != nil else { throw .secretRequired }
        guard let assertion = c.form.nonEmpty("assertion") else { throw .missingParameter("assertion") }
        guard let rawScope = c.form.nonEmpty("scope") else { throw .missingParameter("scope") }
        let claims = try verified(assertion)
        let now = core.state.now
        let hasScp = !(claims["scp"]?.stringValue ?? "").isEmpty
        let isApp = claims["idtyp"]?.stringValue == "app" || claims["roles"] != nil
        if !hasScp, !isApp { throw .idTokenAsAssertion }
        let expires = Date(timeIntervalSince1970: TimeInterval(claims["exp"]?.intValue ?? 0))
        guard expires > now else { throw .assertionExpired(now: now, expires: expires) }
        let audience = claims["aud"]?.stringValue ?? ""
        let own = [c.client.clientId, c.client.identifierUri].compactMap { $0?.lowercased() }
        guard own.contains(audience.lowercased()) else { throw .assertionAudience(audience, client: c.client) }
        guard hasScp, !isApp else { throw .applicationOnBehalfOf(c.client.clientId) }
        guard let objectID = claims["oid"]?.stringValue, let tid = claims["tid"]?.stringValue,
            let user = c.index.user(objectID: objectID)
        else { throw .malformedGrant }
        let issued = Date(timeIntervalSince1970: TimeInterval(claims["iat"]?.intValue ?? 0))
        if let revoked = await core.state.revocationTime(userID: user.id), issued < revoked {
            throw .revoked(issued: issued, validFrom: revoked)
        }
        let tenantID: String
        if case .tenant(let t) = c.selector { tenantID = t.id } else { tenantID = tid }
        guard let membership = c.index.membership(of: user, tenantID: tenantID) else {
            throw .notInTenant(c.index.tenant(id: tenantID)?.domain ?? tenantID)
        }
        let scopes = try ScopeSet(parsing: rawScope, index: c.index)
        return try await minting.userTokens(c, membership: membership, scopes: scopes, nonce: nil)
    }

    /// The claims of an assertion signed with the emulator's key.
    ///
    /// - Throws: AADSTS50027 for what is not a JWT, 50013 for a foreign key or a bad signature.
    private func verified(_ assertion: String) throws(EntraError) -> JSONValue {
        let header = (try? ClientAssertion(assertion))?.header
        guard let header else { throw .malformedAssertion }
        let keyID = header["kid"]?.stringValue ?? header["x5t"]?.stringValue ?? ""
        guard let key = core.keys.key(kid: keyID) else {
            throw .assertionSignature(reason: "The key was not found.", keyID: keyID)
        }
        guard let claims = try? JWT.verify(assertion, with: key) else {
            throw .assertionSignature(
                reason: "The provided signature value did not match the expected signature value.", keyID: keyID)
        }
        return claims
    }
}
