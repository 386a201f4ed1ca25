import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// The Linux transport: one async-http-client for the process, with a per-request timeout, a response
/// size cap, and optionally an extra CA to trust (the emulator's local CA). It fails at once when a
/// server refuses the connection (instead of retrying until the deadline) and never follows redirects:
/// an identity platform endpoint that redirects is answered as is, and a bearer token never follows one.
public struct DefaultHTTPTransport: HTTPTransport {
    /// Bodies larger than this are refused (a hostile or broken server cannot exhaust memory).
    public var maximumResponseSize: Int
    /// The deadline of a whole request.
    public var timeout: Duration
    private let tlsConfiguration: TLSConfiguration?

    /// A transport on the process's shared HTTP client, trusting `trustedCAPEM` too when given.
    ///
    /// - Parameters:
    ///   - trustedCAPEM: PEM certificates to trust in addition to the system's (for a local CA).
    ///   - timeout: the whole request's deadline.
    ///   - maximumResponseSize: the largest body accepted.
    /// - Throws: ``MSALError`` `invalidParameter` when the PEM cannot be read.
    public init(trustedCAPEM: String? = nil, timeout: Duration = .seconds(30), maximumResponseSize: Int = 4 << 20)
        throws
    {
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        if let trustedCAPEM {
            var tls = TLSConfiguration.makeClientConfiguration()
            do {
                tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(trustedCAPEM.utf8)))]
            } catch {
                throw MSALError.internal(.invalidParameter, "The trusted CA is not a PEM certificate: \(error)")
            }
            tlsConfiguration = tls
        } else {
            tlsConfiguration = nil
        }
    }

    /// Sends `request`, failing at once when the connection is refused and never following a redirect.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        outgoing.tlsConfiguration = tlsConfiguration
        do {
            guard
                let response = try await Self.within(
                    timeout,
                    { [maximumResponseSize, outgoing] in
                        let response = try await Self.client.execute(outgoing, timeout: .init(timeout))
                        let body = try await response.body.collect(upTo: maximumResponseSize)
                        return HTTPResponse(
                            status: Int(response.status.code),
                            headers: response.headers.map { ($0.name, $0.value) },
                            body: Data(body.readableBytesView))
                    })
            else {
                throw HTTPClientError.deadlineExceeded
            }
            return response
        } catch let error as NIOTooManyBytesError {
            throw MSALError.internal(
                .invalidResponse,
                "The response from \(request.url.host ?? "the server") exceeds \(maximumResponseSize) bytes (\(error))."
            )
        } catch let error as HTTPClientError
            where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout
        {
            throw MSALError.internal(.timedOut, "No answer from \(request.url.host ?? "the server") within \(timeout).")
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as IOError {
            throw MSALError.internal(
                .transportFailed,
                "Cannot connect to \(Self.hostAndPort(request.url)): \(String(cString: strerror(error.errnoCode))).")
        } catch {
            throw MSALError.internal(
                .transportFailed, "The request to \(request.url.host ?? "the server") failed: \(error)")
        }
    }
}

extension DefaultHTTPTransport {
    /// `exchange`'s result, or `nil` when `timeout` passes first (the exchange is then cancelled).
    /// async-http-client's deadline covers the response head only; this bounds the body too, so a
    /// server that drips its answer cannot hold a caller longer than the timeout.
    static func within(_ timeout: Duration, _ exchange: @escaping @Sendable () async throws -> HTTPResponse)
        async throws -> HTTPResponse?
    {
        try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
            group.addTask(operation: exchange)
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    /// Shared by every transport in the process, like `HTTPClient.shared`, and never shut down.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    static func hostAndPort(_ url: URL) -> String {
        (url.host ?? "the server") + (url.port.map { ":\($0)" } ?? "")
    }
}

extension TimeAmount {
    fileprivate init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
