import ArgumentParser
import MSAL

/// `msal token`: an access token for scripts, like `az account get-access-token`.
struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print an access token for scripts; never prompts unless --interactive.")

    @OptionGroup var global: GlobalOptions

    /// The scopes when `--scopes` is not given.
    static let defaultScopes = ["User.Read"]

    @Option(parsing: .upToNextOption, help: ArgumentHelp("The scopes the token is for.", valueName: "scope"))
    var scopes: [String] = defaultScopes

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

    func validate() throws {
        _ = try ScopeList.required(scopes)
        if global.json, let format, format != .json {
            throw ValidationError("--json and --format \(format.rawValue) ask for different outputs; give one.")
        }
        if decode, let format, format == .az || format == .tsv {
            throw ValidationError(
                "--decode prints the token's header and claims, which --format \(format.rawValue) cannot hold; add --json for them as JSON."
            )
        }
    }

    func run() async throws {
        let scopes = ScopeList.split(scopes)
        let (username, interactive, forceRefresh, decode) = (username, interactive, forceRefresh, decode)
        let format = format ?? (global.json ? .json : .token)
        try await global.run { context in
            let result = try await context.token(
                scopes: scopes, username: username, interactive: interactive, forceRefresh: forceRefresh)
            if decode {
                return try DecodedTokenView.print(result.accessToken, json: format == .json, on: context.console)
            }
            switch format {
            case .token: context.console.out(result.accessToken)
            case .json: try context.printJSON(TokenView.json(result))
            case .az: try context.printJSON(TokenView.azureCLI(result))
            case .tsv: context.console.out(TokenView.tabSeparated(result))
            }
        }
    }
}
