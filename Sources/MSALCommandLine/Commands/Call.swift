import ArgumentParser
import Foundation
import MSAL

/// `msal call`: any protected API with a token for its scopes.
struct Call: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call", abstract: "Call a protected API with a bearer token and print its answer.",
        discussion:
            "Example: msal call http://127.0.0.1:8400/api1/todolist --scopes api://b7c4e1a9-6d2f-4e8b-a3c5-1f9d0e7b2a64/ToDoList.Read"
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The API's URL.")
    var url: String

    @Option(parsing: .upToNextOption, help: ArgumentHelp("The scopes the API needs.", valueName: "scope"))
    var scopes: [String]

    @Option(name: [.customShort("X"), .long], help: "The HTTP method.")
    var method = "GET"

    /// The methods `--method` takes, by name in any case.
    static func method(_ name: String) -> HTTPRequest.Method? {
        [HTTPRequest.Method.get, .post, .put, .patch, .delete].first { $0.rawValue == name.uppercased() }
    }

    @Option(name: [.customShort("d"), .long], help: "A request body (sent as JSON).")
    var data: String?

    @Option(help: ArgumentHelp("Act for this signed-in account instead of the current one.", valueName: "username"))
    var username: String?

    @Flag(help: "Sign in in the browser when no token can be had silently.")
    var interactive = false

    func validate() throws {
        guard let url = URL(string: url), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw ValidationError("\(url) is not an http(s) URL.")
        }
        guard Self.method(method) != nil else {
            throw ValidationError("Unknown HTTP method \(method).")
        }
        _ = try ScopeList.required(scopes)
    }

    func run() async throws {
        let scopes = ScopeList.split(scopes)
        let (url, method, data, username, interactive, verbose, json) = (
            URL(string: url)!, Self.method(method)!,
            data, username, interactive, global.verbose, global.json
        )
        try await global.values.run { context in
            let token = try await context.token(scopes: scopes, username: username, interactive: interactive)
            var request = HTTPRequest(method: method, url: url)
            if data != nil { request.headerFields[.contentType] = "application/json" }
            let (response, body) = try await context.app.send(
                request, body: data.map { Data($0.utf8) }, scopes: scopes, account: token.account)
            if verbose { context.console.err("msal: HTTP \(response.status.code) from \(url.absoluteString)") }
            try APIAnswerView.report(body, status: response.status, from: url, json: json, context: context)
        }
    }
}
