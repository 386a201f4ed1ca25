import ArgumentParser

/// The options every command takes, before or after the subcommand's name (see ``MSALCommand/global``),
/// declared for ArgumentParser and its help; the commands run with their ``values``.
/// Each setting comes from the flag, else the environment, else the config file, else the default
/// (see ``Settings``).
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            "Where users sign in, e.g. https://login.microsoftonline.com/common (env MSAL_AUTHORITY).", valueName: "url"
        ))
    var authority: String?

    @Option(
        name: .customLong("client-id"),
        help: ArgumentHelp("The application (client) id (env MSAL_CLIENT_ID).", valueName: "id"))
    var clientID: String?

    @Option(
        name: .customLong("redirect-uri"),
        help: ArgumentHelp("The registered redirect URI; http://localhost picks a free port.", valueName: "uri"))
    var redirectURI: String?

    @Option(
        name: .customLong("cache"),
        help: ArgumentHelp("The token cache file (env MSAL_TOKEN_CACHE).", valueName: "path"))
    var cachePath: String?

    @Option(
        name: .customLong("cache-backend"),
        help: ArgumentHelp(
            "Where signed-in users' and app tokens live: keyring (the Secret Service), file, or auto: the keyring "
                + "when there is one (env MSAL_CACHE_BACKEND; --cache PATH means that file).",
            valueName: "file|keyring|auto"))
    var cacheBackend: String?

    @Option(
        name: .customLong("graph-endpoint"),
        help: ArgumentHelp("Microsoft Graph's base URL (env MSAL_GRAPH_ENDPOINT).", valueName: "url"))
    var graphEndpoint: String?

    @Option(
        name: .customLong("ca-bundle"),
        help: ArgumentHelp(
            "PEM certificates to trust besides the system's, e.g. the emulator's local CA (env MSAL_CA_BUNDLE).",
            valueName: "path"))
    var caBundle: String?

    @Flag(help: "Print machine-readable JSON.")
    var json = false

    @Flag(help: "Log what the library does, on standard error.")
    var verbose = false

    @Flag(name: .customLong("log-pii"), help: "Allow usernames and other personal data in the log (never tokens).")
    var logPII = false

    public init() {}

    /// The values given, as the commands run with them.
    var values: GlobalOptionValues {
        GlobalOptionValues(
            authority: authority, clientID: clientID, redirectURI: redirectURI, cachePath: cachePath,
            cacheBackend: cacheBackend, graphEndpoint: graphEndpoint, caBundle: caBundle, json: json,
            verbose: verbose, logPII: logPII)
    }
}
