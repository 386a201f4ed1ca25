// The access-token validator (`AccessTokenValidator.validate`), as a protected API runs it on every bearer token,
// against an authority served in-process (its OpenID configuration and key set) on a fixed clock.
//
// Input: a mode byte, then the rest. Even mode: the rest is the token text. Odd mode: the rest is a header and
// claims (before and after the first newline), base64url-encoded and signed RS256 with the key the authority
// publishes, so mutations reach the checks after the signature (algorithm, issuer, tenant, audience, lifetime,
// permissions) instead of dying at it.
import Crypto
import Foundation
import FuzzSupport
import _CryptoExtras

@testable import MSAL

@main
enum FuzzAccessToken {
    static func main() { runFuzzer(fuzzAccessToken) }
}

/// What the validator accepts, and the key the authority publishes.
enum Fixture {
    static let instance = "https://login.example.test"
    static let keyID = "fuzz-key"
    static let tenant = "c1a2b3d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
    static let audiences = ["api://fuzz-api", "b7c4e1a9-6d2f-4e8b-a3c5-1f9d0e7b2a64"]
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let skew: TimeInterval = 300
    /// Microsoft.IdentityModel's default maximum token size, over which a token is refused unread.
    static let maximumTokenBytes = 250 << 10
    static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let validator: AccessTokenValidator = {
        var configuration = try! AccessTokenValidator.Configuration(
            authority: Authority("\(instance)/organizations"), audiences: audiences, allowedTenants: [tenant])
        configuration.transport = AuthorityServer()
        configuration.clock = FixedClock()
        return AccessTokenValidator(configuration: configuration)
    }()
}

func fuzzAccessToken(_ input: Data) {
    guard let mode = input.first else { return }
    let rest = input.dropFirst()
    let token: String
    if mode & 1 == 0 {
        token = String(decoding: rest, as: UTF8.self)
    } else {
        let parts = rest.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
        let signingInput = "\(Base64URL.encode(parts[0])).\(Base64URL.encode(parts.count > 1 ? parts[1] : Data()))"
        let signature = try! Fixture.key.signature(
            for: SHA256.hash(data: Data(signingInput.utf8)), padding: .insecurePKCS1v1_5)
        token = "\(signingInput).\(Base64URL.encode(signature.rawRepresentation))"
    }
    let first = outcome(token)
    invariant(outcome(token) == first, "validating the same token again gives the same answer")
    if token.utf8.count > Fixture.maximumTokenBytes {
        invariant(first == .refused(.malformed), "a token over 250 KiB is malformed")
    }
    guard case .accepted(let claims) = first else { return }
    // Everything an accepted token must be, checked here without the validator's checks, on the header as the JWT
    // decoder reads it (lenient as the library is: raw control characters in strings pass; `fuzz-jwt` fuzzes it).
    let header = (try? JWT(token))?.header
    invariant(header?["alg"] as? String == "RS256", "an accepted token is RS256")
    invariant(header?["kid"] as? String == Fixture.keyID, "an accepted token names the published key")
    let tid = claims["tid"] as? String
    invariant(tid?.lowercased() == Fixture.tenant, "an accepted token is from the allowed tenant")
    let iss = claims["iss"] as? String
    invariant(
        iss == "\(Fixture.instance)/\(tid ?? "")/v2.0" || iss == "https://sts.windows.net/\(tid ?? "")/",
        "an accepted token's issuer is the authority's, v2 or v1")
    let audiences =
        (claims["aud"] as? String).map { [$0] }
        ?? (claims["aud"] as? [any Sendable] ?? []).compactMap {
            $0 as? String
        }
    invariant(
        audiences.contains { audience in Fixture.audiences.contains { $0.lowercased() == audience.lowercased() } },
        "an accepted token is for this API")
    let exp = seconds(claims["exp"])
    invariant(
        exp.map { $0 + Fixture.skew > Fixture.now.timeIntervalSince1970 } == true, "an accepted token has not expired")
    if let nbf = seconds(claims["nbf"]) {
        invariant(nbf - Fixture.skew <= Fixture.now.timeIntervalSince1970, "an accepted token is valid already")
    }
}

/// A NumericDate claim as the JWT decoder gives it: a whole number as `Int`, another as `Double`.
func seconds(_ value: (any Sendable)?) -> TimeInterval? {
    switch value {
    case let whole as Int: TimeInterval(whole)
    case let fraction as Double where fraction.isFinite: fraction
    default: nil
    }
}

/// What `validate` answered: the claims, or the reason it refused. Anything else it throws is a finding.
enum Outcome: Equatable {
    case accepted([String: any Sendable])
    case refused(AccessTokenRejection.Reason)

    static func == (lhs: Outcome, rhs: Outcome) -> Bool {
        switch (lhs, rhs) {
        case (.accepted(let a), .accepted(let b)): Set(a.keys) == Set(b.keys)
        case (.refused(let a), .refused(let b)): a == b
        default: false
        }
    }
}

func outcome(_ token: String) -> Outcome {
    runBlocking {
        do {
            return .accepted(try await Fixture.validator.validate(token).claims)
        } catch let rejection as AccessTokenRejection {
            // Compared as bytes: Foundation's `contains` stops at a NUL, and `.` followed by NULs would match any
            // sentence.
            invariant(
                token.utf8.count < 16 || rejection.message.utf8.firstRange(of: token.utf8) == nil,
                "a rejection never quotes the token")
            return .refused(rejection.reason)
        } catch {
            invariant(false, "validate throws only AccessTokenRejection, not \(type(of: error))")
            return .refused(.malformed)
        }
    }
}

/// The authority: its OpenID configuration (a `{tenantid}` issuer, as for `organizations`) and its key set.
struct AuthorityServer: HTTPTransport {
    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        let path = request.url?.path ?? ""
        if path.hasSuffix("/v2.0/.well-known/openid-configuration") {
            return (
                HTTPResponse(status: .ok),
                Data(
                    #"{"issuer":"\#(Fixture.instance)/{tenantid}/v2.0","jwks_uri":"\#(Fixture.instance)/discovery/v2.0/keys"}"#
                        .utf8)
            )
        }
        if path == "/discovery/v2.0/keys" {
            let primitives = try Fixture.key.publicKey.getKeyPrimitives()
            let n = Base64URL.encode(primitives.modulus)
            let e = Base64URL.encode(primitives.publicExponent)
            return (
                HTTPResponse(status: .ok),
                Data(#"{"keys":[{"kty":"RSA","use":"sig","kid":"\#(Fixture.keyID)","n":"\#(n)","e":"\#(e)"}]}"#.utf8)
            )
        }
        return (HTTPResponse(status: .notFound), Data())
    }
}

/// The fuzz run's "now".
struct FixedClock: TimeSource {
    func now() -> Date { Fixture.now }
}
