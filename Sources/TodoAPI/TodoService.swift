import Foundation
import MSAL
import SampleServers

/// One API of the sample, whatever web framework serves it, under `/{name}`:
///
/// - `GET todolist`: the caller's list (`ToDoList.Read` or `ToDoList.ReadWrite`), or, for a daemon with the
///   `ToDoList.Read.All` app role, every user's lists;
/// - `POST todolist` with `{"description": "…"}` and `DELETE todolist/{id}`: `ToDoList.ReadWrite` (users only);
/// - `GET me` (API 1 with a credential): the caller's Microsoft Graph profile, fetched on their behalf.
///
/// The frameworks' routes check the token and the permission, then call these with the validated token; a request
/// that cannot be served throws a ``SampleFailure`` (or a ``BearerChallenge`` for the caller).
struct TodoService: Sendable {
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

    /// `GET todolist`: the caller's list as JSON, or every list for a daemon.
    func list(_ token: ValidatedAccessToken) throws -> Data {
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

    /// `POST todolist`: adds the to-do `body` describes to the caller's list; the new item as JSON (201).
    func create(_ body: Data, _ token: ValidatedAccessToken) throws -> Data {
        struct NewItem: Decodable { let description: String }
        guard let item = try? JSONDecoder().decode(NewItem.self, from: body) else {
            throw SampleFailure(
                .badRequest, "invalid_request", message: #"Send the to-do as JSON: {"description": "…"}."#,
                cause: "a to-do that is not JSON with a description")
        }
        let description = item.description.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !description.isEmpty, description.count <= 1000 else {
            throw SampleFailure(
                .badRequest, "invalid_request", message: "A to-do needs a description of 1 to 1,000 characters.",
                cause: "a to-do description of \(description.count) characters")
        }
        return try Self.json(store.add(description, owner: try Self.owner(token)))
    }

    /// `DELETE todolist/{id}`: removes the to-do from the caller's list.
    func remove(_ id: String?, _ token: ValidatedAccessToken) throws {
        guard let id = id.flatMap({ Int($0) }) else {
            throw SampleFailure(
                .badRequest, "invalid_request", message: "The to-do's id must be a number.",
                cause: "a to-do id that is not a number")
        }
        guard store.remove(id, owner: try Self.owner(token)) else {
            throw SampleFailure(
                .notFound, "not_found", message: "There is no to-do \(id) in your list.",
                cause: "no to-do \(id) in the caller's list")
        }
    }

    /// `GET me`: the caller's Graph profile, as Graph gave it.
    func profile(_ token: ValidatedAccessToken) async throws -> Data {
        guard let graph else {
            throw SampleFailure(
                .notFound, "not_found", message: "There is nothing at GET /\(api.name)/me.", cause: "no Graph client")
        }
        let answer: HTTPResponse
        let body: Data
        do {
            (answer, body) = try await graph.call(.get, "me", for: token)
        } catch let error as MSALError {
            throw ProfileFailure.onBehalfOf(error, graph: graph)
        }
        guard answer.status.kind == .successful else { throw ProfileFailure.graphAnswered(answer, body) }
        return body
    }

    /// The user's object id, which keys their list.
    private static func owner(_ token: ValidatedAccessToken) throws -> String {
        guard let owner = token.objectID ?? (token.claims["sub"] as? String) else {
            throw SampleFailure(
                .forbidden, "forbidden", message: "The token names no user.", cause: "a user token without oid or sub")
        }
        return owner
    }

    private static func json(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }
}
