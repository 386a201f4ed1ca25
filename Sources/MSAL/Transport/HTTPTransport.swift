import Foundation

/// An HTTP request as the library sends it.
public struct HTTPRequest: Sendable {
    /// The HTTP methods the library and its callers use.
    public enum Method: String, Sendable, CaseIterable {
        /// `GET`.
        case get = "GET"
        /// `POST`.
        case post = "POST"
        /// `PUT`.
        case put = "PUT"
        /// `PATCH`.
        case patch = "PATCH"
        /// `DELETE`.
        case delete = "DELETE"
    }

    /// The method.
    public var method: Method
    /// The URL.
    public var url: URL
    /// Header fields in order; names are case-insensitive.
    public var headers: [(name: String, value: String)]
    /// The body, if any.
    public var body: Data?

    /// A request; headers and body default to none.
    public init(method: Method, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// An HTTP response, for every status.
public struct HTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields in order; names are case-insensitive.
    public var headers: [(name: String, value: String)]
    /// The body, empty when there is none.
    public var body: Data

    /// A response; headers and body default to none.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringCase(name) }?.value
    }
}

/// Sends HTTP requests. Implementations return a response for every HTTP status and throw only when
/// no response arrived (connection refused, timeout, TLS failure, a body over the size cap).
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    ///
    /// - Throws: ``MSALError`` with `transportFailed` or `timedOut` when there is no response.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
