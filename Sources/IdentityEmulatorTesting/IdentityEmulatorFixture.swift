import AsyncHTTPClient
import Foundation
import IdentityEmulator
import MSAL
import NIOCore
import NIOHTTP1

/// An identity emulator running for one test (``withIdentityEmulator(directory:tls:_:)``): where it is, apps and
/// sign-ins against it, tokens minted on demand, its outbox and its request log.
public struct IdentityEmulatorFixture: Sendable {
    /// The running emulator: its base URL, port, directory and CA.
    public let running: RunningEmulator
    /// A transport that reaches it (trusting its CA over TLS), for MSAL's applications and validators.
    public let transport: DefaultHTTPTransport
    let http: HTTPClient

    init(running: RunningEmulator, http: HTTPClient) throws {
        self.running = running
        self.http = http
        transport = try DefaultHTTPTransport(trustedCAPEM: running.caCertificatePEM, proxy: .direct)
    }

    /// The emulator's base URL, e.g. `http://127.0.0.1:40213`.
    public var baseURL: URL { running.baseURL }

    /// The authority for a tenant (its GUID or domain), `common` or `organizations`.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` for a tenant that makes no authority URL.
    public func authority(_ tenant: String) throws -> Authority {
        try Authority(running.authority(tenant).absoluteString)
    }

    /// A validator for the tokens an API with client id `api` accepts from `tenant` (its app id URI as well, when the
    /// directory gives it one), fetching the emulator's keys through ``transport``.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` for a tenant that makes no authority URL.
    public func accessTokenValidator(api: String, tenant: String = "organizations") throws -> AccessTokenValidator {
        let uri = running.directory.applications.first { $0.clientId == api }?.identifierUri
        var configuration = try AccessTokenValidator.Configuration(
            authority: try authority(tenant), audiences: [api] + (uri.map { [$0] } ?? []))
        configuration.transport = transport
        return AccessTokenValidator(configuration: configuration)
    }

    /// Sends `method` `path` (under the base URL) with a JSON `body`, answering its status and body.
    func send(_ method: HTTPMethod, _ path: String, json body: [String: Any]? = nil) async throws -> (Int, Data) {
        var request = HTTPClientRequest(url: baseURL.appendingPathComponent(path).absoluteString)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: body)))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        let data = Data(try await response.body.collect(upTo: 1 << 24).readableBytesView)
        return (Int(response.status.code), data)
    }

    /// The JSON object `method` `path` answers with `expected` status.
    ///
    /// - Throws: ``IdentityEmulatorFixtureError`` with the emulator's answer otherwise.
    func object(_ method: HTTPMethod, _ path: String, json body: [String: Any]? = nil, expected: Int = 200)
        async throws -> [String: Any]
    {
        let (status, data) = try await send(method, path, json: body)
        guard status == expected, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw IdentityEmulatorFixtureError(
                description: "\(method.rawValue) /\(path): HTTP \(status): \(String(decoding: data, as: UTF8.self))")
        }
        return object
    }
}

/// The emulator refused what a fixture asked (its answer quoted), or a sign-in did not end as asked.
public struct IdentityEmulatorFixtureError: Error, CustomStringConvertible {
    /// What was asked and what the emulator answered.
    public let description: String
}
