import Foundation

/// A fault to inject into the next `count` requests to a route (`POST /_emulator/scenarios`).
public struct Scenario: Codable, Sendable {
    /// The endpoints a scenario can target.
    public enum Route: String, Codable, Sendable, CaseIterable {
        case token, authorize, devicecode, discovery, keys, instance, logout, graph, api, managedIdentity, any

        /// Classifies a request path.
        static func of(path: String) -> Route? {
            if path.hasSuffix("/oauth2/v2.0/token") { return .token }
            if path.hasSuffix("/oauth2/v2.0/authorize") { return .authorize }
            if path.hasSuffix("/oauth2/v2.0/devicecode") { return .devicecode }
            if path.hasSuffix("/oauth2/v2.0/logout") { return .logout }
            if path.hasSuffix("/.well-known/openid-configuration") { return .discovery }
            if path.hasSuffix("/discovery/v2.0/keys") { return .keys }
            if path.hasSuffix("/discovery/instance") { return .instance }
            if path.hasPrefix("/v1.0/") { return .graph }
            if path.hasPrefix("/api1/") || path.hasPrefix("/api2/") { return .api }
            if path.hasPrefix("/hosts/") || path.hasPrefix("/metadata/") { return .managedIdentity }
            return nil
        }
    }

    public enum Fault: String, Codable, Sendable, CaseIterable {
        /// 429 with `Retry-After` (``Scenario/retryAfter``: seconds, or an HTTP date).
        case throttle
        /// 500 with an Entra error body.
        case serverError
        /// 503 with an Entra error body.
        case serviceUnavailable
        /// 410 Gone, as IMDS answers while it restarts ("available within 70 seconds").
        case gone
        /// Answers normally after ``Scenario/delayMilliseconds``.
        case delay
        /// 200 with a body that is not JSON.
        case malformedJSON
        /// 502 with an HTML error page, as a failing proxy sends.
        case htmlError
        /// 200 with JSON cut off midway.
        case truncatedBody
        /// 200 with a 50 MB body, more than any client should read.
        case hugeBody
        /// 200 whose JSON body arrives a few bytes at a time (``Scenario/delayMilliseconds`` apart, 100 ms by default).
        case slowDrip
        /// The authorize redirect carries a different `state`.
        case wrongState
        /// The authorize redirect carries a code issued to another client (the token endpoint then refuses it).
        case codeForAnotherClient
        /// The ID token's signature does not verify.
        case idTokenBadSignature
        /// The ID token is unsigned (`alg: none`).
        case idTokenAlgNone
        /// The ID token's `nonce` differs from the request's.
        case idTokenWrongNonce
        /// The ID token has no `nonce` although the request sent one.
        case idTokenMissingNonce
        /// The ID token is signed by a key the JWKS does not publish (its `kid` is unknown).
        case idTokenUnknownKid
        /// The ID token's `aud` is another client.
        case idTokenWrongAudience
        /// The ID token's `iss` is another host.
        case idTokenWrongIssuer
        /// The ID token expired an hour ago.
        case idTokenExpired
        /// The ID token's `iat` and `nbf` are an hour ahead.
        case idTokenIssuedInFuture
        /// The ID token is for a different user than the grant.
        case idTokenOtherUser
        /// The token response lacks `token_type`.
        case missingTokenType
        /// The token response has `token_type: pop`.
        case nonBearerTokenType
        /// Device-code polls answer `slow_down`.
        case slowDown
        /// The token grants every requested resource scope but the last (a declined scope).
        case declineScopes
        /// A user-token grant (on-behalf-of, refresh, code…) answers `interaction_required` AADSTS50079 with a
        /// `claims` challenge (a JSON string), as conditional access demanding MFA does.
        case multifactorRequired
    }

    public var route: Route
    public var fault: Fault
    /// How many matching requests misbehave (default 1).
    public var count: Int
    /// For ``Fault/throttle``: the `Retry-After` value (default `"1"`).
    public var retryAfter: String?
    /// For ``Fault/delay``.
    public var delayMilliseconds: Int?

    public init(route: Route, fault: Fault, count: Int = 1, retryAfter: String? = nil, delayMilliseconds: Int? = nil) {
        self.route = route
        self.fault = fault
        self.count = count
        self.retryAfter = retryAfter
        self.delayMilliseconds = delayMilliseconds
    }

    enum CodingKeys: String, CodingKey { case route, fault, count, retryAfter, delayMilliseconds }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        route = try c.decode(Route.self, forKey: .route)
        fault = try c.decode(Fault.self, forKey: .fault)
        count = try c.decodeIfPresent(Int.self, forKey: .count) ?? 1
        retryAfter = try c.decodeIfPresent(String.self, forKey: .retryAfter)
        delayMilliseconds = try c.decodeIfPresent(Int.self, forKey: .delayMilliseconds)
    }

    /// Faults that change the whole HTTP response rather than a token's content.
    var isTransportFault: Bool {
        switch fault {
        case .throttle, .serverError, .serviceUnavailable, .gone, .delay, .malformedJSON, .htmlError, .truncatedBody,
            .hugeBody, .slowDrip:
            true
        default: false
        }
    }
}
