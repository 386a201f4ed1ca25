import Foundation
import IdentityEmulator
import MSAL
import SampleServers
import TestServers
import Testing

/// A protected API refuses JSON bombs in what it reads before trusting it (the bearer token, the authority's OpenID
/// configuration and key set) with a clear error, and keeps serving.
@Suite("JSON bombs at a protected API", .timeLimit(.minutes(2)))
struct TokenBombTests {
    typealias IDs = Directory.DemoIDs

    let forge: TokenForge
    let clock = ManualClock()

    init() throws { forge = try TokenForge() }

    /// A token whose claims are `{"a":` and 20,000 arrays opened: decoded before its signature is checked.
    static let bombToken =
        TokenForge.base64URL(Data(#"{"typ":"JWT","alg":"RS256","kid":"key-1"}"#.utf8)) + "."
        + TokenForge.base64URL(Data(("{\"a\":" + String(repeating: "[", count: 20_000)).utf8)) + ".AA"

    /// `levels` arrays nested in each other.
    static func nested(_ levels: Int) -> Any {
        var value: Any = [Any]()
        for _ in 1..<levels { value = [value] }
        return value
    }

    func validator(transport: (any HTTPTransport)? = nil) throws -> AccessTokenValidator {
        var configuration = try AccessTokenValidator.Configuration(
            authority: Authority("\(TokenForge.instance)/organizations"), audiences: [TokenForge.api],
            allowedTenants: [TokenForge.tenant])
        configuration.transport = transport ?? forge.transport
        configuration.clock = clock
        return AccessTokenValidator(configuration: configuration)
    }

    @Test(
        "todo-api answers a token nesting 20,000 levels with 401 invalid_token, then serves a valid token",
        arguments: SampleFramework.allCases)
    func bombAtTodoAPI(framework: SampleFramework) async throws {
        try await TodoAPIEndToEndTests.withServices(framework) { emulator, api, _ in
            let list = api.appendingPathComponent("api1/todolist")
            let refused = try await TodoAPIEndToEndTests.send(.get, list, token: Self.bombToken)
            #expect(refused.status == 401)
            #expect(refused.challenge?.contains("error=\"invalid_token\"") == true, "\(refused.challenge ?? "")")
            let daemon = try await TodoAPIEndToEndTests.daemonToken(
                emulator, resource: "api://\(IDs.api1)", tenant: IDs.contosoTenant)
            #expect(try await TodoAPIEndToEndTests.send(.get, list, token: daemon).status == 200)
        }
    }

    @Test("a signed token whose claims nest 64 levels is accepted; 65 levels are malformed")
    func nestingLimit() async throws {
        let validator = try validator()
        var claims = TokenForge.userClaims(now: clock.now())
        claims["x"] = Self.nested(63)
        _ = try await validator.validate(try forge.token(claims))
        claims["x"] = Self.nested(64)
        let rejection = try await #require(throws: AccessTokenRejection.self) {
            try await validator.validate(try forge.token(claims))
        }
        #expect(rejection.reason == .malformed)
    }

    @Test("a signed token over 250 KiB is malformed")
    func sizeLimit() async throws {
        var claims = TokenForge.userClaims(now: clock.now())
        claims["x"] = String(repeating: "a", count: 250 << 10)
        let token = try forge.token(claims)
        let rejection = try await #require(throws: AccessTokenRejection.self) {
            try await validator().validate(token)
        }
        #expect(rejection.reason == .malformed)
    }

    @Test("a bomb for the OpenID configuration or the key set: keys_unavailable, naming the limit", arguments: [0, 1])
    func bombInMetadata(keySet: Int) async throws {
        let transport = BombTransport(forge: forge.transport, bombKeySet: keySet == 1)
        let rejection = try await #require(throws: AccessTokenRejection.self) {
            try await validator(transport: transport).validate(try forge.token(TokenForge.userClaims(now: clock.now())))
        }
        #expect(rejection.reason == .keysUnavailable)
        #expect(rejection.message.contains("nests deeper than 64 levels"), "\(rejection.message)")
    }
}

/// The forge's answers, with a nesting bomb in place of the OpenID configuration or of the key set.
private struct BombTransport: HTTPTransport {
    let forge: any HTTPTransport
    let bombKeySet: Bool

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        let isKeySet = request.url?.path.hasSuffix("/keys") == true
        guard isKeySet == bombKeySet else { return try await forge.send(request, body: body) }
        return (HTTPResponse(status: .ok), Data(("{\"keys\":" + String(repeating: "[", count: 20_000)).utf8))
    }
}
