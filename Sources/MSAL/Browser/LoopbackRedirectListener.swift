import Foundation
import Locking
import NIOCore
import NIOHTTP1
import NIOPosix

/// A one-shot HTTP listener on 127.0.0.1 that receives the authorization response (RFC 8252 §7.3).
///
/// It accepts the first request to the exact redirect path that carries `code` or `error` (query, or
/// a `form_post` body) and, when told the sign-in's `state`, that same `state`; it answers the browser with a short
/// page, answers later requests without accepting them, refuses ones with another `state` (400, ignored, so a forged
/// redirect cannot end the sign-in), ignores stray ones (`/favicon.ico`) with 404, and never echoes request data.
final class LoopbackRedirectListener: Sendable {
    let port: Int
    /// 127.0.0.1's, and [::1]'s on the same port when the machine has IPv6.
    private let channels: [any Channel]
    private let results: AsyncStream<[String: String]>

    private init(port: Int, channels: [any Channel], results: AsyncStream<[String: String]>) {
        self.port = port
        self.channels = channels
        self.results = results
    }

    /// Binds 127.0.0.1 on `port` (0 = any free port), and [::1] on the same port: a redirect to `localhost` may reach
    /// either, and a port left free on one would let another local user's program receive the code from a browser
    /// that tries it first. With `expectedState`, only a response carrying it is accepted.
    ///
    /// - Throws: ``MSALError`` `transportFailed` when the port cannot be bound on 127.0.0.1, or another program
    ///   holds it on [::1]. A machine without IPv6 listens on 127.0.0.1 alone.
    static func start(path: String, port: Int = 0, expectedState: String? = nil) async throws
        -> LoopbackRedirectListener
    {
        let (stream, continuation) = AsyncStream<[String: String]>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let accepted = Locked(false)
        let expectedPath = path.isEmpty ? "/" : path
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(
                        RedirectHandler(path: expectedPath, expectedState: expectedState) { parameters in
                            let first = accepted.withLock { done in
                                defer { done = true }
                                return !done
                            }
                            if first {
                                continuation.yield(parameters)
                                continuation.finish()
                            }
                            return first
                        })
                }
            }
        let ipv4: any Channel
        do {
            ipv4 = try await bootstrap.bind(host: "127.0.0.1", port: port).get()
        } catch {
            throw MSALError.internal(
                .transportFailed, "Cannot listen on 127.0.0.1:\(port) for the sign-in redirect: \(error)",
                underlyingError: error)
        }
        let bound = ipv4.localAddress?.port ?? port
        do {
            let ipv6 = try await bootstrap.bind(host: "::1", port: bound).get()
            return LoopbackRedirectListener(port: bound, channels: [ipv4, ipv6], results: stream)
        } catch let error as IOError where error.errnoCode != EADDRINUSE {
            // No IPv6 loopback here (EADDRNOTAVAIL, EAFNOSUPPORT): nobody else can listen there either.
            return LoopbackRedirectListener(port: bound, channels: [ipv4], results: stream)
        } catch {
            try? await ipv4.close()
            throw MSALError.internal(
                .transportFailed,
                "Another program listens on [::1]:\(bound), where a browser may send the sign-in redirect; not signing in.",
                underlyingError: error)
        }
    }

    /// The parameters of the redirect (`code`, `state`, `client_info`, or `error`…).
    ///
    /// - Throws: ``MSALError`` `timedOut` after `timeout`; `CancellationError` when cancelled.
    func redirect(timeout: Duration) async throws -> [String: String] {
        let results = self.results
        return try await withThrowingTaskGroup(of: [String: String]?.self) { group in
            group.addTask {
                for await parameters in results { return parameters }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw MSALError.internal(.timedOut, "No sign-in redirect arrived within \(timeout).")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let parameters = first else { throw CancellationError() }
            return parameters
        }
    }

    func close() async {
        for channel in channels { try? await channel.close() }
    }

    /// A request's path and the authorization response's parameters: the query's, and with
    /// `formBody` (a `form_post` POST's body) the body's, which win.
    static func authorizationResponse(target: String, formBody: String?) -> (path: String, parameters: [String: String])
    {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? "/"
        var parameters = parts.count > 1 ? FormEncoding.decode(parts[1]) : [:]
        if let formBody { parameters.merge(FormEncoding.decode(formBody)) { _, posted in posted } }
        return (path, parameters)
    }
}

/// Handles one connection: collects the request, decides, answers.
private final class RedirectHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let path: String
    private let expectedState: String?
    private let deliver: @Sendable ([String: String]) -> Bool
    private var head: HTTPRequestHead?
    private var body = ""

    init(path: String, expectedState: String?, deliver: @escaping @Sendable ([String: String]) -> Bool) {
        self.path = path
        self.expectedState = expectedState
        self.deliver = deliver
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = ""
        case .body(var buffer):
            if body.utf8.count < 64 * 1024 { body += buffer.readString(length: buffer.readableBytes) ?? "" }
        case .end:
            guard let head else { return }
            respond(context: context, to: head)
            self.head = nil
        }
    }

    private func respond(context: ChannelHandlerContext, to head: HTTPRequestHead) {
        let (requestPath, parameters) = LoopbackRedirectListener.authorizationResponse(
            target: head.uri, formBody: head.method == .POST ? body : nil)
        let (status, page): (HTTPResponseStatus, String)
        if requestPath != path || (parameters["code"] == nil && parameters["error"] == nil) {
            (status, page) = (.notFound, Self.page("Not found", "This address only receives a sign-in response."))
        } else if let expectedState, parameters["state"] != expectedState {
            (status, page) = (
                .badRequest,
                Self.page(
                    "Not this sign-in",
                    "This response does not belong to the sign-in in progress and was ignored. Return to the application."
                )
            )
        } else if deliver(parameters) {
            (status, page) =
                parameters["error"] == nil
                ? (
                    .ok,
                    Self.page(
                        "Signed in", "Authentication complete. You can close this window and return to the application."
                    )
                )
                : (
                    .ok,
                    Self.page(
                        "Sign-in not completed",
                        "The sign-in did not complete. You can close this window and return to the application.")
                )
        } else {
            (status, page) = (
                .ok,
                Self.page(
                    "Already handled", "The application already received a sign-in response. You can close this window."
                )
            )
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.add(name: "Content-Length", value: String(page.utf8.count))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: page)))), promise: nil)
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            loopBoundContext.value.close(promise: nil)
        }
    }

    /// Fixed pages: nothing from the request is ever put into them.
    private static func page(_ title: String, _ text: String) -> String {
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>\(title)</title></head><body><h1>\(title)</h1><p>\(text)</p></body></html>"
    }
}
