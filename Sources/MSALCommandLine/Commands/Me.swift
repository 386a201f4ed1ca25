import ArgumentParser
import Foundation
import MSAL

/// `msal me`: the tutorials' "Call Microsoft Graph API" button.
struct Me: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "me", abstract: "Show your Microsoft Graph profile (GET /v1.0/me), signing in if needed.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Act for this signed-in account instead of the current one.", valueName: "username"))
    var username: String?

    @Flag(name: .customLong("no-interactive"), help: "Never open a sign-in page; exit 3 when one is needed.")
    var noInteractive = false

    @Flag(name: .customLong("no-browser"), help: "Print the sign-in URL instead of opening a browser.")
    var noBrowser = false

    func run() async throws {
        let (username, interactive, json) = (username, !noInteractive, global.json)
        try await global.values.run(browser: noBrowser ? .printURL : .system) { context in
            guard let url = context.settings.graphMe else {
                throw UsageError("The Graph endpoint \(context.settings.graphEndpoint.value) is not a URL.")
            }
            let scopes = ["User.Read"]
            let token = try await context.token(scopes: scopes, username: username, interactive: interactive)
            let (response, body) = try await context.app.send(
                HTTPRequest(method: .get, url: url), scopes: scopes, account: token.account)
            guard response.status == .ok else {
                throw CommandFailure("Microsoft Graph answered HTTP \(response.status.code) for \(url.absoluteString).")
            }
            guard let profile = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw CommandFailure("Microsoft Graph's answer is not a JSON object.")
            }
            if json {
                try context.printJSON(profile)
            } else {
                context.console.out(ProfileView.render(profile))
            }
        }
    }
}
