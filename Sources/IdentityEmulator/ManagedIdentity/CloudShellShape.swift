import Foundation
import Hummingbird

/// Cloud Shell (`POST` with a form `resource`, `Metadata: true`): the token of the user signed in to the portal,
/// every value a string; errors are `{"error": {"code", "message"}}`, an unknown resource `AudienceNotSupported`.
struct CloudShellShape: Sendable {
    let issuer: ManagedIdentityIssuer

    func respond(_ request: Request, context: EmulatorRequestContext, host: AzureHost) async -> Response {
        guard request.headers[.metadata]?.lowercased() == "true" else {
            return error(.badRequest, "BadRequest", "Required metadata header not specified")
        }
        guard let form = try? await HTTPExchange.form(request, context: context), let name = form["resource"],
            !name.isEmpty
        else { return error(.badRequest, "BadRequest", "The resource parameter is required.") }
        let minted: ManagedIdentityIssuer.Minted
        do {
            guard let token = try issuer.mintForUser(of: host, for: try issuer.resource(name)) else {
                return error(.unauthorized, "Unauthorized", "No user is signed in to this Cloud Shell.")
            }
            minted = token
        } catch ManagedIdentityIssuer.Failure.unknownResource {
            let audiences = issuer.core.state.index.applications.compactMap(\.identifierUri)
            return error(
                .badRequest, "AudienceNotSupported",
                "Audience \(name) is not a supported MSI token audience.Supported audiences:\(audiences.map { $0 + "/" }.joined(separator: ","))"
            )
        } catch {
            return self.error(.internalServerError, "InternalServerError", "An internal error occurred.")
        }
        return HTTPExchange.json(
            .object([
                ("access_token", .string(minted.token)), ("refresh_token", .string("")),
                ("expires_in", .string(String(minted.lifetime))), ("expires_on", .string(String(minted.expiresOn))),
                ("not_before", .string(String(minted.now.epochSeconds))), ("resource", .string(name)),
                ("token_type", .string("Bearer")),
            ]))
    }

    private func error(_ status: HTTPResponse.Status, _ code: String, _ message: String) -> Response {
        HTTPExchange.json(
            .object([("error", .object([("code", .string(code)), ("message", .string(message))]))]), status: status)
    }
}
