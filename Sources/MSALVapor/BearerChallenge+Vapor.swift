import MSAL
import Vapor

extension BearerChallenge: AsyncResponseEncodable {
    /// The response: the status, `WWW-Authenticate`, and a JSON body with `error` and `error_description`, as
    /// MSALHummingbird answers.
    public func encodeResponse(for request: Request) async throws -> Response {
        response
    }

    /// The challenge as Vapor's response.
    var response: Response {
        var headers = HTTPHeaders()
        for field in headerFields { headers.add(name: field.name.rawName, value: field.value) }
        return Response(
            status: HTTPResponseStatus(statusCode: status.code), headers: headers, body: .init(data: body))
    }
}
