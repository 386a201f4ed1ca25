import Foundation
import Locking
import OutsideJSON
import Testing

@testable import MSAL

/// JSON from outside the process is refused past 250 KiB (files: 256 MiB) or 64 levels of nesting, with an error
/// naming the limit, before a recursive reader sees it.
@Suite("Outside JSON: size and nesting limits")
struct OutsideJSONTests {
    /// `{"a":` and `levels` arrays opened, never closed: the shape of a nesting bomb.
    static func bomb(_ levels: Int = 20_000) -> Data {
        Data(("{\"a\":" + String(repeating: "[", count: levels)).utf8)
    }

    /// `arrays` empty arrays nested in each other (`[[…]]`).
    static func nested(_ arrays: Int) -> String {
        String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays)
    }

    @Test("64 levels pass, the 65th is refused at its byte; brackets in strings, after escaped quotes, do not count")
    func depth() throws {
        let limits = JSONLimits.message
        try limits.check(Data("{\"a\":\(Self.nested(63))}".utf8))
        // `{"a":` is 5 bytes; the 64th array opens at byte 5 + 63, the 65th level.
        #expect(throws: JSONRefusal.tooDeep(offset: 68)) {
            try limits.check(Data("{\"a\":\(Self.nested(64))}".utf8))
        }
        let text = "\\\"" + String(repeating: "[", count: 100)
        let quoted = Data("{\"a\":\"\(text)\"}".utf8)
        #expect(try limits.object(quoted)["a"] as? String == "\"" + String(repeating: "[", count: 100))
        #expect(throws: JSONRefusal.tooDeep(offset: 68)) { try limits.check(Self.bomb()) }
        // The library's reader counts nesting as it reads, and refuses at the same byte.
        #expect(try limits.members(Data("{\"a\":\(Self.nested(63))}".utf8))["a"] != nil)
        #expect(throws: JSONRefusal.tooDeep(offset: 68)) {
            try limits.members(Data("{\"a\":\(Self.nested(64))}".utf8))
        }
        #expect(throws: JSONRefusal.tooDeep(offset: 68)) { try limits.members(Self.bomb()) }
        #expect(throws: JSONRefusal.notJSON) { try limits.members(Data("{\"a\":[}".utf8)) }
        #expect(
            JSONRefusal.tooDeep(offset: 68).description == "nests deeper than 64 levels (at byte 68)",
            "the description completes a sentence about the input")
    }

    @Test("250 KiB pass, one byte more is refused; what is not a JSON object is told apart")
    func sizeAndShape() throws {
        let limit = 250 << 10
        func object(_ bytes: Int) -> Data {
            Data(("{\"a\":\"" + String(repeating: "a", count: bytes - 8) + "\"}").utf8)
        }
        #expect(try JSONLimits.message.object(object(limit))["a"] != nil)
        #expect(throws: JSONRefusal.tooLarge(bytes: limit + 1, limit: limit)) {
            try JSONLimits.message.object(object(limit + 1))
        }
        #expect(throws: JSONRefusal.notAnObject) { try JSONLimits.message.object(Data("[1]".utf8)) }
        #expect(throws: JSONRefusal.notJSON) { try JSONLimits.message.object(Data("{".utf8)) }
    }

    @Test("a bomb in any protocol answer: an error naming the limit, or no value")
    func responses() throws {
        let bomb = Self.bomb()
        let authority = try Authority("https://login.example.test/contoso.onmicrosoft.com")
        let errors: [MSALError] = [
            try #require(throws: MSALError.self) { try TokenResponse(json: bomb) },
            try #require(throws: MSALError.self) {
                try JSONWebKeySet(json: bomb, uri: URL(string: "https://login.example.test/keys")!)
            },
            try #require(throws: MSALError.self) {
                try AuthorityEndpoints(authority: authority, document: bomb, aliases: [])
            },
            try #require(throws: MSALError.self) { try IssuerMetadata(document: bomb, authority: authority) },
            try #require(throws: MSALError.self) { try InstanceDiscoveryResponse(json: bomb, authority: authority) },
            try #require(throws: MSALError.self) { try DeviceCodeInfo(json: bomb) },
            try #require(throws: MSALError.self) { try NativeAuthAnswer(HTTPResponse(status: .ok), body: bomb) },
        ]
        for error in errors {
            #expect(error.message.contains("nests deeper than 64 levels"), "\(error.message)")
        }
        #expect(OAuthErrorResponse(json: bomb) == nil)
        #expect(throws: MSALError.self) { try ClientInfo(encoded: Base64URL.encode(bomb)) }
        let challenge = "Bearer error=\"insufficient_claims\", claims=\"\(bomb.base64EncodedString())\""
        #expect(ClaimsChallenge(wwwAuthenticate: challenge) == nil)
        #expect(throws: MSALError.self) {
            try ClaimsRequest.merged(String(decoding: bomb, as: UTF8.self), capabilities: [])
        }
    }

    @Test("a token response nesting 64 levels is read; 65 levels are refused, naming the limit")
    func tokenResponseBoundary() throws {
        func response(_ arrays: Int) -> Data {
            Data(#"{"access_token":"at","token_type":"Bearer","expires_in":3600,"x":\#(Self.nested(arrays))}"#.utf8)
        }
        #expect(try TokenResponse(json: response(63)).accessToken == "at")
        let refused = try #require(throws: MSALError.self) { try TokenResponse(json: response(64)) }
        #expect(refused.message.contains("nests deeper than 64 levels"), "\(refused.message)")
    }

    @Test("the cache reader counts nesting itself: 64 levels read, 65 refused; a cache over 256 MiB is refused unread")
    func cacheReader() throws {
        _ = try UnifiedCacheFormat.read(Data("{\"Other\":\(Self.nested(63))}".utf8))
        let deep = try #require(throws: MSALError.self) {
            try UnifiedCacheFormat.read(Data("{\"Other\":\(Self.nested(64))}".utf8))
        }
        #expect(deep.internalCode == .cacheCorrupted)
        #expect(deep.message.contains("nesting deeper than 64 levels"), "\(deep.message)")
        // Zeroed pages are not touched: only the size is read.
        let large = try #require(throws: MSALError.self) { try UnifiedCacheFormat.read(Data(count: (256 << 20) + 1)) }
        #expect(large.internalCode == .cacheCorrupted)
        #expect(large.message.contains("is larger than \(256 << 20) bytes"), "\(large.message)")
    }

    @Test("a cache file with a bomb in an entry is set aside naming the limit, and the cache starts empty")
    func cacheFileBomb() async throws {
        let cache = CacheFolder()
        defer { cache.remove() }
        try cache.write(#"{"AccessToken": {"k": {"secret": "# + String(repeating: "[", count: 20_000))
        let reasons = Locked<[String]>([])
        let tokens = TokenCache(
            persistence: cache.persistence(onSetAside: { _, reason in reasons.withLock { $0.append(reason) } }))
        #expect(try await tokens.accounts().isEmpty)
        let reason = try #require(reasons.withLock { $0.count == 1 ? $0.first : nil })
        #expect(reason.contains("nesting deeper than 64 levels"), "\(reason)")
    }

    @Test("a JWT with a bomb for claims, or over 250 KiB, is refused without being parsed further")
    func jwt() throws {
        let header = Base64URL.encode(Data(#"{"alg":"RS256","kid":"k"}"#.utf8))
        let bomb = try #require(throws: MSALError.self) { try JWT("\(header).\(Base64URL.encode(Self.bomb())).AA") }
        #expect(bomb.internalCode == .invalidIDToken)
        let claims = Base64URL.encode(Data(("{\"a\":\"" + String(repeating: "a", count: 250 << 10) + "\"}").utf8))
        let large = try #require(throws: MSALError.self) { try JWT("\(header).\(claims).AA") }
        #expect(large.message.contains("is larger than \(250 << 10) bytes"), "\(large.message)")
    }
}
