import Foundation

/// The device authorization grant (RFC 8628): show a code, poll until the user signs in elsewhere.
struct DeviceCodeFlow: Sendable {
    let app: ApplicationCore
    let cache: TokenCache

    func run(
        scopes: [String], authority: Authority?, claims: String?, extraQueryParameters: [String: String] = [:],
        onCode: @Sendable (DeviceCodeInfo) async throws -> Void
    ) async throws -> AuthenticationResult {
        let config = app.settings
        let correlationID = app.correlationIDs.next()
        let endpoints = try await app.resolver.endpoints(for: authority ?? config.authority, online: true)
        let deviceEndpoint =
            endpoints.deviceAuthorization
            ?? URL(string: endpoints.token.absoluteString.replacingOccurrences(of: "/token", with: "/devicecode"))!
        let merged = try app.claims(claims)
        let start = DeviceAuthorizationRequest(clientID: config.clientID, scopes: scopes, claims: merged)
        let info = try await app.client.deviceAuthorization(
            start, endpoint: ExtraQueryParameters.appending(extraQueryParameters, to: deviceEndpoint),
            correlationID: correlationID)
        try await onCode(info)
        let deadline = config.clock.now().addingTimeInterval(TimeInterval(info.expiresIn))
        var interval = info.interval
        let poll = DeviceCodeTokenRequest(
            clientID: config.clientID, deviceCode: info.deviceCode, scopes: scopes, claims: merged)
        while true {
            try Task.checkCancellation()
            guard config.clock.now() < deadline else {
                throw MSALError.internal(.timedOut, "The device code expired before the user signed in.")
            }
            try await config.sleep(.seconds(interval))
            do {
                return try await app.redeem(
                    poll,
                    .init(
                        endpoints: endpoints, requestedScopes: scopes, nonce: nil, expectedObjectID: nil,
                        grant: poll.grantType, usedRefreshToken: nil, correlationID: correlationID,
                        cacheForAccount: { [cache] _ in cache }, extraQueryParameters: extraQueryParameters))
            } catch let error as MSALError where error.oauthError == "authorization_pending" {
                continue
            } catch let error as MSALError where error.oauthError == "slow_down" {
                interval += 5
            } catch let error as MSALError where error.oauthError == "authorization_declined" {
                throw MSALError(
                    .userCanceled, "The user declined the sign-in on the device code page.",
                    oauthError: error.oauthError,
                    stsErrorCodes: error.stsErrorCodes, correlationID: correlationID)
            } catch let error as MSALError where error.oauthError == "expired_token" {
                throw MSALError(
                    .timedOut, "The device code expired before the user signed in.", oauthError: error.oauthError,
                    stsErrorCodes: error.stsErrorCodes)
            }
        }
    }
}
