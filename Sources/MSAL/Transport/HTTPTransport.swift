import Foundation

/// An HTTP request as the library sends it.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable, CaseIterable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
        case delete = "DELETE"
    }

    public var method: Method
    public var url: URL
    /// Header fields in order; names are case-insensitive.
    public var headers: [(name: String, value: String)]
    public var body: Data?

    public init(method: Method, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// An HTTP response, for every status.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Sends HTTP requests. Implementations return a response for every HTTP status and throw only when
/// no response arrived (connection refused, timeout, TLS failure, a body over the size cap).
public protocol HTTPTransport: Sendable {
    /// - Throws: ``MSALError`` with `transportFailed` or `timedOut` when there is no response.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
