import Foundation
import Locking
import MSAL
import MSALHummingbird
import TestServers
import Testing

/// `DownstreamAPI` sends the user's on-behalf-of token only to its base URL's scheme, host and port.
@Suite("Downstream API paths")
struct DownstreamAPITests {
    /// Records every request and answers 404: nothing here should reach it.
    final class RecordingTransport: HTTPTransport {
        let urls = Locked<[URL?]>([])

        func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
            urls.withLock { $0.append(request.url) }
            return (HTTPResponse(status: .notFound), Data())
        }
    }

    static let base = URL(string: "https://graph.example.test/v1.0/")!

    static func api(transport: RecordingTransport) throws -> DownstreamAPI {
        var configuration = try ConfidentialClientApplicationConfiguration(
            clientID: TokenForge.api, credential: .secret("api-secret"),
            authority: Authority("\(TokenForge.instance)/\(TokenForge.tenant)"))
        configuration.transport = transport
        return DownstreamAPI(
            app: try ConfidentialClientApplication(configuration: configuration), baseURL: base, scopes: ["User.Read"])
    }

    @Test("without a transport of its own, it sends through the app's")
    func appTransportByDefault() throws {
        let transport = RecordingTransport()
        #expect((try Self.api(transport: transport).transport as? RecordingTransport) === transport)
    }

    @Test("paths resolve under the base URL; a scheme, an authority or another origin is refused")
    func resolution() throws {
        let api = try Self.api(transport: RecordingTransport())
        #expect(api.url(for: "me")?.absoluteString == "https://graph.example.test/v1.0/me")
        #expect(
            api.url(for: "users/a1?$select=id")?.absoluteString == "https://graph.example.test/v1.0/users/a1?$select=id"
        )
        #expect(api.url(for: "/beta/me")?.absoluteString == "https://graph.example.test/beta/me")
        for hostile in [
            "https://evil.example/x", "//evil.example/x", "HTTPS://evil.example/x", "https:evil.example/x",
            "http://graph.example.test/v1.0/me", "https://graph.example.test:8443/v1.0/me", "///evil.example/x",
            "javascript:alert(1)",
        ] {
            #expect(api.url(for: hostile) == nil, "\(hostile)")
        }
        // Backslashes are no authority here: whatever they resolve to stays on the base URL's host.
        for odd in [#"\\evil.example/x"#, #"/\evil.example/x"#, " //evil.example/x"] {
            if let url = api.url(for: odd) { #expect(url.host == "graph.example.test", "\(odd)") }
        }
    }

    @Test("a call to an absolute or scheme-relative URL throws before any token is asked for or anything is sent")
    func refusedBeforeSending() async throws {
        let forge = try TokenForge()
        var validation = try AccessTokenValidator.Configuration(
            authority: Authority("\(TokenForge.instance)/\(TokenForge.tenant)"), audiences: [TokenForge.api])
        validation.transport = forge.transport
        let token = try await AccessTokenValidator(configuration: validation)
            .validate(try forge.token(TokenForge.userClaims(now: Date())))
        let transport = RecordingTransport()
        let api = try Self.api(transport: transport)
        for path in ["https://evil.example/x", "//evil.example/x"] {
            await #expect {
                _ = try await api.call(.get, path, for: token)
            } throws: { error in
                (error as? MSALError)?.internalCode == .invalidParameter
            }
        }
        #expect(transport.urls.withLock { $0 }.isEmpty)
    }
}
