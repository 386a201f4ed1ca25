import Foundation
import MSAL
import MSALVapor
import Vapor

extension TodoService {
    /// The API's routes on a Vapor application: MSALVapor's bearer authenticator, its guard and the permission
    /// requirements in front of each.
    func add(to routes: any RoutesBuilder) {
        let group = routes.grouped(PathComponent(stringLiteral: api.name)).requiringAccessToken(validator)
        group.requiring(scopes: Self.readScopes, appRoles: [Self.readAllRole]).get("todolist") { request in
            Self.response(try list(try request.msal.caller.token))
        }
        let write = group.requiring(scopes: Self.writeScopes)
        write.post("todolist") { request in
            let body = request.body.data.map { Data($0.readableBytesView) } ?? Data()
            return Self.response(try create(body, try request.msal.caller.token), status: .created)
        }
        write.delete("todolist", ":id") { request in
            try remove(request.parameters.get("id"), try request.msal.caller.token)
            return Response(status: .noContent)
        }
        if graph != nil {
            group.requiring(scopes: Self.readScopes).get("me") { request in
                Self.response(try await profile(try request.msal.caller.token))
            }
        }
    }

    private static func response(_ json: Data, status: HTTPResponseStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: .init(data: json))
    }
}
