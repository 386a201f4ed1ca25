import Foundation
import Hummingbird

/// The two protected sample APIs of the External ID tutorials: `GET /api1/todolist` and
/// `GET /api2/todolist` (the first and second non-Graph APIs of the directory), and
/// `GET /apis/{clientId}/todolist` for any API.
struct SampleAPIRoutes: Sendable {
    let core: EmulatorCore

    func register(on router: Router<EmulatorRequestContext>) {
        router.get("api1/todolist") { request, _ in await todoList(request, api: apiByPosition(0)) }
        router.get("api2/todolist") { request, _ in await todoList(request, api: apiByPosition(1)) }
        router.get("apis/:client/todolist") { request, context in
            await todoList(request, api: core.state.index.api(identifier: context.parameters.get("client") ?? ""))
        }
    }

    private func apiByPosition(_ position: Int) async -> Application? {
        let apis = core.state.index.directory.applications.filter {
            $0.kind == .api && $0.identifierUri?.lowercased() != "https://graph.microsoft.com"
        }
        return apis.indices.contains(position) ? apis[position] : nil
    }

    func todoList(_ request: Request, api: Application?) async -> Response {
        guard let api else {
            return HTTPExchange.json(.object([("error", .string("not_found"))]), status: .notFound)
        }
        let now = core.state.now
        let validation = BearerValidator(keys: core.keys).validate(
            request, audiences: [api.clientId.lowercased(), (api.identifierUri ?? "").lowercased()], now: now)
        guard case .success(let claims) = validation else {
            var headers = HTTPFields()
            headers[.wwwAuthenticate] =
                #"Bearer error="invalid_token", error_description="The access token is missing, invalid, expired or for another audience""#
            return HTTPExchange.json(
                .object([("error", .string("invalid_token"))]), status: .unauthorized, headers: headers)
        }
        let scopes = BearerValidator.scopes(claims)
        let roles: [String] = if case .array(let r)? = claims["roles"] { r.compactMap(\.stringValue) } else { [] }
        let isAppOnly = claims["idtyp"]?.stringValue == "app" || (scopes.isEmpty && claims["roles"] != nil)
        // A user token needs one of the API's scopes; an app-only token one of its application roles.
        let allowed =
            isAppOnly
            ? roles.contains { role in api.appRoles.contains { $0.lowercased() == role.lowercased() } }
            : api.scopes.contains { scopes.contains($0.lowercased()) }
        guard allowed else {
            var headers = HTTPFields()
            headers[.wwwAuthenticate] =
                #"Bearer error="insufficient_scope", error_description="The token has none of this API's scopes or application roles""#
            return HTTPExchange.json(
                .object([("error", .string("insufficient_scope"))]), status: .forbidden, headers: headers)
        }
        var members: [(String, JSONValue)] = [
            ("api", .string(api.displayName)),
            ("audience", .string(api.clientId)),
            ("user", .optional(claims["preferred_username"]?.stringValue)),
            ("scopes", .array(scopes.sorted().map(JSONValue.string))),
        ]
        if isAppOnly {
            members.append(("roles", .array(roles.map(JSONValue.string))))
            members.append(("app", .optional(claims["azp"]?.stringValue ?? claims["appid"]?.stringValue)))
        }
        members.append(
            (
                "todos",
                .array([
                    .object([
                        ("id", .int(1)), ("description", .string("Read the External ID tutorial")),
                        ("done", .bool(true)),
                    ]),
                    .object([
                        ("id", .int(2)), ("description", .string("Call \(api.displayName) with a bearer token")),
                        ("done", .bool(false)),
                    ]),
                ])
            ))
        return HTTPExchange.json(.object(members))
    }
}
