import Hummingbird
import Logging

/// Answers every 4xx and 5xx of the Hummingbird routes after it (the router's 404 for an unknown path included) with
/// an ``ErrorExplanation`` in the sample's format (an HTML page for the web app, JSON for the API), and logs each one
/// with its cause (``ErrorExplanation/log(to:method:path:)``). The original answer's fields that are not about its
/// body (`WWW-Authenticate`, `Set-Cookie`, `Cache-Control`) are kept. ``ExplainedVaporErrors`` does the same on Vapor.
package struct ExplainedErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// How the sample words an explanation.
    package let render: ErrorExplanation.Render

    /// A middleware that answers with what `render` makes.
    package init(render: @escaping ErrorExplanation.Render) {
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
        explanation.log(to: context.logger, method: "\(request.method)", path: request.uri.path)
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

/// The start of an error answer's body, up to ``ErrorExplanation/bodyLimit``.
private final class CollectedBody {
    var buffer = ByteBuffer()
}

/// Writes a body into a ``CollectedBody``.
private struct BodyCollector: ResponseBodyWriter {
    let into: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        let room = ErrorExplanation.bodyLimit - into.buffer.readableBytes
        guard room > 0 else { return }
        into.buffer.writeImmutableBuffer(
            buffer.getSlice(at: buffer.readerIndex, length: min(room, buffer.readableBytes))!)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
