import Hummingbird
import MSAL

extension BearerChallenge: HTTPResponseError {
    /// The response: the status, `WWW-Authenticate`, and a JSON body with `error` and `error_description`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: headerFields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
