import Foundation
import Hummingbird
import MSAL
import MSALHummingbird

extension TodoService {
    /// The API's routes on a Hummingbird router: MSALHummingbird's bearer-token and permission middleware in front
    /// of each.
    func add(to router: Router<TodoContext>) {
        let group = router.group(RouterPath(stringLiteral: api.name))
            .add(middleware: BearerTokenMiddleware<TodoContext>(validator: validator))
        group.group("todolist")
            .add(
                middleware: RequiredPermissionMiddleware<TodoContext>(
                    scopes: Self.readScopes, appRoles: [Self.readAllRole])
            )
            .get { _, context in Self.response(try list(try context.requireAccessToken())) }
        group.group("todolist")
            .add(middleware: RequiredPermissionMiddleware<TodoContext>(scopes: Self.writeScopes))
            .post { request, context in
                let token = try context.requireAccessToken()
                let body = try await request.body.collect(upTo: context.maxUploadSize)
                return Self.response(try create(Data(body.readableBytesView), token), status: .created)
            }
            .delete(":id") { _, context in
                try remove(context.parameters.get("id"), try context.requireAccessToken())
                return Response(status: .noContent)
            }
        if graph != nil {
            group.group("me")
                .add(middleware: RequiredPermissionMiddleware<TodoContext>(scopes: Self.readScopes))
                .get { _, context in Self.response(try await profile(try context.requireAccessToken())) }
        }
    }

    private static func response(_ json: Data, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
    }
}
