import Foundation
import Hummingbird
import IdentityEmulator
import Locking
import MSAL
import MSALHummingbird
import Testing

/// MSAL's transport speaks swift-http-types, as Hummingbird does: the `HTTPRequest` ``DownstreamAPI`` builds is the
/// `Request.head` a Hummingbird handler reads, and the handler's `Response.head` is the `HTTPResponse` the call
/// returns, with nothing converted on the way.
@Suite("Downstream API requests are swift-http-types values, as Hummingbird's", .timeLimit(.minutes(2)))
struct DownstreamAPITypesTests {
    typealias IDs = Directory.DemoIDs

    /// Hands each request, as it is, to a Hummingbird handler in the process, and keeps what the handler received
    /// and the head of its response.
    final class HandlerTransport: HTTPTransport {
        let received = Locked<[(head: HTTPRequest, body: String)]>([])
        let answered = Locked<[HTTPResponse]>([])

        func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
            let response = try await handle(
                Request(head: request, body: RequestBody(buffer: ByteBuffer(bytes: body ?? Data()))))
            answered.withLock { $0.append(response.head) }
            return (response.head, Data())
        }

        /// A handler as a route has one: it reads the request's head and body and answers 201 with a `Location`.
        private func handle(_ request: Request) async throws -> Response {
            let body = try await request.body.collect(upTo: 1 << 16)
            received.withLock { $0.append((request.head, String(decoding: body.readableBytesView, as: UTF8.self))) }
            return Response(status: .created, headers: [.location: "/v1/todolist/1"])
        }
    }

    @Test("a Hummingbird handler behind the transport receives the HTTPRequest DownstreamAPI built, fields and body")
    func handlerReceivesTheRequest() async throws {
        try await TodoAPIEndToEndTests.withServices(.hummingbird) { emulator, _, http in
            let token = try await TodoAPIEndToEndTests.userToken(
                emulator, http: http, scopes: ["api://\(IDs.api1)/ToDoList.Read"])
            let (validated, api1) = try await TodoAPIEndToEndTests.api1Receiving(token, emulator: emulator)
            let scopes = ["api://\(IDs.api2)/ToDoList.Read"]
            let transport = HandlerTransport()
            let downstream = DownstreamAPI(
                app: api1, baseURL: URL(string: "https://api2.example.test/v1/")!, scopes: scopes,
                transport: transport)

            let (response, _) = try await downstream.call(
                .post, "todolist", body: Data(#"{"description":"Buy milk"}"#.utf8), for: validated)

            let onBehalf = try await api1.acquireTokenOnBehalfOf(
                OnBehalfOfParameters(userAssertion: validated.rawValue, scopes: scopes))
            #expect(onBehalf.source == .cache)
            let expected = HTTPRequest(
                method: .post, url: URL(string: "https://api2.example.test/v1/todolist")!,
                headerFields: [.authorization: "Bearer \(onBehalf.accessToken)", .contentType: "application/json"])
            let received = transport.received.withLock { $0 }
            #expect(received.count == 1)
            #expect(received.first?.head == expected)
            #expect(received.first?.head.headerFields[.authorization] == "Bearer \(onBehalf.accessToken)")
            #expect(received.first?.body == #"{"description":"Buy milk"}"#)
            #expect(transport.answered.withLock { $0 } == [response])
            #expect(response.status == .created && response.headerFields[.location] == "/v1/todolist/1")
        }
    }
}
