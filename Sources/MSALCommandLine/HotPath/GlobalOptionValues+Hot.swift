extension GlobalOptionValues {
    /// The global options as ``HotCommandLine`` reads them (the names declared in ``GlobalOptions``).
    static let hotOptions: [HotOption<GlobalOptionValues>] = [
        .value("--authority") { $0.authority = $1 }, .value("--client-id") { $0.clientID = $1 },
        .value("--redirect-uri") { $0.redirectURI = $1 }, .value("--cache") { $0.cachePath = $1 },
        .value("--cache-backend") { $0.cacheBackend = $1 }, .value("--graph-endpoint") { $0.graphEndpoint = $1 },
        .value("--ca-bundle") { $0.caBundle = $1 }, .flag("--json") { $0.json = true },
        .flag("--verbose") { $0.verbose = true }, .flag("--log-pii") { $0.logPII = true },
    ]
}
