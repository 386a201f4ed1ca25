import Foundation
import Hummingbird

/// App Service (`api-version=2019-08-01`, `X-IDENTITY-HEADER`, `client_id`/`object_id`/`mi_res_id`) and Azure
/// Machine Learning (`api-version=2017-09-01`, `secret`, `clientid`): `expires_on` is epoch seconds as a string;
/// errors are `{"statusCode", "message", "correlationId"}`, and an unknown resource is App Service's vague 500.
struct AppServiceShape: Sendable {
    let issuer: ManagedIdentityIssuer

    func respond(_ request: Request, host: AzureHost) async -> Response {
        let machineLearning = host.kind == .machineLearning
        let secret = machineLearning ? request.headers[.secret] : request.headers[.identityHeader]
        guard SecretComparison.matches(secret, host.secret) else {
            let header = machineLearning ? "secret" : "X-IDENTITY-HEADER"
            return error(.unauthorized, "The request's \(header) header is missing or wrong.")
        }
        let query = HTTPExchange.query(request)
        let version = machineLearning ? "2017-09-01" : "2019-08-01"
        guard query["api-version"] == version else {
            return error(
                .badRequest, "The api-version '\(query["api-version"] ?? "")' is not supported; use \(version).")
        }
        guard
            let selector = ManagedIdentityRoutes.selector(
                query, clientID: machineLearning ? "clientid" : "client_id", objectID: "object_id",
                resourceIDs: machineLearning ? ["msi_res_id"] : ["mi_res_id", "msi_res_id"])
        else { return error(.badRequest, "Only one of client_id, object_id and mi_res_id may be given.") }
        let minted: ManagedIdentityIssuer.Minted
        do {
            // A `clientid` naming the system-assigned identity (Machine Learning's DEFAULT_IDENTITY_CLIENT_ID) finds it
            // among the host's identities like any other.
            let identity = try issuer.identity(on: host, selector)
            minted = try issuer.mint(identity, for: try issuer.resource(query["resource"]))
        } catch ManagedIdentityIssuer.Failure.identityNotFound {
            return error(.badRequest, "No managed identity found for the specified ClientId/ResourceId/PrincipalId.")
        } catch ManagedIdentityIssuer.Failure.missingResource {
            return error(.badRequest, "The resource parameter is required.")
        } catch {
            return self.error(.internalServerError, "An unexpected error occured while fetching the AAD Token.")
        }
        return HTTPExchange.json(
            .object([
                ("access_token", .string(minted.token)), ("expires_on", .string(String(minted.expiresOn))),
                ("resource", .string(query["resource"] ?? "")), ("token_type", .string("Bearer")),
                ("client_id", .string(minted.identity?.clientId ?? "")),
            ]))
    }

    private func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        HTTPExchange.json(
            .object([
                ("statusCode", .int(Int(status.code))), ("message", .string(message)),
                ("correlationId", .string(GUIDText.random())),
            ]), status: status)
    }
}
