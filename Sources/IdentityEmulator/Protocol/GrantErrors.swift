import Foundation

/// The errors of the client-credentials and on-behalf-of grants (`server-side.md` §2.2 and §4.3).
extension EntraError {
    static func defaultRequiredForClientCredentials(_ scope: String) -> EntraError {
        EntraError(
            error: "invalid_scope", code: 1_002_012,
            message:
                "The provided value for scope \(scope) is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI)."
        )
    }

    static func multipleResourcesForClientCredentials(_ scope: String) -> EntraError {
        EntraError(
            error: "invalid_scope", code: 700022,
            message:
                "The provided value for the input parameter scope is not valid because it contains more than one resource. The scope \(scope) is not valid."
        )
    }

    static func resourceNotFound(_ resource: String, tenantName: String) -> EntraError {
        EntraError(
            error: "invalid_resource", code: 500011,
            message:
                "The resource principal named \(resource) was not found in the tenant named \(tenantName). This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You might have sent your authentication request to the wrong tenant."
        )
    }

    static let grantNotSupportedOverCommon = EntraError(
        error: "invalid_request", code: 9_001_023,
        message: "The grant type isn't supported over the /common or /consumers endpoints.")

    /// The on-behalf-of assertion is not signed by the emulator's key.
    static func assertionSignature(reason: String, keyID: String) -> EntraError {
        EntraError(
            error: "invalid_grant", code: 50013,
            message:
                "Assertion failed signature validation. [Reason - \(reason), Thumbprint of key used by client: '\(keyID)']"
        )
    }

    static let idTokenAsAssertion = EntraError(
        error: "invalid_grant", code: 240002,
        message: "The id_token can't be used as urn:ietf:params:oauth:grant-type:jwt-bearer grant.")

    static func assertionExpired(now: Date, expires: Date) -> EntraError {
        EntraError(
            error: "invalid_grant", code: 500133,
            message:
                "Assertion isn't within its valid time range. Ensure that the access token isn't expired before using it for user assertion, or request a new token. Current time: \(now.assertionTimestamp), expiry time of assertion \(expires.assertionTimestamp)."
        )
    }

    static func assertionAudience(_ audience: String, client: Application) -> EntraError {
        EntraError(
            error: "invalid_grant", code: 500131,
            message:
                "Assertion audience does not match the Client app presenting the assertion. The audience in the assertion was '\(audience)' and the expected audience is '\(client.clientId)' or one of the Application Uris of this application with App ID '\(client.clientId)'(\(client.displayName)). The downstream client must request a token for the expected audience (the application that made the OBO request) and this application should use that token as the assertion."
        )
    }

    static func applicationOnBehalfOf(_ clientID: String) -> EntraError {
        EntraError(
            error: "invalid_grant", code: 7_000_114,
            message: "Application '\(clientID)' isn't allowed to make application on-behalf-of calls.")
    }

    /// The policy id of the emulator's multifactor conditional-access challenge.
    static let multifactorPolicyID = "9ab03e19-ed42-4168-b6b7-7001fb3e933a"

    /// The password grant for a user who must pass MFA, which the grant cannot do: `invalid_grant` AADSTS50076
    /// with `suberror` `basic_action`, as Entra answers it.
    static func multifactorRequiredForPassword(resource: String) -> EntraError {
        EntraError(
            error: "invalid_grant", code: 50076,
            message:
                "Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access '\(resource)'.",
            suberror: "basic_action")
    }

    /// The password grant for a user of a federated domain: Entra holds no password to check (it would ask the
    /// organisation's identity provider over WS-Trust), so it answers as for a wrong password, AADSTS50126.
    static let federatedPassword = EntraError.badCredentials

    /// Conditional access demands MFA enrollment: `interaction_required` with a claims challenge (a JSON string).
    static func multifactorRequired(resource: String) -> EntraError {
        EntraError(
            error: "interaction_required", code: 50079,
            message:
                "Due to a configuration change made by your administrator, or because you moved to a new location, you must enroll in multifactor authentication to access '\(resource)'.",
            claims: #"{"access_token":{"polids":{"essential":true,"values":["\#(multifactorPolicyID)"]}}}"#)
    }
}
