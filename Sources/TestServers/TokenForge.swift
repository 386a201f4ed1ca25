import Crypto
import Foundation
import Locking
import MSAL
import _CryptoExtras

/// An identity provider for validation tests: RSA keys it publishes (or not), the tokens it signs, and the
/// OpenID configuration and key set a validator fetches, served by ``transport`` without a network.
package final class TokenForge: Sendable {
    package static let instance = "https://login.example.test"
    package static let api = "b7c4e1a9-6d2f-4e8b-a3c5-1f9d0e7b2a64"
    package static let otherAPI = "e3f9a6d2-1c8b-4a7e-b5d0-9c2e4f6a8b13"
    package static let tenant = "c1a2b3d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
    package static let otherTenant = "3f6c9a2e-7b14-4d8e-a5c2-91e0b7d4f386"

    package struct Key {
        package let id: String
        package let privateKey: _RSA.Signing.PrivateKey
    }

    private struct State {
        var published: [Key]
        var keySetFetches = 0
        var discoveryFails = false
        var requests: [HTTPRequest] = []
    }

    package let signing: Key
    private let state: Locked<State>

    package init() throws {
        signing = Key(id: "key-1", privateKey: try _RSA.Signing.PrivateKey(keySize: .bits2048))
        state = Locked(State(published: [signing]))
    }

    /// How many times the key set was fetched.
    package var keySetFetches: Int { state.withLock { $0.keySetFetches } }

    /// The requests the validator sent, in order.
    package var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// Publishes `key` besides the others (a rollover).
    package func publish(_ key: Key) { state.withLock { $0.published.append(key) } }

    /// Makes discovery answer 500 (with `Retry-After: 0`, so the validator's one retry comes at once).
    package func failDiscovery() { state.withLock { $0.discoveryFails = true } }

    /// A new key, not yet published.
    package static func newKey(_ id: String) throws -> Key {
        Key(id: id, privateKey: try _RSA.Signing.PrivateKey(keySize: .bits2048))
    }

    /// Claims of a delegated v2 token for the API, from the tenant, valid for an hour from `now`.
    package static func userClaims(now: Date, scopes: String = "ToDoList.Read") -> [String: Any] {
        let seconds = Int(now.timeIntervalSince1970)
        return [
            "aud": api, "iss": "\(instance)/\(tenant)/v2.0", "tid": tenant, "oid": "user-oid", "sub": "user-sub",
            "azp": "client-app", "scp": scopes, "ver": "2.0", "iat": seconds, "nbf": seconds, "exp": seconds + 3600,
            "preferred_username": "jane@example.com",
        ]
    }

    /// Claims of an app-only v2 token for the API with `roles`.
    package static func appClaims(now: Date, roles: [String]) -> [String: Any] {
        let seconds = Int(now.timeIntervalSince1970)
        return [
            "aud": api, "iss": "\(instance)/\(tenant)/v2.0", "tid": tenant, "oid": "daemon-sp", "sub": "daemon-sp",
            "azp": "daemon-app", "roles": roles, "idtyp": "app", "ver": "2.0", "iat": seconds, "nbf": seconds,
            "exp": seconds + 3600,
        ]
    }

    /// A JWS over `claims`: RS256 with `key` (the signing key unless told), or the header given.
    package func token(_ claims: [String: Any], key: Key? = nil, header: [String: Any]? = nil) throws -> String {
        let key = key ?? signing
        let header = header ?? ["typ": "JWT", "alg": "RS256", "kid": key.id]
        let input =
            Self.base64URL(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])) + "."
            + Self.base64URL(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        let signature = try key.privateKey.signature(
            for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
        return input + "." + Self.base64URL(signature.rawRepresentation)
    }

    package static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Answers `/{tenant}/v2.0/.well-known/openid-configuration` (the issuer with `{tenantid}` for `organizations`)
    /// and `/discovery/v2.0/keys`.
    package var transport: any HTTPTransport { ForgeTransport(forge: self) }

    fileprivate func answer(_ request: HTTPRequest) throws -> (HTTPResponse, Data) {
        state.withLock { $0.requests.append(request) }
        let path = request.url?.path ?? ""
        if path.hasSuffix("/v2.0/.well-known/openid-configuration") {
            if state.withLock({ $0.discoveryFails }) {
                return (HTTPResponse(status: .internalServerError, headerFields: [.retryAfter: "0"]), Data())
            }
            let segment = path.split(separator: "/").first.map(String.init) ?? ""
            let tenant = segment == "organizations" || segment == "common" ? "{tenantid}" : segment
            return try Self.json([
                "issuer": "\(Self.instance)/\(tenant)/v2.0", "jwks_uri": "\(Self.instance)/discovery/v2.0/keys",
            ])
        }
        if path == "/discovery/v2.0/keys" {
            let keys = state.withLock { state in
                state.keySetFetches += 1
                return state.published
            }
            return try Self.json([
                "keys": try keys.map { key -> [String: Any] in
                    let primitives = try key.privateKey.publicKey.getKeyPrimitives()
                    return [
                        "kty": "RSA", "use": "sig", "kid": key.id, "n": Self.base64URL(primitives.modulus),
                        "e": Self.base64URL(primitives.publicExponent),
                    ]
                }
            ])
        }
        return (HTTPResponse(status: .notFound), Data())
    }

    private static func json(_ object: [String: Any]) throws -> (HTTPResponse, Data) {
        (
            HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
            try JSONSerialization.data(withJSONObject: object)
        )
    }
}

private struct ForgeTransport: HTTPTransport {
    let forge: TokenForge

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) { try forge.answer(request) }
}

/// A clock tests move.
package final class ManualClock: TimeSource {
    private let current = Locked(Date(timeIntervalSince1970: 1_795_000_000))

    /// A clock at a fixed time.
    package init() {}

    package func now() -> Date { current.withLock { $0 } }

    package func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
