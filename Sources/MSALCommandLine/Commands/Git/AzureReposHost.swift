/// Which hosts `msal git-credential` answers for: Azure Repos (`dev.azure.com` and `*.visualstudio.com`) over
/// https, and the hosts `--host` names (git's `host` field, with its port when it has one) over https, or over
/// http on this machine only (127.0.0.1, `localhost`, `[::1]`), so that a token never crosses a network in the
/// clear. Every other host is passed over, for the next helper.
struct AzureReposHost: Sendable {
    /// The Azure DevOps resource: Azure Repos takes an access token for it as a Basic password.
    static let resource = "499b84ac-1321-427f-aa17-267ca6975798"
    static let scopes = ["\(resource)/.default"]

    /// Hosts named with `--host`, lower-cased.
    let extraHosts: Set<String>

    init(extraHosts: [String]) {
        self.extraHosts = Set(extraHosts.map { $0.lowercased() })
    }

    /// Whether git's request (its `protocol` and `host` fields) is for a host that gets a token.
    func serves(protocol scheme: String?, host: String?) -> Bool {
        guard let scheme = scheme?.lowercased(), let host = host?.lowercased(), !host.isEmpty else { return false }
        switch scheme {
        case "https":
            return host == "dev.azure.com" || host.hasSuffix(".visualstudio.com") || extraHosts.contains(host)
        case "http":
            return extraHosts.contains(host) && Self.isLoopback(host)
        default:
            return false
        }
    }

    /// `127.0.0.1`, `localhost` or `[::1]`, with or without a port.
    static func isLoopback(_ host: String) -> Bool {
        let name: Substring
        if host.hasPrefix("[") {
            name = host.prefix { $0 != "]" }.dropFirst()
        } else {
            name = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        return name == "127.0.0.1" || name == "localhost" || name == "::1"
    }
}
