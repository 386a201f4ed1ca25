import Foundation
import Locking

/// Discovers authorities once and remembers them: instance discovery (validation and aliases) for
/// unknown Entra hosts, then the OpenID configuration document. With a metadata file, what another
/// process discovered recently is used instead of the network.
actor AuthorityResolver {
    private let client: IdentityPlatformClient
    private let knownEnvironments: Set<String>
    private let metadataFile: AuthorityMetadataFile?
    private let clock: any TimeSource
    /// Discovered endpoints, readable without a hop onto the actor (every silent call reads them); the
    /// last one asked for is checked first, by equality rather than hashing. Keyed by the URL's text: a `URL` key
    /// costs a conformance search (see "Start-up" in the library's README).
    private nonisolated let resolved = Locked<(last: AuthorityEndpoints?, all: [String: AuthorityEndpoints])>(
        (nil, [:]))
    /// Discoveries over the network in progress, by authority.
    private var inFlight: [URL: Task<AuthorityEndpoints, any Error>] = [:]

    /// Public-cloud aliases (instance discovery metadata), used without asking the network.
    private static let publicCloud: Set<String> = [
        "login.microsoftonline.com", "login.windows.net", "login.microsoft.com", "sts.windows.net",
    ]

    /// - Parameters:
    ///   - knownAuthorities: authorities trusted without instance discovery.
    ///   - metadataFile: where discovery results persist between processes, if anywhere.
    ///   - clock: dates the metadata file's entries.
    init(
        client: IdentityPlatformClient, knownAuthorities: [Authority], metadataFile: AuthorityMetadataFile? = nil,
        clock: any TimeSource = SystemTimeSource()
    ) {
        self.client = client
        knownEnvironments = Set(knownAuthorities.map(\.environment))
        self.metadataFile = metadataFile
        self.clock = clock
    }

    /// The endpoints of `authority`, discovered on first use.
    ///
    /// - Parameter online: the caller is about to send requests to them. Endpoints read from the
    ///   metadata file are then discovered again first (once per process), so a stale file (an emulator
    ///   restarted with another directory) costs one request instead of failing; without it, the file
    ///   serves flows that stay offline, such as a cache hit.
    /// - Throws: ``MSALError`` `failedAuthorityValidation` for an unknown instance or tenant,
    ///   `invalidResponse` for a broken document, transport errors.
    nonisolated func endpoints(for authority: Authority, online: Bool = false) async throws -> AuthorityEndpoints {
        let known = resolved.withLock { state -> AuthorityEndpoints? in
            if let last = state.last, last.authority.url == authority.url { return last }
            state.last = state.all[authority.url.absoluteString] ?? state.last
            return state.all[authority.url.absoluteString]
        }
        if let known, known.discoveredOnline || !online { return known }
        return try await discoverOnce(authority, online: online)
    }

    /// Discovers `authority`, sharing one discovery among concurrent first callers. The metadata file is read
    /// without a task: it answers at once, and most short-lived processes (a CLI from a warm cache) need nothing else.
    private func discoverOnce(_ authority: Authority, online: Bool) async throws -> AuthorityEndpoints {
        if let known = resolved.withLock({ $0.all[authority.url.absoluteString] }), known.discoveredOnline || !online {
            return known
        }
        if !online, let saved = saved(authority) { return remember(saved, for: authority) }
        if let running = inFlight[authority.url] { return try await running.value }
        let task = Task { try await discover(authority) }
        inFlight[authority.url] = task
        defer { inFlight[authority.url] = nil }
        return remember(try await task.value, for: authority)
    }

    /// Keeps `endpoints` for `authority`, unless they came from the file and online ones are known already.
    private func remember(_ endpoints: AuthorityEndpoints, for authority: Authority) -> AuthorityEndpoints {
        resolved.withLock { state in
            if !(state.all[authority.url.absoluteString]?.discoveredOnline ?? false) || endpoints.discoveredOnline {
                state.all[authority.url.absoluteString] = endpoints
            }
            if state.last?.authority.url == authority.url { state.last = state.all[authority.url.absoluteString] }
        }
        return endpoints
    }

    /// The endpoints the metadata file holds for `authority` while its entry is fresh; `nil` without one.
    private func saved(_ authority: Authority) -> AuthorityEndpoints? {
        guard let saved = metadataFile?.entry(for: authority.url, now: clock.now()) else { return nil }
        return try? AuthorityEndpoints(
            authority: authority, document: saved.document, aliases: saved.aliases, discoveredOnline: false,
            knownEnvironments: knownEnvironments)
    }

    /// Discovers `authority` over the network and saves what it found to the metadata file.
    private func discover(_ authority: Authority) async throws -> AuthorityEndpoints {
        let aliases = try await validate(authority)
        let document = try await client.openIDConfiguration(authority)
        let endpoints = try AuthorityEndpoints(
            authority: authority, document: document, aliases: aliases, knownEnvironments: knownEnvironments)
        // A file that cannot be written only means the next process discovers again.
        try? metadataFile?.save(document, aliases: aliases, for: authority.url, now: clock.now())
        return endpoints
    }

    /// Instance discovery for Entra hosts that are neither Microsoft's nor declared known (never for an OpenID
    /// Connect, CIAM or B2C authority, as MSAL Python treats those as known to the developer).
    private func validate(_ authority: Authority) async throws -> Set<String> {
        let host = authority.url.host?.lowercased() ?? ""
        guard authority.kind == .aad, !knownEnvironments.contains(authority.environment) else {
            return [authority.environment]
        }
        if Authority.trustedHosts.contains(host) {
            return Self.publicCloud.contains(host) ? Self.publicCloud : [host]
        }
        let discovery = try await client.instanceDiscovery(InstanceDiscoveryRequest(authority: authority))
        // Aliases name hosts, or host:port when the instance is not on the default port (a local emulator).
        let port = authority.url.port.map { ":\($0)" } ?? ""
        let withPort = { (alias: String) in alias.contains(":") ? alias : alias + port }
        let groups = discovery.aliasGroups.map { $0.map(withPort) }
        let group = groups.first { $0.contains(authority.environment) } ?? [authority.environment]
        return Set(group)
    }
}
