import Foundation
import Hummingbird

/// Service Fabric (`api-version=2019-07-01-preview` or MSAL.NET's `2020-05-01`, the `Secret` header, no
/// user-assigned identities): `expires_on` is a number; errors are `{"error": {"correlationId", "code", "message"}}`.
/// Clients reach it over HTTPS and pin the emulator's certificate by its thumbprint.
struct ServiceFabricShape: Sendable {
    let issuer: ManagedIdentityIssuer

    func respond(_ request: Request, host: AzureHost) async -> Response {
        guard let secret = request.headers[.secret] else {
            return error(.unauthorized, "SecretHeaderNotFound", "Secret is not found in the request headers.")
        }
        guard SecretComparison.matches(secret, host.secret) else {
            return error(
                .notFound, "ManagedIdentityNotFound", "Managed identity not found for the specified application host.")
        }
        let query = HTTPExchange.query(request)
        let version = query["api-version"] ?? ""
        guard ["2019-07-01-preview", "2020-05-01"].contains(version) else {
            return error(
                .badRequest, "InvalidApiVersion",
                "The api-version '\(version)' is not supported. Supported version is '2019-07-01-preview'.")
        }
        let minted: ManagedIdentityIssuer.Minted
        do {
            let identity = try issuer.identity(on: host, .systemAssigned)
            minted = try issuer.mint(identity, for: try issuer.resource(query["resource"]))
        } catch ManagedIdentityIssuer.Failure.missingResource {
            return error(
                .badRequest, "ArgumentNullOrEmpty", "The parameter 'resource' should not be null or empty string.")
        } catch ManagedIdentityIssuer.Failure.identityNotFound {
            return error(
                .notFound, "ManagedIdentityNotFound", "Managed identity not found for the specified application host.")
        } catch ManagedIdentityIssuer.Failure.unknownResource(let name) {
            return error(
                .badRequest, "InvalidResource", "AADSTS500011: The resource principal named \(name) was not found.")
        } catch {
            return self.error(.internalServerError, "InternalServerError", "An internal error occurred.")
        }
        return HTTPExchange.json(
            .object([
                ("token_type", .string("Bearer")), ("access_token", .string(minted.token)),
                ("expires_on", .int(minted.expiresOn)), ("resource", .string(query["resource"] ?? "")),
            ]))
    }

    private func error(_ status: HTTPResponse.Status, _ code: String, _ message: String) -> Response {
        HTTPExchange.json(
            .object([
                (
                    "error",
                    .object([
                        ("correlationId", .string(GUIDText.random())), ("code", .string(code)),
                        ("message", .string(message)),
                    ])
                )
            ]), status: status)
    }
}
