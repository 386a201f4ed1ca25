import Foundation
import Hummingbird

/// The OpenID Connect UserInfo endpoint (`graph.microsoft.com/oidc/userinfo`), served on the emulator's
/// origin: the signed-in user's claims for a Graph access token that carries `openid`.
struct UserInfoRoute: Sendable {
    let graph: GraphRoutes

    /// `sub` is the pairwise subject of the ID token the same client received; `name`, `family_name`
    /// and `given_name` come with `profile`, `email` with `email`. Graph's 401 for a missing or invalid
    /// token, 403 without `openid`.
    func answer(_ request: Request) async -> Response {
        let ids = GraphRoutes.requestIDs(request, now: graph.core.state.now)
        let claims: JSONValue
        switch graph.authenticate(request, ids: ids) {
        case .success(let c): claims = c
        case .failure(let refusal): return refusal.response
        }
        let scopes = BearerValidator.scopes(claims)
        guard claims["idtyp"]?.stringValue == "user", scopes.contains("openid"), let oid = claims["oid"]?.stringValue,
            let tid = claims["tid"]?.stringValue, let client = claims["appid"]?.stringValue
        else {
            return GraphRoutes.error(
                .forbidden, code: "Authorization_RequestDenied",
                message: "Insufficient privileges to complete the operation.", ids: ids)
        }
        let index = graph.core.state.index
        guard let user = index.user(objectID: oid), let membership = index.membership(of: user, tenantID: tid) else {
            return GraphRoutes.error(
                .notFound, code: "Request_ResourceNotFound", message: "Resource '\(oid)' does not exist.", ids: ids)
        }
        var members: [(String, JSONValue)] = [
            ("sub", .string(TokenIssuer.pairwiseSubject(objectID: membership.objectID, clientID: client)))
        ]
        if scopes.contains("profile") {
            members.append(("name", .string(user.displayName)))
            members.append(("family_name", .optional(user.surname)))
            members.append(("given_name", .optional(user.givenName)))
        }
        if scopes.contains("email"), let mail = user.mail { members.append(("email", .string(mail))) }
        return HTTPExchange.json(.object(members), headers: GraphRoutes.graphHeaders(ids))
    }
}
