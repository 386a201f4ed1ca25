import Foundation
import Hummingbird

/// IMDS (`api-version=2018-02-01`, `Metadata: true`, `client_id`/`object_id`/`msi_res_id`) and the Azure Arc agent,
/// which answers like IMDS once the caller has answered its key-file challenge. Every value of a token response is
/// a string; errors are OAuth-shaped.
struct ImdsShape: Sendable {
    let issuer: ManagedIdentityIssuer
    var arc = false

    func respond(_ request: Request, host: AzureHost) async -> Response {
        guard request.headers[.metadata]?.lowercased() == "true" else {
            return error(.badRequest, "bad_request_102", "Required metadata header not specified")
        }
        let query = HTTPExchange.query(request)
        let versions = arc ? ["2020-06-01", "2019-11-01"] : ["2018-02-01", "2019-08-01", "2021-02-01", "2025-04-07"]
        guard let version = query["api-version"] else {
            return error(.badRequest, "invalid_request", "Required query variable 'api-version' is missing")
        }
        guard versions.contains(version) else {
            return error(.badRequest, "invalid_request", "Unsupported api-version '\(version)'")
        }
        if arc, let refused = challenge(request, host: host) { return refused }
        guard
            let selector = ManagedIdentityRoutes.selector(
                query, clientID: "client_id", objectID: "object_id", resourceIDs: ["msi_res_id", "mi_res_id"])
        else { return error(.badRequest, "invalid_request", "Multiple identities specified") }
        let minted: ManagedIdentityIssuer.Minted
        do {
            let identity = try issuer.identity(on: host, selector)
            minted = try issuer.mint(identity, for: try issuer.resource(query["resource"]))
        } catch let failure as ManagedIdentityIssuer.Failure {
            return self.failure(failure)
        } catch {
            return self.error(.internalServerError, "unknown", "Failed to retrieve token from the Active directory")
        }
        var body: [(String, JSONValue)] = [
            ("access_token", .string(minted.token)), ("refresh_token", .string("")),
            ("expires_in", .string(String(minted.lifetime))), ("expires_on", .string(String(minted.expiresOn))),
            ("ext_expires_in", .string(String(minted.lifetime))),
            ("not_before", .string(String(minted.now.epochSeconds))), ("resource", .string(query["resource"] ?? "")),
            ("token_type", .string("Bearer")), ("client_id", .string(minted.identity?.clientId ?? "")),
        ]
        if arc, !selector.isSystemAssigned, let identity = minted.identity {
            // The agent echoes the identity it served, which MSAL Python and Go check for a user-assigned one.
            body += [("object_id", .string(identity.objectId)), ("msi_res_id", .string(identity.resourceId))]
        }
        return HTTPExchange.json(.object(body))
    }

    /// Arc's challenge: no `Authorization` gets a 401 naming a new key file; a wrong or used key gets one too.
    private func challenge(_ request: Request, host: AzureHost) -> Response? {
        let now = issuer.core.state.now
        if let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("basic "),
            issuer.core.arcKeys.redeem(String(authorization.dropFirst("basic ".count)), host: host.name, now: now)
        {
            return nil
        }
        let file: URL
        do {
            file = try issuer.core.arcKeys.challenge(for: host.name, key: issuer.core.state.opaque(32), now: now)
        } catch {
            return self.error(.internalServerError, "unknown", "The agent cannot write its key file: \(error)")
        }
        var response = self.error(
            .unauthorized, "unauthorized_client",
            request.headers[.authorization] == nil
                ? "Authorization header is missing" : "The key in the Authorization header is not valid")
        response.headers[.wwwAuthenticate] = "Basic realm=\(file.path)"
        return response
    }

    private func failure(_ failure: ManagedIdentityIssuer.Failure) -> Response {
        switch failure {
        case .missingResource:
            return error(.badRequest, "invalid_request", "Required query variable 'resource' is missing")
        case .identityNotFound:
            return error(.badRequest, "invalid_request", "Identity not found")
        case .unknownResource(let name):
            let traceID = issuer.core.traceID()
            let tenant = issuer.core.state.index.directory.managedIdentities.first?.tenant ?? ""
            let body: JSONValue = .object([
                ("error", .string("invalid_resource")),
                (
                    "error_description",
                    .string(
                        "AADSTS500011: The resource principal named \(name) was not found in the tenant named \(tenant). This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You might have sent your authentication request to the wrong tenant.\r\nTrace ID: \(traceID)\r\nCorrelation ID: \(GUIDText.random())\r\nTimestamp: \(Self.timestamp(issuer.core.state.now))"
                    )
                ),
                ("error_codes", .array([.int(500011)])), ("timestamp", .string(Self.timestamp(issuer.core.state.now))),
                ("trace_id", .string(traceID)), ("correlation_id", .string(GUIDText.random())),
                ("error_uri", .string("https://login.microsoftonline.com/error?code=500011")),
            ])
            return HTTPExchange.json(body, status: .badRequest)
        }
    }

    private func error(_ status: HTTPResponse.Status, _ code: String, _ description: String) -> Response {
        HTTPExchange.json(
            .object([("error", .string(code)), ("error_description", .string(description))]), status: status)
    }

    private static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date).replacingOccurrences(of: "T", with: " ")
    }
}
