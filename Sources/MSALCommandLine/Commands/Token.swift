import ArgumentParser
import MSAL

/// `msal token`: an access token for scripts, like `az account get-access-token`.
struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print an access token for scripts; never prompts unless --interactive.")

    @OptionGroup var global: GlobalOptions

    @Option(parsing: .upToNextOption, help: ArgumentHelp("The scopes the token is for.", valueName: "scope"))
    var scopes: [String] = ["User.Read"]

    @Option(help: ArgumentHelp("Act for this signed-in account instead of the current one.", valueName: "username"))
    var username: String?

    @Flag(name: .customLong("force-refresh"), help: "Skip cached access tokens and use the refresh token.")
    var forceRefresh = false

    @Flag(help: "Sign in in the browser when no token can be had silently.")
    var interactive = false

    func validate() throws {
        _ = try ScopeList.required(scopes)
    }

    func run() async throws {
        let scopes = ScopeList.split(scopes)
        let (username, interactive, forceRefresh, json) = (username, interactive, forceRefresh, global.json)
        try await global.run { context in
            let result = try await context.token(
                scopes: scopes, username: username, interactive: interactive, forceRefresh: forceRefresh)
            if json {
                try context.printJSON(TokenView.json(result))
            } else {
                context.console.out(result.accessToken)
            }
        }
    }
}
