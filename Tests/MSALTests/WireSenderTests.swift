import Foundation
import IdentityEmulator
import Locking
import Logging
import Testing

@testable import MSAL

/// Every request to the identity platform and to a managed identity endpoint passes through ``WireSender``: one
/// size limit whatever transport the app gave, and one retry loop that applies each client's policy.
@Suite(
    "Wire: one size limit and one retry loop for the identity platform and managed identity", .timeLimit(.minutes(2)))
struct WireSenderTests {
    static let limit = WireSender.maximumResponseSize

    /// An app's own transport: answers the requests to paths ending in `suffix` with a 400 and `size` bytes of
    /// HTML; sends the others on to `inner`.
    final class LargeAnswerTransport: HTTPTransport {
        let suffix: String
        let size: Int
        let inner: (any HTTPTransport)?
        private let answers = Locked(0)

        init(suffix: String, size: Int, inner: (any HTTPTransport)? = nil) {
            self.suffix = suffix
            self.size = size
            self.inner = inner
        }

        /// How many requests it answered itself.
        var answered: Int { answers.withLock { $0 } }

        func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
            let path = request.url?.path ?? ""
            guard path.hasSuffix(suffix) else {
                let inner = try #require(inner, "an unexpected request to \(path)")
                return try await inner.send(request, body: body)
            }
            answers.withLock { $0 += 1 }
            return (
                HTTPResponse(status: .badRequest, headerFields: [.contentType: "text/html"]),
                Data(repeating: UInt8(ascii: " "), count: size)
            )
        }
    }

    /// Answers each request with the next step of its script (with an empty body).
    final class ScriptedTransport: HTTPTransport {
        private let steps: Locked<[Result<HTTPResponse, MSALError>]>
        private let sent = Locked(0)

        init(_ steps: [Result<HTTPResponse, MSALError>]) { self.steps = Locked(steps) }

        var requests: Int { sent.withLock { $0 } }

        func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
            sent.withLock { $0 += 1 }
            return (try steps.withLock { $0.removeFirst() }.get(), Data())
        }
    }

    @Test(
        "a body over 4 MiB from the app's own transport is invalidResponse, on a token and a managed identity request")
    func sizeLimit() async throws {
        let sizes: [(Int, MSALError.InternalCode)] = [
            (Self.limit, .unexpectedHTTPResponse), (Self.limit + 1, .invalidResponse),
        ]
        try await Harness.with { h in
            for (size, expected) in sizes {
                let transport = LargeAnswerTransport(
                    suffix: "/oauth2/v2.0/token", size: size, inner: try DefaultHTTPTransport())
                let app = try h.confidentialApp(transport: transport)
                let error = try await #require(throws: MSALError.self) {
                    try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
                }
                #expect(error.internalCode == expected, "\(size) bytes: \(error)")
                #expect(transport.answered == 1)
            }
        }
        for (size, expected) in [
            (Self.limit, MSALError.InternalCode.invalidRequest), (Self.limit + 1, .invalidResponse),
        ] {
            var configuration = try ManagedIdentityApplicationConfiguration()
            configuration.environment = ["IDENTITY_ENDPOINT": "http://127.0.0.1:1/msi/token", "IDENTITY_HEADER": "h"]
            configuration.arcAgentPath = "/nonexistent/himds"
            let transport = LargeAnswerTransport(suffix: "/msi/token", size: size)
            configuration.transport = transport
            let pauses = SleepLog()
            configuration.sleep = { pauses.record($0) }
            let app = try ManagedIdentityApplication(configuration: configuration)
            #expect(app.source == .appService)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireToken(ManagedIdentityParameters(resource: "https://graph.microsoft.com"))
            }
            #expect(error.internalCode == expected, "\(size) bytes: \(error)")
            #expect(transport.answered == 1)
            #expect(pauses.all.isEmpty)
        }
    }

    /// What one send came to: the last answer's status or the error's reason, the pauses taken and the requests sent.
    struct Run: Equatable {
        let outcome: String
        let pauses: [Duration]
        let requests: Int
    }

    static func run(_ policy: some WireRetryPolicy, _ steps: [Result<HTTPResponse, MSALError>]) async -> Run {
        let transport = ScriptedTransport(steps)
        let pauses = SleepLog()
        let wire = WireSender(
            transport: transport, clock: TestClock(), sleep: { pauses.record($0) }, logger: Logger(label: "wire"),
            peer: "test server")
        let request = HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:1/token")!)
        let outcome: String
        do {
            outcome = "\(try await wire.send(request, body: nil, retrying: policy).0.status.code)"
        } catch let error as MSALError {
            outcome = "\(error.internalCode.map { "\($0)" } ?? "\(error.code)")"
        } catch {
            outcome = "\(error)"
        }
        return Run(outcome: outcome, pauses: pauses.all, requests: transport.requests)
    }

    @Test(
        "one loop retries for both clients, by each one's policy: the identity platform once, managed identity by source"
    )
    func retryPolicies() async throws {
        func answer(_ status: Int, retryAfter: String? = nil) -> Result<HTTPResponse, MSALError> {
            .success(
                HTTPResponse(
                    status: .init(code: status), headerFields: retryAfter.map { [.retryAfter: $0] } ?? [:]))
        }
        let unanswered = Result<HTTPResponse, MSALError>.failure(.internal(.transportFailed, "refused"))
        let platform = IdentityPlatformRetryPolicy()
        #expect(
            await Self.run(platform, [answer(503), answer(503), answer(200)])
                == Run(outcome: "503", pauses: [.milliseconds(500)], requests: 2))
        #expect(
            await Self.run(platform, [answer(429, retryAfter: "3"), answer(200)])
                == Run(outcome: "200", pauses: [.seconds(3)], requests: 2))
        #expect(
            await Self.run(platform, [answer(429, retryAfter: "6"), answer(200)])
                == Run(outcome: "429", pauses: [], requests: 1))
        #expect(
            await Self.run(platform, [unanswered, answer(200)])
                == Run(outcome: "transportFailed", pauses: [], requests: 1))

        let managed = ManagedIdentityRetryPolicy()
        #expect(
            await Self.run(managed.retries(for: .imds), [unanswered, answer(503), answer(410), answer(200)])
                == Run(outcome: "200", pauses: [.seconds(1), .seconds(2), .seconds(10)], requests: 4))
        #expect(
            await Self.run(managed.retries(for: .appService), Array(repeating: unanswered, count: 4) + [answer(200)])
                == Run(outcome: "transportFailed", pauses: [.seconds(1), .seconds(1), .seconds(1)], requests: 4))
        #expect(
            await Self.run(managed.retries(for: .appService), [answer(429, retryAfter: "7"), answer(200)])
                == Run(outcome: "200", pauses: [.seconds(7)], requests: 2))
        #expect(
            await Self.run(managed.retries(for: .appService), [answer(502), answer(200)])
                == Run(outcome: "502", pauses: [], requests: 1))
        #expect(
            await Self.run(ManagedIdentityRetryPolicy.none.retries(for: .imds), [answer(503), answer(200)])
                == Run(outcome: "503", pauses: [], requests: 1))
    }
}
