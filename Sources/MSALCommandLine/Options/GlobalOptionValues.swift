/// The global options' values (``GlobalOptions`` declares them for ArgumentParser and its help), as every command
/// runs with them: ``Settings`` resolves them, ``CommandContext`` keeps them. A plain value, so that
/// ``HotCommandLine`` makes it without ArgumentParser.
struct GlobalOptionValues: Sendable, Equatable {
    /// `--authority`.
    var authority: String?
    /// `--client-id`.
    var clientID: String?
    /// `--redirect-uri`.
    var redirectURI: String?
    /// `--cache`.
    var cachePath: String?
    /// `--cache-backend`.
    var cacheBackend: String?
    /// `--graph-endpoint`.
    var graphEndpoint: String?
    /// `--ca-bundle`.
    var caBundle: String?
    /// `--json`.
    var json = false
    /// `--verbose`.
    var verbose = false
    /// `--log-pii`.
    var logPII = false

    /// The options given, by name, for a command that has no use for them (`msal demo`).
    var given: [String] {
        let options = [
            ("--authority", authority), ("--client-id", clientID), ("--redirect-uri", redirectURI),
            ("--cache", cachePath), ("--cache-backend", cacheBackend), ("--graph-endpoint", graphEndpoint),
            ("--ca-bundle", caBundle),
        ]
        let flags = [("--json", json), ("--verbose", verbose), ("--log-pii", logPII)]
        return options.filter { $0.1 != nil }.map(\.0) + flags.filter(\.1).map(\.0)
    }
}
