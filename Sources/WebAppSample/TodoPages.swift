import Foundation
import Hummingbird
import MSAL
import MSALHummingbird
import SampleServers
import WebText

/// The to-do pages: the signed-in user's list in API 1, a form to add to it and a button to delete each item. The
/// forms carry the session's anti-forgery token; after a change the browser is sent back to the list.
struct TodoPages {
    let auth: WebAppAuthentication<WebContext>
    let configuration: WebAppSampleConfiguration

    private var api: ServiceCall {
        ServiceCall(
            name: "The to-do API",
            whenUnreachable: "Start it with `swift run todo-api` (or point --todo-list at it), then reload the page.",
            transport: configuration.client.transport)
    }

    func add(to router: Router<WebContext>) {
        router.get("todos") { request, context in try await list(request, context) }
        router.post("todos") { request, context in try await create(request, context) }
        router.post("todos/:id/delete") { request, context in try await delete(request, context) }
    }

    private func list(_ request: Request, _ context: WebContext) async throws -> Response {
        let token = try await WebAppRoutes.token(auth, [configuration.todoScope], request, context)
        let body = try await api.send(.get, configuration.todoListURL, token: token)
        let items = ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["todos"] as? [[String: Any]]
        let todos = (items ?? []).compactMap { item in
            (item["id"] as? Int).map { (id: $0, description: item["description"] as? String ?? "") }
        }
        let field = auth.antiForgeryInput(context) ?? ""
        var page = HTMLPage("Your to-dos")
        page.markup(
            #"<form class="add" method="post" action="/todos">\#(field)"#
                + #"<input type="text" id="description" name="description" maxlength="1000" required "#
                + #"placeholder="What needs doing?" aria-label="New to-do"><button type="submit" id="add">Add</button>"#
                + "</form>")
        if todos.isEmpty {
            page.paragraph("Nothing to do yet: add your first to-do above.", id: "empty", class: "muted")
        } else {
            let rows = todos.map { todo in
                #"<li><span class="item">\#(HTMLText.escape(todo.description))</span>"#
                    + #"<form method="post" action="/todos/\#(todo.id)/delete">\#(field)"#
                    + #"<button type="submit" class="delete" id="delete-\#(todo.id)">Delete</button></form></li>"#
            }
            page.markup(#"<ul id="todo-list" class="todos">"# + rows.joined() + "</ul>")
        }
        page.markup(
            #"<p id="count" class="muted" data-count="\#(todos.count)">\#(todos.count) to-do\#(todos.count == 1 ? "" : "s")</p>"#
        )
        page.link("Home", to: "/", id: "home")
        return page.response()
    }

    private func create(_ request: Request, _ context: WebContext) async throws -> Response {
        let form = try await signedInForm(request, context)
        let description = (form["description"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !description.isEmpty else {
            throw SampleFailure(
                .badRequest, "empty_description", message: "Type what needs doing, then press Add.",
                cause: "a to-do without a description")
        }
        let token = try await WebAppRoutes.token(auth, [configuration.todoScope], request, context)
        let json = try JSONSerialization.data(withJSONObject: ["description": description])
        _ = try await api.send(.post, configuration.todoListURL, token: token, json: json)
        return .redirect(to: "/todos", type: .normal)
    }

    private func delete(_ request: Request, _ context: WebContext) async throws -> Response {
        _ = try await signedInForm(request, context)
        guard let id = context.parameters.get("id", as: Int.self) else {
            throw SampleFailure(
                .notFound, "not_found", message: "There is no such to-do.", cause: "a to-do id that is not a number")
        }
        let token = try await WebAppRoutes.token(auth, [configuration.todoScope], request, context)
        _ = try await api.send(.delete, configuration.todoListURL.appendingPathComponent("\(id)"), token: token)
        return .redirect(to: "/todos", type: .normal)
    }

    /// The posted form of a signed-in user, with the session's anti-forgery token; a sign-in that returns to the
    /// list when nobody is signed in.
    private func signedInForm(_ request: Request, _ context: WebContext) async throws -> [String: String] {
        guard let form = try await auth.postedForm(request, context) else {
            throw SignInRedirect("\(auth.basePath)/signin?returnTo=/todos")
        }
        return form
    }
}
