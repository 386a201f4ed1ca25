import Foundation
import Hummingbird
import NIOCore

/// Logs every served request, those to unknown routes included (and records it with its answer, masked, for the
/// dashboard: ``RecordedExchange``), and applies the transport-level scenarios
/// (throttling, 5xx, delays, broken bodies) before the route sees the request.
struct FaultInjectionMiddleware: RouterMiddleware {
    let core: EmulatorCore

    func handle(
        _ request: Request, context: EmulatorRequestContext,
        next: (Request, EmulatorRequestContext) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard !path.hasPrefix("/_emulator") else { return try await next(request, context) }
        var context = context
        var request = request
        if request.method == .post,
            request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true
        {
            context.form = FormBody(
                encoded: Substring(String(buffer: try await request.collectBody(upTo: context.maxUploadSize))))
        }
        let log = { (status: Int) in
            core.state.log(
                method: request.method.rawValue, host: request.head.authority, path: path,
                grantType: context.form?["grant_type"],
                clientID: context.form?["client_id"], correlationID: request.headers[.clientRequestID],
                status: status)
        }
        let exchange = core.state.exchanges.begin(request, form: context.form, at: core.state.now)
        do {
            let response = try await respond(request, context: context, path: path, next: next)
            log(response.status.code)
            return exchange.record(response)
        } catch {
            // A request no route matches (the router's 404) or a route that failed is served too, as its status.
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(status)
            exchange.fail(status: status)
            throw error
        }
    }

    private func respond(
        _ request: Request, context: EmulatorRequestContext, path: String,
        next: (Request, EmulatorRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let route = Scenario.Route.of(path: path),
            let scenario = await core.scenario(for: route, where: { $0.isTransportFault })
        else { return try await next(request, context) }
        if route == .graph, let response = await graphFault(scenario, request: request) { return response }
        switch scenario.fault {
        case .delay:
            try await Task.sleep(for: .milliseconds(scenario.delayMilliseconds ?? 1000))
            return try await next(request, context)
        case .throttle:
            var response = await core.errorResponse(
                .throttled(retryAfter: Int(scenario.retryAfter ?? "1") ?? 1), for: request)
            response.headers[.retryAfter] = scenario.retryAfter ?? "1"
            return response
        case .serverError:
            return await core.errorResponse(.serverError, for: request)
        case .serviceUnavailable:
            var response = await core.errorResponse(.serviceUnavailable, for: request)
            if let retryAfter = scenario.retryAfter { response.headers[.retryAfter] = retryAfter }
            return response
        case .gone:
            return HTTPExchange.json(
                .object([
                    ("error", .string("service_unavailable")),
                    ("error_description", .string("The endpoint is restarting; it is available within 70 seconds.")),
                ]), status: .gone)
        case .malformedJSON:
            return HTTPExchange.text("{\"token_type\": Bearer, oops", contentType: "application/json; charset=utf-8")
        case .htmlError:
            return HTTPExchange.html(
                "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>The proxy server received an invalid response.</p></body></html>",
                status: .badGateway)
        case .truncatedBody:
            return HTTPExchange.text(
                #"{"token_type":"Bearer","scope":"User.Read profile openid email","expires_in":3599,"access_tok"#,
                contentType: "application/json; charset=utf-8")
        case .hugeBody:
            return Self.hugeBody()
        case .slowDrip:
            return Self.slowDrip(every: .milliseconds(scenario.delayMilliseconds ?? 100))
        default:
            return try await next(request, context)
        }
    }

    /// 50 MB of JSON (one long string), sent with its length, in 1 MB chunks.
    private static func hugeBody() -> Response {
        let chunk = ByteBuffer(repeating: UInt8(ascii: "a"), count: 1 << 20)
        let head = ByteBuffer(string: #"{"token_type":"Bearer","padding":""#)
        let tail = ByteBuffer(string: #""}"#)
        let length = head.readableBytes + 50 * chunk.readableBytes + tail.readableBytes
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(contentLength: length) { writer in
                try await writer.write(head)
                for _ in 0..<50 { try await writer.write(chunk) }
                try await writer.write(tail)
                try await writer.finish(nil)
            })
    }

    /// A token error body, four bytes at a time, `every` apart: a connection that never quite stalls.
    private static func slowDrip(every pause: Duration) -> Response {
        let body = Array(#"{"error":"temporarily_unavailable","error_description":"AADSTS50000: slow."}"#.utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(contentLength: body.count) { writer in
                for start in stride(from: 0, to: body.count, by: 4) {
                    try await writer.write(ByteBuffer(bytes: body[start..<min(start + 4, body.count)]))
                    try await Task.sleep(for: pause)
                }
                try await writer.finish(nil)
            })
    }

    /// Graph answers throttling and outages in its own OData error shape.
    private func graphFault(_ scenario: Scenario, request: Request) async -> Response? {
        let (status, code, message): (HTTPResponse.Status, String, String)
        switch scenario.fault {
        case .throttle: (status, code, message) = (.tooManyRequests, "TooManyRequests", "Please retry again later.")
        case .serverError:
            (status, code, message) = (.internalServerError, "generalException", "General exception while processing.")
        case .serviceUnavailable:
            (status, code, message) = (.serviceUnavailable, "serviceNotAvailable", "Service unavailable.")
        default: return nil
        }
        let requestID = GUIDText.random()
        let now = core.state.now
        var headers = HTTPFields()
        headers[.requestID] = requestID
        headers[.clientRequestID] = request.headers[.clientRequestID] ?? requestID
        if scenario.fault == .throttle || scenario.retryAfter != nil {
            headers[.retryAfter] = scenario.retryAfter ?? "1"
        }
        let body = JSONValue.object([
            (
                "error",
                .object([
                    ("code", .string(code)),
                    ("message", .string(message)),
                    (
                        "innerError",
                        .object([
                            ("date", .string(now.graphTimestamp)), ("request-id", .string(requestID)),
                            ("client-request-id", .string(headers[.clientRequestID] ?? requestID)),
                        ])
                    ),
                ])
            )
        ])
        return HTTPExchange.json(body, status: status, headers: headers, contentType: "application/json")
    }
}
