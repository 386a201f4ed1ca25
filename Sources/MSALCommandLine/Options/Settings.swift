import Foundation
import IdentityEmulator
import MSAL

/// The settings a command runs with, each taken from the first of: flag, environment variable,
/// config file, default. The defaults are the identity emulator's demo tenant and client on
/// 127.0.0.1:8400, so every command works against a running `identity-emulator` without flags.
struct Settings: Sendable, Equatable {
    enum Origin: String, Sendable {
        case flag, environment
        case configFile = "config file"
        case defaultValue = "default"
    }

    struct Setting: Sendable, Equatable {
        let value: String
        let origin: Origin
    }

    static let emulatorAuthority = "http://127.0.0.1:8400/contoso.onmicrosoft.com"
    /// The emulator's External ID tenant, the default of `msal native …`.
    static let emulatorExternalAuthority = "http://127.0.0.1:8400/contosocustomers.onmicrosoft.com"
    static let productionGraph = "https://graph.microsoft.com"

    let authority: Setting
    let clientID: Setting
    let redirectURI: Setting
    let cachePath: Setting
    /// `file`, `keyring` or `auto` (``TokenCacheStorage``).
    let cacheBackend: Setting
    let graphEndpoint: Setting
    let caBundle: Setting?
    /// `SSL_CERT_FILE`, as OpenSSL-based tools read it; added to the system's roots besides ``caBundle``.
    let sslCertFile: Setting?

    /// - Throws: ``UsageError`` for a bad config file.
    /// - Parameter native: default to the emulator's External ID tenant and app (`msal native …`).
    static func resolve(_ options: GlobalOptionValues, environment: [String: String], native: Bool = false) throws
        -> Settings
    {
        try resolve(options, environment: environment, file: ConfigFile.load(environment: environment), native: native)
    }

    static func resolve(
        _ options: GlobalOptionValues, environment: [String: String], file: ConfigFile, native: Bool = false
    )
        -> Settings
    {
        func pick(_ flag: String?, _ variable: String?, _ key: String, default fallback: @autoclosure () -> String?)
            -> Setting?
        {
            if let flag, !flag.isEmpty { return Setting(value: flag, origin: .flag) }
            if let variable, let value = environment[variable], !value.isEmpty {
                return Setting(value: value, origin: .environment)
            }
            if let value = file.values[key], !value.isEmpty { return Setting(value: value, origin: .configFile) }
            return fallback().map { Setting(value: $0, origin: .defaultValue) }
        }
        let sslCertFile = environment["SSL_CERT_FILE"].flatMap {
            $0.isEmpty ? nil : Setting(value: $0, origin: .environment)
        }
        let authority = pick(
            options.authority, "MSAL_AUTHORITY", "authority",
            default: native ? emulatorExternalAuthority : emulatorAuthority)!
        return Settings(
            authority: authority,
            clientID: pick(
                options.clientID, "MSAL_CLIENT_ID", "client_id",
                default: native ? Directory.DemoIDs.externalPublicClient : Directory.DemoIDs.publicClient)!,
            redirectURI: pick(options.redirectURI, "MSAL_REDIRECT_URI", "redirect_uri", default: "http://localhost")!,
            cachePath: pick(
                options.cachePath, "MSAL_TOKEN_CACHE", "token_cache",
                default: FileTokenCachePersistence.defaultURL(environment: environment).filePath)!,
            cacheBackend: pick(options.cacheBackend, "MSAL_CACHE_BACKEND", "cache_backend", default: "auto")!,
            graphEndpoint: pick(
                options.graphEndpoint, "MSAL_GRAPH_ENDPOINT", "graph_endpoint",
                default: defaultGraph(for: authority.value))!,
            caBundle: pick(options.caBundle, "MSAL_CA_BUNDLE", "ca_bundle", default: nil),
            sslCertFile: sslCertFile)
    }

    /// Graph lives beside the emulator when the authority is on this machine; Microsoft Graph otherwise.
    static func defaultGraph(for authority: String) -> String {
        guard let url = URL(string: authority), let host = url.host,
            ["127.0.0.1", "localhost", "::1"].contains(host), let scheme = url.scheme
        else { return productionGraph }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// `{graph}/v1.0/me`.
    var graphMe: URL? {
        URL(string: graphEndpoint.value.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/v1.0/me")
    }

    /// Where each setting came from, for `--verbose`.
    var origins: [(name: String, setting: Setting)] {
        [
            ("authority", authority), ("client id", clientID), ("redirect uri", redirectURI),
            ("token cache", cachePath), ("cache backend", cacheBackend),
            ("graph endpoint", graphEndpoint),
        ] + (caBundle.map { [("ca bundle", $0)] } ?? [])
            + (sslCertFile.map { [("SSL_CERT_FILE", $0)] } ?? [])
    }
}
