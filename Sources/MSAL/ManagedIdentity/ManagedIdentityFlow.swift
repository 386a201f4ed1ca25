import Foundation

/// A managed identity token for one resource: from the identity's cache partition until the expiry buffer, else
/// from the source, one request for all concurrent callers; renewed ahead of time at `refresh_in` (half the
/// lifetime of tokens that live more than two hours, as MSAL does), keeping the cached token when that fails.
struct ManagedIdentityFlow: Sendable {
    /// The realm and environment MSAL Go and MSAL.NET file managed identity tokens under.
    static let realm = "managed_identity"
    static let environment = "login.microsoftonline.com"
    /// Tokens that live longer than this are renewed at half their lifetime.
    static let longLived: TimeInterval = 7200

    let configuration: ManagedIdentityApplicationConfiguration
    let endpoint: ManagedIdentityEndpoint
    let requests: SingleFlight<AppTokenResult>
    let correlationIDs: CorrelationIDs
    let log: PrivacyLogger

    private var identity: ManagedIdentity { configuration.identity }
    private var tokens: TokenCache {
        configuration.cache.cache(for: .appTokens(clientID: identity.cacheID, tenant: Self.realm))
    }

    func run(resource: String, forceRefresh: Bool, claims: String?) async throws -> AppTokenResult {
        let cached = try await cachedToken(resource)
        if !forceRefresh, claims == nil, let cached, usable(cached) {
            guard let refreshOn = cached.refreshOn, refreshOn <= configuration.clock.now() else {
                return result(cached, resource, source: .cache, correlationID: correlationIDs.next())
            }
            do {
                return try await request(resource, key: "refresh", revoked: nil)
            } catch let error as MSALError {
                log.warning(
                    "renewing a managed identity token failed; using the cached one", ["error": "\(error.code)"])
                return result(cached, resource, source: .cache, correlationID: correlationIDs.next())
            }
        }
        let revoked = claims == nil ? nil : cached?.secret
        return try await request(resource, key: "\(forceRefresh)|\(claims ?? "")", revoked: revoked)
    }

    private func usable(_ token: AccessTokenEntry) -> Bool {
        let now = configuration.clock.now()
        return token.expiresOn > now.addingTimeInterval(configuration.tokenExpirationBuffer)
            && token.cachedAt <= now.addingTimeInterval(IDTokenValidator.skew)
    }

    private func cachedToken(_ resource: String) async throws -> AccessTokenEntry? {
        try await tokens.accessToken(
            homeAccountID: "", clientID: identity.cacheID, realm: Self.realm, environments: [Self.environment],
            scopes: [resource])
    }

    /// One request per resource at a time in this process; with a shared store, one per identity across processes.
    private func request(_ resource: String, key: String, revoked: String?) async throws -> AppTokenResult {
        try await requests.run("\(resource)|\(key)") {
            try await configuration.cache.whileRefreshing(.appTokens(clientID: identity.cacheID, tenant: Self.realm)) {
                try await fetch(resource, revoked: revoked)
            }
        }
    }

    private func fetch(_ resource: String, revoked: String?) async throws -> AppTokenResult {
        let correlationID = correlationIDs.next()
        let request = try ManagedIdentityRequest(
            endpoint: endpoint, identity: identity, resource: resource,
            capabilities: configuration.clientCapabilities, revokedToken: revoked, correlationID: correlationID
        ).httpRequest()
        log.info(
            "requesting a managed identity token",
            ["source": endpoint.source.rawValue, "correlation_id": correlationID.uuidString],
            pii: ["identity": "\(identity)", "resource": resource])
        var response = try await send(request)
        if endpoint.source == .azureArc, response.status == 401 {
            let key = try AzureArcChallenge.key(answering: response, folder: configuration.arcKeyFolder)
            var answered = request
            answered.headers.append((name: "Authorization", value: "Basic \(key)"))
            response = try await send(answered)
        }
        let now = configuration.clock.now()
        guard response.status == 200 else {
            throw ManagedIdentityResponse.error(response, from: endpoint.source, now: now)
        }
        let token = try ManagedIdentityResponse.token(response, from: endpoint.source, now: now)
        let refreshIn = token.refreshIn ?? (token.expiresIn > Self.longLived ? token.expiresIn / 2 : nil)
        let entry = AccessTokenEntry(
            homeAccountID: "", environment: Self.environment, clientID: identity.cacheID, realm: Self.realm,
            target: resource, secret: token.accessToken, cachedAt: now,
            expiresOn: now.addingTimeInterval(token.expiresIn),
            extendedExpiresOn: now.addingTimeInterval(token.expiresIn),
            refreshOn: refreshIn.map { now.addingTimeInterval($0) })
        try await tokens.store(CacheArtefacts(accessToken: entry), replacingRefreshToken: nil)
        return result(entry, resource, source: .identityProvider, correlationID: correlationID)
    }

    /// Sends `request` (over the pinned connection for Service Fabric), again after a pause while the retry policy
    /// allows; returns the last answer, whatever its status.
    private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let transport: any HTTPTransport =
            endpoint.thumbprint.map { PinnedCertificateTransport(thumbprint: $0) } ?? configuration.transport
        var retry = 0
        while true {
            do {
                let response = try await Telemetry.request(request) { try await transport.send($0) }
                guard response.status != 200 else { return response }
                let retryAfter = response.header("Retry-After").flatMap {
                    RetryAfter.seconds($0, now: configuration.clock.now())
                }
                guard
                    let pause = configuration.retryPolicy.pause(
                        beforeRetry: retry, source: endpoint.source, status: response.status, retryAfter: retryAfter)
                else { return response }
                log.warning(
                    "managed identity endpoint answered an error; retrying",
                    ["source": endpoint.source.rawValue, "status": "\(response.status)", "pause": "\(pause)"])
                try await configuration.sleep(pause)
            } catch let error as MSALError where [.timedOut, .transportFailed].contains(error.internalCode) {
                guard
                    let pause = configuration.retryPolicy.pause(
                        beforeRetry: retry, source: endpoint.source, status: nil, retryAfter: nil)
                else { throw error }
                log.warning(
                    "managed identity endpoint did not answer; retrying",
                    ["source": endpoint.source.rawValue, "pause": "\(pause)"])
                try await configuration.sleep(pause)
            }
            retry += 1
        }
    }

    private func result(
        _ entry: AccessTokenEntry, _ resource: String, source: AuthenticationResult.Source, correlationID: UUID
    ) -> AppTokenResult {
        let tenant = (try? JWT(entry.secret))?.claims["tid"] as? String
        return AppTokenResult(
            accessToken: entry.secret, expiresOn: entry.expiresOn, scopes: [resource],
            tenantID: tenant ?? Self.realm, correlationID: correlationID, source: source, refreshOn: entry.refreshOn)
    }
}
