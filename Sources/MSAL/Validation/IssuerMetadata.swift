import Foundation
import OutsideJSON

/// What validating an authority's access tokens needs from its OpenID configuration: the issuer and where its signing
/// keys are. Nothing else is required of the document, so any OpenID provider's will do.
struct IssuerMetadata: Sendable {
    /// `issuer`; a multi-tenant authority's has `{tenantid}` in it.
    let issuer: String
    /// `jwks_uri`.
    let jwksURI: URL

    /// Reads `document`, the OpenID configuration of `authority`.
    ///
    /// - Throws: ``MSALError`` `invalidResponse` when it is not a JSON object within ``JSONLimits/message`` or lacks
    ///   `issuer` or `jwks_uri`.
    init(document: Data, authority: Authority) throws {
        let location = authority.discoveryURL.absoluteString
        let members = try JSONLimits.message.members(document) { "The OpenID configuration at \(location) \($0)." }
        guard let metadata = Self(configuration: members) else {
            throw MSALError.internal(
                .invalidResponse, "The OpenID configuration at \(location) has no issuer or jwks_uri.")
        }
        self = metadata
    }

    /// `issuer` and `jwks_uri` of an OpenID configuration's members, or `nil` when either is missing (or the
    /// `jwks_uri` is not a URL). An authority's endpoints (``AuthorityEndpoints``) read them here too.
    init?(configuration members: [String: CacheValue]) {
        guard case .string(let issuer)? = members["issuer"], case .string(let jwks)? = members["jwks_uri"],
            let jwksURI = URL(string: jwks)
        else { return nil }
        self.issuer = issuer
        self.jwksURI = jwksURI
    }
}
