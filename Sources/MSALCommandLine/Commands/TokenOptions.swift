import ArgumentParser
import MSAL

/// `msal token`'s options as it runs with them (``Token`` declares them for ArgumentParser and its help), and what
/// it does with them: an access token for scripts, like `az account get-access-token`.
struct TokenOptions: Sendable, Equatable {
    /// The scopes when `--scopes` is not given.
    static let defaultScopes = ["User.Read"]

    var global = GlobalOptionValues()
    /// `--scopes`.
    var scopes = defaultScopes
    /// `--username`.
    var username: String?
    /// `--force-refresh`.
    var forceRefresh = false
    /// `--interactive`.
    var interactive = false
    /// `--format`.
    var format: TokenFormat?
    /// `--decode`.
    var decode = false

    /// - Throws: `ValidationError` for no scope, or outputs that contradict each other.
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

    /// Prints the token (or its claims, with `--decode`) in the format asked for.
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
