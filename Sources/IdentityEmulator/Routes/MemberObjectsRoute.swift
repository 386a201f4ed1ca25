import Foundation
import Hummingbird

/// Microsoft Graph `POST /v1.0/me/getMemberObjects` and `POST /v1.0/users/{id}/getMemberObjects`: the groups a test
/// gave the user or app (``TokensOnDemand``), where a token's groups overage claim points. Any valid Graph token
/// (`/me` a user's).
struct MemberObjectsRoute: Sendable {
    let graph: GraphRoutes

    func register(on router: Router<EmulatorRequestContext>) {
        router.post("v1.0/me/getMemberObjects") { request, _ in await answer(request, objectID: nil) }
        router.post("v1.0/users/:id/getMemberObjects") { request, context in
            await answer(request, objectID: context.parameters.get("id") ?? "")
        }
    }

    /// The groups of `objectID`, or of the token's user when `nil`.
    private func answer(_ request: Request, objectID: String?) async -> Response {
        let core = graph.core
        let ids = GraphRoutes.requestIDs(request, now: core.state.now)
        let claims: JSONValue
        switch graph.authenticate(request, ids: ids) {
        case .success(let c): claims = c
        case .failure(let refusal): return refusal.response
        }
        guard let subject = objectID ?? (claims["idtyp"]?.stringValue == "user" ? claims["oid"]?.stringValue : nil)
        else {
            return GraphRoutes.error(
                .badRequest, code: "BadRequest",
                message: "/me request is only valid with delegated authentication flow.", ids: ids)
        }
        let groups = await core.state.groups(objectID: subject)
        let context = "\(core.origin(of: request))/v1.0/$metadata#Collection(Edm.String)"
        return HTTPExchange.json(
            .object([("@odata.context", .string(context)), ("value", .array(groups.map(JSONValue.string)))]),
            headers: GraphRoutes.graphHeaders(ids),
            contentType:
                "application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8")
    }
}
