import Foundation
import HTTPTypes
import Hummingbird

/// A Resource Manager error: `{"error": {"code", "message"}}` with its status, and a `WWW-Authenticate` challenge
/// for a 401.
struct ResourceManagerError: Error, Sendable {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    var wwwAuthenticate: String?

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String, wwwAuthenticate: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.wwwAuthenticate = wwwAuthenticate
    }

    func response(requestID: String) -> Response {
        var headers = Self.headers(requestID)
        if let wwwAuthenticate { headers[.wwwAuthenticate] = wwwAuthenticate }
        return HTTPExchange.json(
            .object([("error", .object([("code", .string(code)), ("message", .string(message))]))]), status: status,
            headers: headers)
    }

    private static let correlationRequestID = HTTPField.Name("x-ms-correlation-request-id")!

    /// The request ids Resource Manager answers with.
    static func headers(_ requestID: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-cache"
        headers[.msRequestID] = requestID
        headers[Self.correlationRequestID] = requestID
        return headers
    }
}
