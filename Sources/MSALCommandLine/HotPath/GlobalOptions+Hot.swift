extension GlobalOptions {
    /// The global options as ``HotCommandLine`` reads them (the names and defaults declared in ``GlobalOptions``).
    static let hotOptions: [HotOption<GlobalOptions>] = [
        .value("--authority", to: \.authority), .value("--client-id", to: \.clientID),
        .value("--redirect-uri", to: \.redirectURI), .value("--cache", to: \.cachePath),
        .value("--cache-backend", to: \.cacheBackend), .value("--graph-endpoint", to: \.graphEndpoint),
        .value("--ca-bundle", to: \.caBundle), .flag("--json", to: \.json), .flag("--verbose", to: \.verbose),
        .flag("--log-pii", to: \.logPII),
    ]

    /// No global option given.
    static func hotDefault() -> GlobalOptions {
        var options = GlobalOptions()
        options.authority = nil
        options.clientID = nil
        options.redirectURI = nil
        options.cachePath = nil
        options.cacheBackend = nil
        options.graphEndpoint = nil
        options.caBundle = nil
        options.json = false
        options.verbose = false
        options.logPII = false
        return options
    }
}
