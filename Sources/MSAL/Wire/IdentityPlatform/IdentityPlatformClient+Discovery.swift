import Foundation

extension IdentityPlatformClient {
    /// The authority's OpenID configuration document, as the bytes the metadata file keeps.
    ///
    /// - Throws: ``MSALError`` `failedAuthorityValidation` for any answer but 200 (an unknown tenant is a
    ///   400 `invalid_tenant`), transport errors.
    func openIDConfiguration(_ authority: Authority) async throws -> Data {
        let (response, body) = try await get(authority.discoveryURL, correlationID: correlationIDs.next())
        guard response.status == .ok else {
            let oauth = OAuthErrorResponse(json: body)
            let answer = oauth?.firstSentence ?? "HTTP \(response.status.code)"
            let message =
                oauth?.error == "invalid_tenant"
                ? "The tenant \(authority.tenant) is not known at \(DefaultHTTPTransport.hostAndPort(authority.url)) "
                    + "(\(answer)); check the tenant in the authority \(authority)."
                : "The OpenID configuration of \(authority) could not be fetched (\(answer)); check the authority."
            throw MSALError(
                .failedAuthorityValidation, message, oauthError: oauth?.error, stsErrorCodes: oauth?.errorCodes ?? [],
                httpStatus: response.status.code)
        }
        return body
    }

    /// Instance discovery for an Entra authority.
    ///
    /// - Throws: ``MSALError`` `failedAuthorityValidation` when the host is not an instance, transport errors.
    func instanceDiscovery(_ request: InstanceDiscoveryRequest) async throws -> InstanceDiscoveryResponse {
        let (response, body) = try await get(request.url, correlationID: correlationIDs.next())
        guard response.status == .ok else {
            throw MSALError(
                .failedAuthorityValidation, "\(request.authority) is not a known Microsoft identity platform instance.",
                oauthError: OAuthErrorResponse(json: body)?.error, httpStatus: response.status.code)
        }
        return try InstanceDiscoveryResponse(json: body, authority: request.authority)
    }

    /// An issuer's signing keys.
    ///
    /// - Throws: ``MSALError`` `invalidResponse` when they cannot be read, transport errors.
    func signingKeys(_ jwksURI: URL) async throws -> JSONWebKeySet {
        let (response, body) = try await get(jwksURI, correlationID: correlationIDs.next())
        guard response.status == .ok else {
            throw MSALError.internal(
                .invalidResponse,
                "The signing keys at \(jwksURI.absoluteString) could not be read (HTTP \(response.status.code)).")
        }
        return try JSONWebKeySet(json: body, uri: jwksURI)
    }
}
