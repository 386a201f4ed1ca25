import Foundation
import Locking
import MSAL
import Testing

/// The redirect receiver is the app's to choose, as the browser is: the flow only builds the request
/// for the URI it listens at and checks what comes back.
@Suite("Redirect receivers: injectable, the loopback one by default")
struct RedirectReceiverTests {
    /// Receives through the loopback receiver and remembers the URI it listened at.
    final class ObservingReceiver: RedirectReceiver {
        let listenedAt = Locked<[String]>([])

        func receiveResponse(
            at redirectURI: String, timeout: Duration, begin: @Sendable (String) async throws -> Void
        ) async throws -> AuthorizationResponse {
            let response = try await LoopbackRedirectReceiver().receiveResponse(at: redirectURI, timeout: timeout) {
                uri in
                listenedAt.withLock { $0.append(uri) }
                try await begin(uri)
            }
            return response
        }
    }

    /// Answers at once, without a browser, as an app's custom-scheme handler might.
    struct CannedReceiver: RedirectReceiver {
        let parameters: [String: String]

        func receiveResponse(
            at redirectURI: String, timeout: Duration, begin: @Sendable (String) async throws -> Void
        ) async throws -> AuthorizationResponse {
            AuthorizationResponse(redirectURI: "myapp://auth", parameters: parameters)
        }
    }

    @Test("a sign-in goes through the configured receiver, which names the URI the request and redemption use")
    func configuredReceiver() async throws {
        try await Harness.with { h in
            let receiver = ObservingReceiver()
            let app = try h.app(user: h.user(Harness.megan), redirectReceiver: receiver)
            let result = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            #expect(result.source == .identityProvider)
            let uri = try #require(receiver.listenedAt.withLock { $0.first })
            #expect(uri.hasPrefix("http://localhost:") && !uri.hasSuffix(":0"))
            #expect(try await h.tokenRequests() == ["authorization_code"])
        }
    }

    @Test("an error the receiver brings back is the caller's, and no code is redeemed")
    func receiverError() async throws {
        try await Harness.with { h in
            let app = try h.app(
                redirectReceiver: CannedReceiver(parameters: [
                    "error": "access_denied", "error_description": "the user canceled",
                ]))
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            }
            #expect(error.code == .userCanceled, "\(error)")
            #expect(try await h.tokenRequests().isEmpty)
        }
    }

    @Test("a response whose state is not the request's is refused")
    func wrongState() async throws {
        try await Harness.with { h in
            let app = try h.app(redirectReceiver: CannedReceiver(parameters: ["code": "0.AX", "state": "forged"]))
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            }
            #expect(error.internalCode == .invalidState, "\(error)")
            #expect(try await h.tokenRequests().isEmpty)
        }
    }

    @Test("the loopback receiver refuses a redirect URI that is not http on loopback, before listening")
    func loopbackOnly() async throws {
        for uri in ["https://localhost", "http://example.com/callback", "myapp://auth"] {
            let error = try await #require(throws: MSALError.self) {
                try await LoopbackRedirectReceiver().receiveResponse(at: uri, timeout: .seconds(1)) { _ in
                    Issue.record("began for \(uri)")
                }
            }
            #expect(error.internalCode == .invalidRedirectURI, "\(uri)")
        }
    }
}
