import Hummingbird

extension SampleFailure: HTTPResponseError {
    /// The message as plain text; the samples' ``ExplainedErrorMiddleware`` answers in their own format instead.
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}
