import ArgumentParser

/// `msal token`: an access token for scripts, like `az account get-access-token` (see ``TokenOptions``).
struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print an access token for scripts; never prompts unless --interactive.")

    @OptionGroup var global: GlobalOptions

    @Option(parsing: .upToNextOption, help: ArgumentHelp("The scopes the token is for.", valueName: "scope"))
    var scopes: [String] = TokenOptions.defaultScopes

    @Option(help: ArgumentHelp("Act for this signed-in account instead of the current one.", valueName: "username"))
    var username: String?

    @Flag(name: .customLong("force-refresh"), help: "Skip cached access tokens and use the refresh token.")
    var forceRefresh = false

    @Flag(help: "Sign in in the browser when no token can be had silently.")
    var interactive = false

    @Option(
        help: ArgumentHelp(
            "How to print it: token (alone; the default), json (as --json), az (the JSON `az account "
                + "get-access-token` prints), tsv (az's values, tab-separated).",
            valueName: "token|json|az|tsv"))
    var format: TokenFormat?

    @Flag(help: "Print the token's header and claims, explained, instead of the token; nothing is sent anywhere.")
    var decode = false

    /// The options given, as the command runs with them.
    var options: TokenOptions {
        TokenOptions(
            global: global.values, scopes: scopes, username: username, forceRefresh: forceRefresh,
            interactive: interactive, format: format, decode: decode)
    }

    func validate() throws { try options.validate() }

    func run() async throws { try await options.run() }
}
