import HTTPTypes
import NIOCore
import Vapor

/// Answers every 4xx and 5xx of the Vapor routes after it (Vapor's 404 for an unknown path and its `Abort`s
/// included) with an ``ErrorExplanation`` in the sample's format, and logs each one with its cause, as
/// ``ExplainedErrorMiddleware`` does on Hummingbird. The original answer's fields that are not about its body are
/// kept; a redirect thrown as an `Abort` (to a sign-in) is answered as the redirect it is.
package struct ExplainedVaporErrors: AsyncMiddleware {
    /// How the sample words an explanation.
    package let render: ErrorExplanation.Render

    /// A middleware that answers with what `render` makes.
    package init(render: @escaping ErrorExplanation.Render) {
        self.render = render
    }

    /// Calls `next`, and explains its answer or its error when the request failed.
    package func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let explanation: ErrorExplanation
        var headers = HTTPHeaders()
        do {
            let response = try await next.respond(to: request)
            guard response.status.code >= 400 else { return response }
            (explanation, headers) = Self.explain(
                response.status, response.headers, body: response.body.buffer ?? ByteBuffer(), request)
        } catch let failure as SampleFailure {
            explanation = ErrorExplanation(failure)
        } catch let abort as any AbortError {
            guard abort.status.code >= 400 else { return Response(status: abort.status, headers: abort.headers) }
            // Vapor gives an `Abort` without a reason its status's phrase: nothing more was said.
            let reason = abort.reason == abort.status.reasonPhrase ? "" : abort.reason
            var fields = abort.headers
            fields.replaceOrAdd(name: .contentType, value: "text/plain; charset=utf-8")
            (explanation, headers) = Self.explain(abort.status, fields, body: ByteBuffer(string: reason), request)
        } catch {
            explanation = ErrorExplanation(unexpected: error)
        }
        explanation.log(to: request.logger, method: request.method.rawValue, path: request.url.path)
        let (contentType, body) = render(explanation)
        headers.replaceOrAdd(name: .contentType, value: contentType)
        return Response(
            status: HTTPResponseStatus(statusCode: explanation.status.code), headers: headers, body: .init(buffer: body)
        )
    }

    /// The explanation an error answer carries, and its fields but those about its body.
    private static func explain(
        _ status: HTTPResponseStatus, _ headers: HTTPHeaders, body: ByteBuffer, _ request: Request
    ) -> (ErrorExplanation, HTTPHeaders) {
        let explanation = ErrorExplanation(
            status: HTTPResponse.Status(code: Int(status.code), reasonPhrase: status.reasonPhrase),
            contentType: headers.first(name: .contentType),
            body: body.getSlice(at: body.readerIndex, length: min(body.readableBytes, ErrorExplanation.bodyLimit))!,
            method: request.method.rawValue, path: request.url.path)
        var kept = headers
        kept.remove(name: .contentType)
        kept.remove(name: .contentLength)
        return (explanation, kept)
    }
}
