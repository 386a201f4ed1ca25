import AsyncHTTPClient
import Foundation
import IdentityEmulator
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

/// An emulator started in-process on an ephemeral port, with an HTTP client that does not follow
/// redirects, so tests see exactly what the emulator answered.
final class TestEmulator: Sendable {
    let running: RunningEmulator
    let http: HTTPClient

    var base: String { running.baseURL.absoluteString }
    let ids = Directory.DemoIDs.self

    private init(running: RunningEmulator, http: HTTPClient) {
        self.running = running
        self.http = http
    }

    /// The emulator's fixed "now" in tests (no wall-clock reads).
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)

    /// Runs `body` against a fresh emulator (port 0, fixed clock) and shuts both down afterwards.
    static func with(
        _ configure: (inout EmulatorConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestEmulator) async throws -> Void
    ) async throws {
        var configuration = EmulatorConfiguration(port: 0, seed: 7, clock: EmulatorClock(base: { TestEmulator.epoch }))
        configure(&configuration)
        try await IdentityEmulator.withRunning(configuration) { running in
            var tls = TLSConfiguration.makeClientConfiguration()
            if let pem = running.caCertificatePEM {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))
            }
            let http = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: .init(tlsConfiguration: tls, redirectConfiguration: .disallow))
            let emulator = TestEmulator(running: running, http: http)
            do {
                try await body(emulator)
            } catch {
                try? await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
    }

    func url(_ pathOrURL: String) -> String {
        pathOrURL.hasPrefix("http") ? pathOrURL : base + pathOrURL
    }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> HTTPResult {
        try await send(.GET, path, body: nil, contentType: nil, headers: headers)
    }

    func post(_ path: String, form: [(String, String)], headers: [(String, String)] = []) async throws -> HTTPResult {
        try await send(
            .POST, path, body: Form.encode(form), contentType: "application/x-www-form-urlencoded", headers: headers)
    }

    func post(_ path: String, json: String, headers: [(String, String)] = []) async throws -> HTTPResult {
        try await send(.POST, path, body: json, contentType: "application/json", headers: headers)
    }

    func delete(_ path: String) async throws -> HTTPResult {
        try await send(.DELETE, path, body: nil, contentType: nil, headers: [])
    }

    /// `POST /{tenant}/oauth2/v2.0/token`.
    func token(_ tenant: String, _ form: [(String, String)], headers: [(String, String)] = []) async throws
        -> HTTPResult
    {
        try await post("/\(tenant)/oauth2/v2.0/token", form: form, headers: headers)
    }

    /// A password (ROPC) grant for a demo user: the quickest way to real tokens.
    func passwordGrant(
        user: String = "MeganB@contoso.onmicrosoft.com", password: String = "Megan-Demo-Pass1",
        scope: String = "User.Read openid profile offline_access", client: String? = nil,
        tenant: String = "organizations", extra: [(String, String)] = []
    ) async throws -> HTTPResult {
        try await token(
            tenant,
            [
                ("grant_type", "password"), ("client_id", client ?? ids.publicClient), ("username", user),
                ("password", password), ("scope", scope), ("client_info", "1"),
            ] + extra)
    }

    /// Adds a fault scenario through the admin API.
    func scenario(_ route: String, _ fault: String, count: Int = 1, retryAfter: String? = nil) async throws {
        let retry = retryAfter.map { #","retryAfter":"\#($0)""# } ?? ""
        let result = try await post(
            "/_emulator/scenarios", json: #"{"route":"\#(route)","fault":"\#(fault)","count":\#(count)\#(retry)}"#)
        #expect(result.status == 201, "scenario not accepted: \(result.body)")
    }

    /// Moves the emulator's clock.
    func setClockOffset(_ seconds: Int) async throws {
        let result = try await post("/_emulator/clock", json: #"{"offsetSeconds":\#(seconds)}"#)
        #expect(result.status == 200)
    }

    private func send(
        _ method: HTTPMethod, _ path: String, body: String?, contentType: String?,
        headers: [(String, String)]
    ) async throws -> HTTPResult {
        var request = HTTPClientRequest(url: url(path))
        request.method = method
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await http.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 16 << 20)
        return HTTPResult(status: Int(response.status.code), headers: response.headers, body: String(buffer: buffer))
    }
}

/// A response as the tests see it.
struct HTTPResult: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: String

    func header(_ name: String) -> String? { headers.first(name: name) }

    /// The body as a JSON object.
    var json: [String: any Sendable] {
        get throws {
            let object = try JSONSerialization.jsonObject(with: Data(body.utf8))
            guard let dictionary = object as? [String: Any] else { throw TestFailure("not a JSON object: \(body)") }
            return dictionary.mapValues { SendableJSON.wrap($0) }
        }
    }

    func string(_ key: String) throws -> String? { try json[key] as? String }
}

/// JSON values from `JSONSerialization`, made `Sendable` for the tests.
enum SendableJSON {
    static func wrap(_ value: Any) -> any Sendable {
        switch value {
        case let s as String: return s
        case is NSNull: return JSONNull()
        case let n as NSNumber where String(cString: n.objCType) == "c": return n.boolValue
        case let n as NSNumber:
            if Double(n.intValue) == n.doubleValue { return n.intValue }
            return n.doubleValue
        case let a as [Any]: return a.map(wrap)
        case let d as [String: Any]: return d.mapValues(wrap)
        default: return String(describing: value)
        }
    }
}

/// JSON `null`.
struct JSONNull: Sendable, Equatable {}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Form encoding for requests.
enum Form {
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    static func escape(_ s: String) -> String {
        s.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(
                charactersIn:
                    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? s
    }

    /// Decodes a query or form string.
    static func decode(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name =
                String(parts[0]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(parts[0])
            let value =
                parts.count > 1
                ? (String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "") : ""
            out[name] = value
        }
        return out
    }
}
