import Foundation

// The transport speaks swift-http-types, as Hummingbird does: `import MSAL` brings the types its API names.
@_exported @_documentation(visibility: internal) import struct HTTPTypes.HTTPField
@_exported @_documentation(visibility: internal) import struct HTTPTypes.HTTPFields
@_exported @_documentation(visibility: internal) import struct HTTPTypes.HTTPRequest
@_exported @_documentation(visibility: internal) import struct HTTPTypes.HTTPResponse

/// Sends HTTP requests: swift-http-types' `HTTPRequest` (method, URL, `HTTPFields`) and a body, answered by an
/// `HTTPResponse` (status, `HTTPFields`) and its body. Implementations return a response for every HTTP status and
/// throw only when no response arrived (connection refused, timeout, TLS failure, a body over the size cap).
///
///     struct Recording: HTTPTransport {
///         let inner: any HTTPTransport
///         func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
///             print(request.method, request.url?.path ?? "")
///             return try await inner.send(request, body: body)
///         }
///     }
public protocol HTTPTransport: Sendable {
    /// Sends `request` with `body` and returns the response, whatever its status, with its body (empty when there is
    /// none).
    ///
    /// - Parameters:
    ///   - request: the method, the URL (scheme, authority and path) and the header fields.
    ///   - body: the request's body, `nil` for none.
    /// - Throws: ``MSALError`` with `transportFailed` or `timedOut` when there is no response.
    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data)
}
