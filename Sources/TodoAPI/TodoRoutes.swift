import Foundation
import Hummingbird
import MSAL
import MSALHummingbird
import SampleServers

/// One API's routes, under `/{name}`:
///
/// - `GET todolist`: the caller's list (`ToDoList.Read` or `ToDoList.ReadWrite`), or, for a daemon with the
///   `ToDoList.Read.All` app role, every user's lists;
/// - `POST todolist` with `{"description": "…"}` and `DELETE todolist/{id}`: `ToDoList.ReadWrite` (users only);
/// - `GET me` (API 1 with a credential): the caller's Microsoft Graph profile, fetched on their behalf.
struct TodoRoutes {
    static let readScopes: Set<String> = ["ToDoList.Read", "ToDoList.ReadWrite"]
    static let writeScopes: Set<String> = ["ToDoList.ReadWrite"]
    static let readAllRole = "ToDoList.Read.All"

    let api: TodoAPIConfiguration.API
    let validator: AccessTokenValidator
    let store = TodoStore()
    /// Microsoft Graph on the caller's behalf, for `GET me`.
    let graph: DownstreamAPI?

    /// The routes, as the banner lists them.
    static func banner(api: String, graph: Bool) -> [SampleBanner.Route] {
        var routes = [
            SampleBanner.Route(
                "GET", "/\(api)/todolist",
                "your to-dos (ToDoList.Read or .ReadWrite; a daemon with ToDoList.Read.All: every list)"),
            SampleBanner.Route("POST", "/\(api)/todolist", #"add a to-do: {"description": "…"} (ToDoList.ReadWrite)"#),
            SampleBanner.Route("DELETE", "/\(api)/todolist/{id}", "delete a to-do (ToDoList.ReadWrite)"),
        ]
        if graph {
            routes.append(
                SampleBanner.Route("GET", "/\(api)/me", "your Microsoft Graph profile, fetched on your behalf"))
        }
        return routes
    }

    func add(to router: Router<TodoContext>) {
        let group = router.group(RouterPath(stringLiteral: api.name))
            .add(middleware: BearerTokenMiddleware<TodoContext>(validator: validator))
        group.group("todolist")
            .add(
                middleware: RequiredPermissionMiddleware<TodoContext>(
                    scopes: Self.readScopes, appRoles: [Self.readAllRole])
            )
            .get(use: list)
        group.group("todolist")
            .add(middleware: RequiredPermissionMiddleware<TodoContext>(scopes: Self.writeScopes))
            .post(use: create)
            .delete(":id", use: remove)
        if graph != nil {
            group.group("me")
                .add(middleware: RequiredPermissionMiddleware<TodoContext>(scopes: Self.readScopes))
                .get(use: profile)
        }
    }

    private func list(_ request: Request, context: TodoContext) throws -> Response {
        let token = try context.requireAccessToken()
        struct UserList: Encodable {
            let api: String
            let todos: [TodoItem]
        }
        struct EveryList: Encodable {
            let api: String
            let app: String
            let lists: [String: [TodoItem]]
        }
        if token.isAppOnly {
            return try Self.json(EveryList(api: api.name, app: token.clientID ?? "", lists: store.all()))
        }
        return try Self.json(UserList(api: api.name, todos: store.list(owner: try Self.owner(token))))
    }

    private func create(_ request: Request, context: TodoContext) async throws -> Response {
        let token = try context.requireAccessToken()
        struct NewItem: Decodable { let description: String }
        let item = try await request.decode(as: NewItem.self, context: context)
        let description = item.description.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !description.isEmpty, description.count <= 1000 else {
            throw HTTPError(.badRequest, message: "A to-do needs a description of 1 to 1,000 characters.")
        }
        var response = try Self.json(store.add(description, owner: try Self.owner(token)))
        response.status = .created
        return response
    }

    private func remove(_ request: Request, context: TodoContext) throws -> Response {
        let token = try context.requireAccessToken()
        guard let id = context.parameters.get("id", as: Int.self) else {
            throw HTTPError(.badRequest, message: "The to-do's id must be a number.")
        }
        guard store.remove(id, owner: try Self.owner(token)) else {
            throw HTTPError(.notFound, message: "There is no to-do \(id) in your list.")
        }
        return Response(status: .noContent)
    }

    private func profile(_ request: Request, context: TodoContext) async throws -> Response {
        guard let graph else { throw HTTPError(.notFound) }
        let answer: HTTPResponse
        let body: Data
        do {
            (answer, body) = try await graph.call(.get, "me", for: try context.requireAccessToken())
        } catch let error as MSALError {
            throw ProfileFailure.onBehalfOf(error, graph: graph)
        }
        guard answer.status.kind == .successful else { throw ProfileFailure.graphAnswered(answer, body) }
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The user's object id, which keys their list.
    private static func owner(_ token: ValidatedAccessToken) throws -> String {
        guard let owner = token.objectID ?? (token.claims["sub"] as? String) else {
            throw HTTPError(.forbidden, message: "The token names no user.")
        }
        return owner
    }

    private static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
