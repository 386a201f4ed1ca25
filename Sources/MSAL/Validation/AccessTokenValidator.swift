import Foundation
import Logging

/// Validates the bearer tokens a web API receives, as Microsoft.Identity.Web does: an RS256 signature from the
/// authority's published keys, the issuer (v1 `https://sts.windows.net/{tid}/` or v2 `{instance}/{tid}/v2.0`),
/// the tenant (one, or an allow-list for multi-tenant APIs), the audience (the API's client id or app id URI),
/// `exp`/`nbf` with clock skew, the calling app (`azp` or `appid`, which ID tokens lack), and at least one permission:
/// a scope (`scp`) or an app role (`roles`), unless the API authorizes by access-control list
/// (``Configuration/allowsAuthorizationByACL``).
///
///     let validator = try AccessTokenValidator(
///         authority: "https://login.microsoftonline.com/contoso.onmicrosoft.com",
///         audiences: ["api://b7c4e1a9-…", "b7c4e1a9-…"])
///     let token = try await validator.validate(bearer)   // throws AccessTokenRejection
///     guard token.scopes.contains("ToDoList.Read") else { … }
///
/// The authority's OpenID configuration and keys are fetched as MSAL fetches them for ID tokens (its request headers,
/// one retry of a 5xx or a short 429): on first use, again after 24 hours, and the keys on rollover, at most once per
/// ``Configuration/keyRefetchInterval`` however many unknown key ids arrive; for 5 seconds after a failed fetch, tokens
/// are refused at once (``AccessTokenRejection/Reason-swift.enum/keysUnavailable``). A token that passed is remembered until it expires, so a client
/// sending the same token again costs a hash and a lookup, not an RSA verification.
public final class AccessTokenValidator: Sendable {
    /// What the API accepts.
    public struct Configuration: Sendable {
        /// The authority whose tokens are accepted: a tenant, or `organizations`/`common` for a multi-tenant API.
        public var authority: Authority
        /// The API's client id and app id URI (`aud` must be one of them; compared ignoring case).
        public var audiences: [String]
        /// For a multi-tenant authority, the tenants (`tid`) accepted; `nil` accepts any.
        public var allowedTenants: Set<String>?
        /// Allowed difference between the issuer's clock and this one, for `exp` and `nbf` (5 minutes).
        public var clockSkew: TimeInterval = 300
        /// The least time between two fetches of the keys caused by unknown key ids (5 minutes).
        public var keyRefetchInterval: TimeInterval = 300
        /// How many validated tokens are remembered (by hash) until they expire.
        public var rememberedTokens = 10_000
        /// Whether a token with neither `scp` nor `roles` is accepted (`false`): only for an API that authorizes its
        /// callers itself, by an access-control list of their object or client ids (Microsoft.Identity.Web's
        /// `AllowWebApiToBeAuthorizedByACL`). Otherwise such a token, say the ID token of an app that shares its
        /// registration with the API, is refused with ``AccessTokenRejection/Reason-swift.enum/noPermissions``.
        public var allowsAuthorizationByACL = false
        /// Where metadata and keys are fetched.
        public var transport: any HTTPTransport
        /// The time `exp` and `nbf` are compared with.
        public var clock: any TimeSource = SystemTimeSource()

        /// What an API at `authority` with these audiences accepts, fetching keys with a ``DefaultHTTPTransport``.
        ///
        /// - Throws: ``MSALError`` when the default transport cannot be made (its TLS configuration).
        public init(authority: Authority, audiences: [String], allowedTenants: Set<String>? = nil) throws {
            self.authority = authority
            self.audiences = audiences
            self.allowedTenants = allowedTenants
            transport = try DefaultHTTPTransport()
        }
    }

    /// What the API accepts.
    public let configuration: Configuration
    private let verifier: JWTVerifier
    private let remembered: RememberedTokens
    private let audiences: Set<String>

    /// A validator for `configuration`; nothing is fetched until the first token.
    public init(configuration: Configuration) {
        self.configuration = configuration
        let client = IdentityPlatformClient(
            transport: configuration.transport, clock: configuration.clock, sleep: { try await Task.sleep(for: $0) },
            logger: Logger(label: "MSAL", factory: { _ in SwiftLogNoOpLogHandler() }), correlationIDs: CorrelationIDs())
        verifier = JWTVerifier(
            keys: SigningKeyStore(
                client: client, clock: configuration.clock,
                policy: SigningKeyStore.Policy(refetchInterval: configuration.keyRefetchInterval)),
            clock: configuration.clock)
        remembered = RememberedTokens(capacity: configuration.rememberedTokens)
        audiences = Set(configuration.audiences.map { $0.lowercased() })
    }

    /// A validator for the tokens of `authority` (a URL) meant for `audiences`.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` when `authority` is not a valid authority URL.
    public convenience init(authority: String, audiences: [String], allowedTenants: Set<String>? = nil) throws {
        try self.init(
            configuration: try Configuration(
                authority: try Authority(authority), audiences: audiences, allowedTenants: allowedTenants))
    }

    /// The token, validated.
    ///
    /// - Throws: ``AccessTokenRejection`` naming the check that failed.
    public func validate(_ token: String) async throws -> ValidatedAccessToken {
        try await validate(token[...])
    }

    /// The token, validated; a remembered token is found without copying it out of the request's header.
    ///
    /// - Throws: ``AccessTokenRejection`` naming the check that failed.
    package func validate(_ token: Substring) async throws -> ValidatedAccessToken {
        if let known = rememberedToken(token) { return known }
        do {
            let validated = try await check(token)
            Telemetry.tokenValidation("accepted")
            return validated
        } catch let rejection as AccessTokenRejection {
            Telemetry.tokenValidation(rejection.reason.rawValue)
            throw rejection
        }
    }

    /// The token, when it passed before and has not expired since: the key and the lookup are the check, with no
    /// suspension, so a framework can answer it on the thread that read the request. `nil` when it must be validated.
    package func rememberedToken(_ token: Substring) -> ValidatedAccessToken? {
        // Remembered only until it expires (with the skew), and `nbf` had passed when it was first checked.
        guard let known = remembered.token(Self.key(token), text: token, now: configuration.clock.now()) else {
            return nil
        }
        Telemetry.tokenValidation("accepted")
        return known
    }

    /// The key a token is remembered under: the process's randomly seeded hash (Swift's `Hasher`) of its last 64
    /// bytes, read in place: part of its signature, which is as random as its key is large. ``RememberedTokens``
    /// recognises a token by its whole text, so two tokens under one key are never taken for each other: the later
    /// one takes the place, and the earlier is validated again.
    private static func key(_ token: Substring) -> Int {
        let key = token.utf8.withContiguousStorageIfAvailable { bytes in
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(64))))
            return hasher.finalize()
        }
        // A bridged string's bytes are not contiguous; a native copy's are.
        return key ?? Self.key(String(token)[...])
    }

    /// Validates a token that is not remembered, and remembers it when it passes.
    private func check(_ token: Substring) async throws -> ValidatedAccessToken {
        let now = configuration.clock.now()
        let key = Self.key(token)
        let token = String(token)
        let jwt: JWT
        do {
            jwt = try JWT(token)
        } catch {
            throw AccessTokenRejection(.malformed, "The token is not a well-formed JWT.")
        }
        var issuer = ""
        do {
            try await verifier.verify(jwt) {
                let metadata = try await issuerMetadata()
                issuer = metadata.issuer
                return JWTVerifier.Expectations(
                    jwksURI: metadata.jwksURI, issuers: [metadata.issuer, Self.v1Issuer], audiences: audiences,
                    audiencesIgnoreCase: true, skew: configuration.clockSkew, requiresIssuedAt: false)
            }
        } catch let failure as JWTVerifier.Failure {
            throw Self.rejection(failure)
        }
        try checkTenant(jwt, issuer: issuer)
        let validated = ValidatedAccessToken(rawValue: token, claims: jwt.claims)
        guard configuration.allowsAuthorizationByACL || !validated.scopes.isEmpty || !validated.roles.isEmpty else {
            throw AccessTokenRejection(.noPermissions, "The token has neither a scope (scp) nor an app role (roles).")
        }
        guard validated.clientID != nil else {
            throw AccessTokenRejection(.noClient, "The token names no client application (azp or appid).")
        }
        remembered.remember(validated, key: key, until: validated.expiresOn + configuration.clockSkew, now: now)
        return validated
    }

    /// Entra's v1 issuer, for the token's tenant.
    private static let v1Issuer = "https://sts.windows.net/{tenantid}/"

    /// The authority's issuer and key-set location.
    ///
    /// - Throws: ``AccessTokenRejection`` `keysUnavailable` when they cannot be fetched.
    private func issuerMetadata() async throws -> IssuerMetadata {
        do throws(SigningKeyStore.Failure) {
            return try await verifier.keys.issuerMetadata(configuration.authority)
        } catch {
            switch error {
            case .unavailable(let error, let recent): throw Self.unavailable(error, recent: recent)
            case .unknownKey: throw Self.unavailable(error, recent: false)
            }
        }
    }

    /// The token's tenant (`tid`) is accepted: one of ``Configuration/allowedTenants`` for a multi-tenant authority
    /// (`issuer` has `{tenantid}`), the authority's own otherwise (a v1 token names no authority in its issuer).
    private func checkTenant(_ jwt: JWT, issuer: String) throws {
        guard let tid = jwt.string("tid") else {
            throw AccessTokenRejection(.wrongIssuer, "The token has no issuer or tenant.")
        }
        if issuer.contains("{tenantid}") {
            if let allowed = configuration.allowedTenants,
                !allowed.contains(where: { $0.lowercased() == tid.lowercased() })
            {
                throw AccessTokenRejection(.tenantNotAllowed, "The token's tenant is not among those this API accepts.")
            }
        } else if !issuer.lowercased().contains("/\(tid.lowercased())/") {
            throw AccessTokenRejection(.tenantNotAllowed, "The token's tenant is not this API's.")
        }
    }

    /// The rejection for a failed check. The header's `alg` is the caller's text: it goes into no message.
    private static func rejection(_ failure: JWTVerifier.Failure) -> AccessTokenRejection {
        switch failure {
        case .unsupportedAlgorithm: AccessTokenRejection(.unsupportedAlgorithm, "The token is not signed with RS256.")
        case .noKeyID: AccessTokenRejection(.unknownKey, "The token's header names no key (kid).")
        case .unknownKey:
            AccessTokenRejection(.unknownKey, "The token is signed with a key the authority does not publish.")
        case .keysUnavailable(let error, let recent): unavailable(error, recent: recent)
        case .badSignature: AccessTokenRejection(.badSignature, "The token's signature does not verify.")
        case .wrongIssuer(nil, _): AccessTokenRejection(.wrongIssuer, "The token has no issuer or tenant.")
        case .wrongIssuer: AccessTokenRejection(.wrongIssuer, "The token's issuer is not this API's authority.")
        case .wrongAudience: AccessTokenRejection(.wrongAudience, "The token is for another audience than this API.")
        case .expired, .noIssuedAt: AccessTokenRejection(.expired, "The token has expired.")
        case .notYetValid, .issuedInFuture: AccessTokenRejection(.notYetValid, "The token is not valid yet.")
        }
    }

    /// `keysUnavailable`, with why for the API's logs (the authority's URLs, the answer).
    private static func unavailable(_ error: any Error, recent: Bool) -> AccessTokenRejection {
        guard !recent else {
            return AccessTokenRejection(
                .keysUnavailable, "The authority's signing keys could not be fetched a moment ago.")
        }
        let why =
            (error as? MSALError)?.message ?? "The authority's metadata or signing keys could not be fetched: \(error)"
        return AccessTokenRejection(.keysUnavailable, why)
    }
}
