import Foundation
import Hummingbird

/// What Resource Manager accepts: a token the emulator signed, unexpired, for Resource Manager by either of its
/// application id URIs or its client id; refused with Resource Manager's codes and a `WWW-Authenticate` challenge.
struct ResourceManagerAuthentication: Sendable {
    let core: EmulatorCore

    /// The token's claims.
    ///
    /// - Throws: ``ResourceManagerError`` 401: `AuthenticationFailed` (no token), `InvalidAuthenticationToken`
    ///   (not a token the emulator signed), `ExpiredAuthenticationToken`, `InvalidAuthenticationTokenAudience`.
    func claims(of request: Request, index: DirectoryIndex) throws(ResourceManagerError) -> JSONValue {
        let arm =
            index.application(clientID: FirstPartyApplications.azureResourceManager.clientId)
            ?? FirstPartyApplications.azureResourceManager
        let audiences = index.audiences(of: arm)
        switch BearerValidator(keys: core.keys).validate(request, audiences: audiences, now: core.state.now) {
        case .success(let claims): return claims
        case .failure(let failure):
            let (code, message) =
                switch failure {
                case .missing: ("AuthenticationFailed", "Authentication failed. The 'Authorization' header is missing.")
                case .notAJWT, .invalid: ("InvalidAuthenticationToken", "The access token is invalid.")
                case .expired:
                    ("ExpiredAuthenticationToken", "The access token expiry UTC time is earlier than current UTC time.")
                case .wrongAudience:
                    (
                        "InvalidAuthenticationTokenAudience",
                        "The access token has been obtained for wrong audience or resource. It should exactly match with one of the allowed audiences \(audiences.filter { $0.hasPrefix("https://") }.sorted().map { "'\($0)'" }.joined(separator: ","))."
                    )
                }
            throw ResourceManagerError(
                .unauthorized, code, message,
                wwwAuthenticate: Self.challenge(origin: core.origin(of: request), description: message))
        }
    }

    /// A token of another tenant than the subscription's: 401 `InvalidAuthenticationTokenTenant`, naming the
    /// authority to ask instead.
    static func wrongTenant(tokenTenant: String, subscriptionTenant: String, origin: String) -> ResourceManagerError {
        let message =
            "The access token is from the wrong issuer 'https://sts.windows.net/\(tokenTenant)/'. It must match the tenant 'https://sts.windows.net/\(subscriptionTenant)/' associated with this subscription. Please use the authority (URL) '\(origin)/\(subscriptionTenant)' to get the token. Note, if the subscription is transferred to another tenant there is no impact to the services, but information about new tenant could take time to propagate (up to an hour). If you just transferred your subscription and see this error message, please try back later."
        return ResourceManagerError(
            .unauthorized, "InvalidAuthenticationTokenTenant", message,
            wwwAuthenticate: challenge(origin: origin, description: message))
    }

    /// `Bearer authorization_uri="{origin}/", error="invalid_token", error_description="…"`.
    static func challenge(origin: String, description: String) -> String {
        #"Bearer authorization_uri="\#(origin)/", error="invalid_token", error_description="\#(description)""#
    }
}
