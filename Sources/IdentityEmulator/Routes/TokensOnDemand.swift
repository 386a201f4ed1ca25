import Foundation
import Hummingbird
import OutsideJSON

/// Tokens for API tests without a sign-in, under `/_emulator/` (loopback only, JSON bodies):
///
/// - `POST tokens`: an access token for an API (`api`: its client id or app id URI) in `tenant`, as a `user` (user
///   principal name or object id; `client` names the app that asked, the API itself by default) with `scopes`, or
///   as an `app` (a client id) with `roles` (its granted ones by default); `groups` (past 200, the overage form,
///   the list then served by Graph's `getMemberObjects`) and any other `claims` added or replaced;
///   `lifetimeSeconds` (an hour by default); with `"type": "id"`, an ID token for the app `api` names instead.
///   Signed with the emulator's keys, shaped as the token endpoint shapes it: no consent or grant is needed, and
///   nothing is remembered but the groups given.
/// - `POST claims`: claims added to (or changed in) the next `count` access tokens the token endpoint issues to a
///   `user` or a `client` (``ClaimsForNextTokens``).
struct TokensOnDemand: Sendable {
    let core: EmulatorCore

    /// What `POST tokens` asks for.
    struct TokenOrder: Decodable {
        var tenant: String
        var api: String
        var user: String?
        var app: String?
        var client: String?
        var scopes: [String]?
        var roles: [String]?
        var groups: [String]?
        var claims: JSONValue?
        var lifetimeSeconds: Int?
        /// `access` (the default) or `id`: an ID token for the app `api` names, signed in as `user`.
        var type: String?
    }

    func register(on admin: RouterGroup<EmulatorRequestContext>) {
        Self.post("tokens", on: admin, usage: Self.tokenUsage, status: .ok) { (order: TokenOrder) in
            try await mint(order)
        }
        Self.post("claims", on: admin, usage: Self.claimsUsage, status: .created) {
            (order: ClaimsForNextTokens.Order) in try await queue(order)
        }
    }

    /// `POST path`: its JSON body decoded as an `Order` and answered with what `handle` makes; a body that is not
    /// one, or an order `handle` refuses (``AdminBodyError``), is answered 400 saying why.
    private static func post<Order: Decodable>(
        _ path: String, on admin: RouterGroup<EmulatorRequestContext>, usage: String, status: HTTPResponse.Status,
        _ handle: @escaping @Sendable (Order) async throws -> JSONValue
    ) {
        admin.post(RouterPath(stringLiteral: path)) { request, context in
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            let refusal: String
            do {
                let order = try JSONLimits.message.decode(Order.self, from: Data(buffer: body))
                return HTTPExchange.json(try await handle(order), status: status)
            } catch let error as AdminBodyError {
                refusal = error.description
            } catch let error as JSONRefusal {
                refusal = "the body \(error)"
            } catch is DecodingError {
                refusal = usage
            }
            return HTTPExchange.json(.object([("error", .string(refusal))]), status: .badRequest)
        }
    }

    static let tokenUsage =
        #"expected {"tenant": id or domain, "api": client id or app id URI, "user": UPN or object id | "app": client id, "#
        + #""client"?, "scopes"?: [..], "roles"?: [..], "groups"?: [..], "claims"?: {..}, "lifetimeSeconds"?, "type"?}"#
    static let claimsUsage =
        #"expected {"user": UPN or object id and/or "client": client id, "claims": {..}, "count"?: number}"#

    /// Signs the token `order` describes.
    ///
    /// - Throws: ``AdminBodyError`` naming what is unknown or missing.
    func mint(_ order: TokenOrder) async throws -> JSONValue {
        let index = core.state.index
        guard let tenant = index.tenant(id: order.tenant) else {
            throw AdminBodyError("no tenant \(order.tenant) in the directory")
        }
        guard let api = index.api(identifier: order.api) ?? index.application(clientID: order.api) else {
            throw AdminBodyError("no application \(order.api) in the directory")
        }
        let lifetime = order.lifetimeSeconds ?? 3600
        guard (60...86_400).contains(lifetime) else {
            throw AdminBodyError("lifetimeSeconds must be between 60 and 86400")
        }
        var extra: [(String, JSONValue)] = []
        if let claims = order.claims {
            guard case .object(let members) = claims else { throw AdminBodyError("claims must be a JSON object") }
            extra += members
        }
        let now = core.state.now
        if order.type == "id" { return try idToken(order, for: api, extra: extra, now: now) }
        guard order.type == nil || order.type == "access" else {
            throw AdminBodyError("type must be access or id")
        }
        let token: String
        switch (order.user, order.app) {
        case (let name?, nil):
            guard let user = index.user(named: name) ?? index.user(objectID: name) else {
                throw AdminBodyError("no user \(name) in the directory")
            }
            guard let membership = index.membership(of: user, tenantID: tenant.id) else {
                throw AdminBodyError("\(user.userPrincipalName) is not a member of tenant \(tenant.id)")
            }
            let clientID = order.client ?? api.clientId
            guard let client = index.application(clientID: clientID) else {
                throw AdminBodyError("no application \(clientID) in the directory")
            }
            if let roles = order.roles { extra.insert(("roles", .array(roles.map(JSONValue.string))), at: 0) }
            extra.insert(contentsOf: await groups(order.groups, objectID: membership.objectID), at: 0)
            token = try signed {
                try core.issuer.accessToken(
                    origin: core.issuerOrigin, membership: membership, client: client, resource: api,
                    scp: (order.scopes ?? []).joined(separator: " "), now: now, lifetime: lifetime,
                    capabilityCP1: false, uti: core.state.opaque(16), clientClass: "0", extra: extra)
            }
        case (nil, let clientID?):
            guard let client = index.application(clientID: clientID) else {
                throw AdminBodyError("no application \(clientID) in the directory")
            }
            let principal = TokenIssuer.servicePrincipalID(client.clientId)
            extra.insert(contentsOf: await groups(order.groups, objectID: principal), at: 0)
            token = try signed {
                try core.issuer.appToken(
                    origin: core.issuerOrigin, tenantID: tenant.id, client: client, resource: api,
                    roles: order.roles ?? index.grantedRoles(of: client, on: api), clientClass: "1", now: now,
                    lifetime: lifetime, uti: core.state.opaque(16), extra: extra)
            }
        default:
            throw AdminBodyError("name either a user or an app, not both or neither")
        }
        return .object([
            ("token_type", .string("Bearer")), ("expires_in", .int(lifetime)),
            ("expires_on", .int(now.epochSeconds + lifetime)), ("access_token", .string(token)),
        ])
    }

    /// An ID token for `app` (its audience), for the user `order` names: an hour long, as the token endpoint's.
    ///
    /// - Throws: ``AdminBodyError`` naming what is unknown or missing.
    private func idToken(_ order: TokenOrder, for app: Application, extra: [(String, JSONValue)], now: Date) throws
        -> JSONValue
    {
        let index = core.state.index
        guard let name = order.user, order.app == nil else { throw AdminBodyError("an ID token names a user") }
        guard let user = index.user(named: name) ?? index.user(objectID: name),
            let tenant = index.tenant(id: order.tenant),
            let membership = index.membership(of: user, tenantID: tenant.id)
        else {
            throw AdminBodyError("no user \(name) in tenant \(order.tenant)")
        }
        let scopes: ScopeSet
        do {
            scopes = try ScopeSet(parsing: "openid profile email", index: index)
        } catch {
            throw AdminBodyError("the ID token's scopes could not be read")
        }
        let token = try signed {
            try core.issuer.idToken(
                origin: core.issuerOrigin, membership: membership, clientID: app.clientId, nonce: nil, scopes: scopes,
                now: now, fault: nil, otherUser: nil, extra: extra)
        }
        return .object([("id_token", .string(token)), ("expires_in", .int(3600))])
    }

    /// Queues the claims of `order`.
    ///
    /// - Throws: ``AdminBodyError`` naming what is unknown or missing.
    func queue(_ order: ClaimsForNextTokens.Order) async throws -> JSONValue {
        let index = core.state.index
        guard order.user != nil || order.client != nil else { throw AdminBodyError(Self.claimsUsage) }
        var userID: String?
        if let name = order.user {
            guard let user = index.user(named: name) ?? index.user(objectID: name) else {
                throw AdminBodyError("no user \(name) in the directory")
            }
            userID = user.id
        }
        if let client = order.client, index.application(clientID: client) == nil {
            throw AdminBodyError("no application \(client) in the directory")
        }
        guard case .object(var claims) = order.claims, !claims.isEmpty else {
            throw AdminBodyError("claims must be a JSON object with at least one claim")
        }
        if let userID, let index = claims.firstIndex(where: { $0.0 == "groups" }),
            case .array(let values) = claims[index].1
        {
            claims.replaceSubrange(
                index...index, with: await groups(values.compactMap(\.stringValue), objectID: userID))
        }
        let count = order.count ?? 1
        guard (1...10_000).contains(count) else { throw AdminBodyError("count must be between 1 and 10000") }
        await core.state.queueClaims(userID: userID, clientID: order.client, claims: claims, count: count)
        return .object([("queued", .array(claims.map { .string($0.0) })), ("count", .int(count))])
    }

    /// The groups claims for `objectID` (the overage form past ``GroupsClaim/limit``), the groups recorded for
    /// Graph's `getMemberObjects`; none when `groups` is `nil`.
    private func groups(_ groups: [String]?, objectID: String) async -> [(String, JSONValue)] {
        guard let groups else { return [] }
        await core.state.setGroups(groups, objectID: objectID)
        return GroupsClaim.claims(groups, objectID: objectID, origin: core.issuerOrigin)
    }

    /// Signs with the emulator's keys, or says why it could not.
    private func signed(_ sign: () throws -> String) throws -> String {
        do {
            return try sign()
        } catch {
            throw AdminBodyError("the token could not be signed: \(error)")
        }
    }
}
