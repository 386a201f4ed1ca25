import Foundation
import MSAL
import SampleServers
import WebText

/// The to-do pages: the signed-in user's list in API 1, a form to add to it and a button to delete each item. The
/// forms carry the session's anti-forgery token; after a change the browser is sent back to the list.
struct TodoPages: Sendable {
    let configuration: WebAppSampleConfiguration

    /// Where the browser goes after a change (303 See Other).
    static let listPath = "/todos"

    private var api: ServiceCall {
        ServiceCall(
            name: "The to-do API",
            whenUnreachable: "Start it with `swift run todo-api` (or point --todo-list at it), then reload the page.",
            transport: configuration.client.transport)
    }

    /// `GET /todos`: the list, the form that adds to it, a delete button per item.
    func list(_ session: some SignedInSession) async throws -> HTMLPage {
        let token = try await WebAppPages.token(session, [configuration.todoScope])
        let body = try await api.send(.get, configuration.todoListURL, token: token)
        let items = ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["todos"] as? [[String: Any]]
        let todos = (items ?? []).compactMap { item in
            (item["id"] as? Int).map { (id: $0, description: item["description"] as? String ?? "") }
        }
        let field = session.antiForgeryInput() ?? ""
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
        return page
    }

    /// `POST /todos`: adds the form's to-do through the API.
    ///
    /// - Returns: where to send the browser.
    func create(_ session: some SignedInSession) async throws -> String {
        let form = try await signedInForm(session)
        let description = (form["description"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !description.isEmpty else {
            throw SampleFailure(
                .badRequest, "empty_description", message: "Type what needs doing, then press Add.",
                cause: "a to-do without a description")
        }
        let token = try await WebAppPages.token(session, [configuration.todoScope])
        let json = try JSONSerialization.data(withJSONObject: ["description": description])
        _ = try await api.send(.post, configuration.todoListURL, token: token, json: json)
        return Self.listPath
    }

    /// `POST /todos/{id}/delete`: deletes the to-do through the API.
    ///
    /// - Returns: where to send the browser.
    func delete(_ session: some SignedInSession, id: String?) async throws -> String {
        _ = try await signedInForm(session)
        guard let id = id.flatMap({ Int($0) }) else {
            throw SampleFailure(
                .notFound, "not_found", message: "There is no such to-do.", cause: "a to-do id that is not a number")
        }
        let token = try await WebAppPages.token(session, [configuration.todoScope])
        _ = try await api.send(.delete, configuration.todoListURL.appendingPathComponent("\(id)"), token: token)
        return Self.listPath
    }

    /// The posted form of a signed-in user, with the session's anti-forgery token; a sign-in that returns to the
    /// list when nobody is signed in.
    private func signedInForm(_ session: some SignedInSession) async throws -> [String: String] {
        guard let form = try await session.postedForm() else {
            throw session.redirect(to: "\(session.signInBasePath)/signin?returnTo=\(Self.listPath)")
        }
        return form
    }
}
