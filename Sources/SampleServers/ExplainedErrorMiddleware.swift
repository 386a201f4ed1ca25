import Hummingbird
import Logging

/// Answers every 4xx and 5xx of the routes after it (the router's 404 for an unknown path included) with an
/// ``ErrorExplanation`` in the sample's format (an HTML page for the web app, JSON for the API), and logs each one
/// with its cause: 4xx at `info`, 5xx at `error`, the path without its query (which may carry a code). The original
/// answer's fields that are not about its body (`WWW-Authenticate`, `Set-Cookie`, `Cache-Control`) are kept.
package struct ExplainedErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// An explanation's body and its content type.
    package typealias Render = @Sendable (ErrorExplanation) -> (contentType: String, body: ByteBuffer)

    /// How the sample words an explanation.
    package let render: Render

    /// A middleware that answers with what `render` makes.
    package init(render: @escaping Render) {
        self.render = render
    }

    /// Calls `next`, and explains its answer or its error when the request failed.
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let explanation: ErrorExplanation
        var headers: HTTPFields = [:]
        do {
            let response = try await next(request, context)
            guard response.status.code >= 400 else { return response }
            (explanation, headers) = await Self.explain(response, request)
        } catch let failure as SampleFailure {
            explanation = ErrorExplanation(failure)
        } catch let error as any HTTPResponseError {
            // A redirect to a sign-in is an answer, not a failure.
            guard error.status.code >= 400 else { throw error }
            (explanation, headers) = await Self.explain(try error.response(from: request, context: context), request)
        } catch {
            explanation = ErrorExplanation(unexpected: error)
        }
        context.logger.log(
            level: explanation.status.code >= 500 ? .error : .info, "request failed",
            metadata: [
                "status": "\(explanation.status.code)", "method": "\(request.method)", "path": "\(request.uri.path)",
                "error": "\(explanation.error)", "cause": "\(explanation.cause)",
            ])
        let (contentType, body) = render(explanation)
        headers[.contentType] = contentType
        return Response(status: explanation.status, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// The explanation an error answer carries, and its fields but those about its body.
    private static func explain(_ response: Response, _ request: Request) async -> (ErrorExplanation, HTTPFields) {
        let collected = CollectedBody()
        try? await response.body.write(BodyCollector(into: collected))
        let explanation = ErrorExplanation(
            status: response.status, contentType: response.headers[.contentType], body: collected.buffer,
            method: "\(request.method)", path: request.uri.path)
        var headers = response.headers
        headers[.contentType] = nil
        headers[.contentLength] = nil
        return (explanation, headers)
    }
}

/// The first 16 KB of an error answer's body: enough for any explanation, and no more whatever the body is.
private final class CollectedBody {
    static let limit = 16 * 1024
    var buffer = ByteBuffer()
}

/// Writes a body into a ``CollectedBody``.
private struct BodyCollector: ResponseBodyWriter {
    let into: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        let room = CollectedBody.limit - into.buffer.readableBytes
        guard room > 0 else { return }
        into.buffer.writeImmutableBuffer(
            buffer.getSlice(at: buffer.readerIndex, length: min(room, buffer.readableBytes))!)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
