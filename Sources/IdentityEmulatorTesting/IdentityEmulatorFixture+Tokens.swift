import Foundation
import NIOHTTP1

extension IdentityEmulatorFixture {
    /// A user's access token for `api` (its client id or app id URI) with `scopes`, minted without a sign-in
    /// (`POST /_emulator/tokens`), signed with the emulator's keys and shaped as its token endpoint shapes them.
    ///
    /// - Parameters:
    ///   - tenant: the user's tenant (its GUID or domain); the demo directory's workforce tenant by default.
    ///   - user: the user's principal name or object id.
    ///   - client: the app that asked (the API itself by default).
    ///   - groups: group ids (past 200, Entra's overage form).
    ///   - claims: claims added, or replacing those of the same name (JSON values).
    ///   - lifetime: seconds, 60–86,400 (an hour by default).
    /// - Throws: ``IdentityEmulatorFixtureError`` naming what the emulator refused (an unknown tenant, user or API).
    public func accessToken(
        api: String, user: String, scopes: [String], tenant: String = "contoso.onmicrosoft.com",
        client: String? = nil, groups: [String]? = nil, claims: [String: any Sendable] = [:], lifetime: Int? = nil
    ) async throws -> String {
        var order: [String: Any] = ["tenant": tenant, "api": api, "user": user, "scopes": scopes]
        order["client"] = client
        return try await mint(&order, groups: groups, claims: claims, lifetime: lifetime, answer: "access_token")
    }

    /// An app-only access token for `api` as the application `app` (a client id) with `roles` (its granted ones
    /// when `nil`), minted without a client credential.
    ///
    /// - Throws: ``IdentityEmulatorFixtureError`` naming what the emulator refused.
    public func appToken(
        api: String, app: String, roles: [String]? = nil, tenant: String = "contoso.onmicrosoft.com",
        groups: [String]? = nil, claims: [String: any Sendable] = [:], lifetime: Int? = nil
    ) async throws -> String {
        var order: [String: Any] = ["tenant": tenant, "api": api, "app": app]
        order["roles"] = roles
        return try await mint(&order, groups: groups, claims: claims, lifetime: lifetime, answer: "access_token")
    }

    /// An ID token for the application `app`, `user` signed in, minted without a sign-in.
    ///
    /// - Throws: ``IdentityEmulatorFixtureError`` naming what the emulator refused.
    public func idToken(
        app: String, user: String, tenant: String = "contoso.onmicrosoft.com", claims: [String: any Sendable] = [:]
    ) async throws -> String {
        var order: [String: Any] = ["tenant": tenant, "api": app, "user": user, "type": "id"]
        return try await mint(&order, groups: nil, claims: claims, lifetime: nil, answer: "id_token")
    }

    /// Makes the next `count` access tokens the token endpoint issues to `user` (a principal name or object id), to
    /// `client` (a client id), or to that user in that client, carry `claims` (`groups`, `roles`, `wids`, `acr`,
    /// `amr`, `xms_cc`, optional claims), replacing those of the same name.
    ///
    /// - Throws: ``IdentityEmulatorFixtureError`` naming what the emulator refused.
    public func claimsForNextTokens(
        _ claims: [String: any Sendable], user: String? = nil, client: String? = nil, count: Int = 1
    ) async throws {
        var order: [String: Any] = ["claims": claims, "count": count]
        order["user"] = user
        order["client"] = client
        _ = try await object(.POST, "_emulator/claims", json: order, expected: 201)
    }

    private func mint(
        _ order: inout [String: Any], groups: [String]?, claims: [String: any Sendable], lifetime: Int?, answer: String
    ) async throws -> String {
        order["groups"] = groups
        order["lifetimeSeconds"] = lifetime
        if !claims.isEmpty { order["claims"] = claims }
        guard let token = try await object(.POST, "_emulator/tokens", json: order)[answer] as? String else {
            throw IdentityEmulatorFixtureError(description: "POST /_emulator/tokens answered no \(answer)")
        }
        return token
    }
}
