import AsyncHTTPClient
import Foundation
import HTTPTypes
import Locking
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import NIOPosix
import NIOSSL

/// The Linux transport: one async-http-client for the process (and one per proxy), with a per-request
/// timeout, a response size cap, optionally an extra CA to trust (the emulator's local CA), and the proxy
/// the environment names (``ProxySettings``) unless told otherwise. It fails at once when a server refuses
/// the connection (instead of retrying until the deadline), connects a name under `localhost` (`westus2.localhost`)
/// to this machine as RFC 6761 has it, naming that host in `Host`, and never follows redirects: an identity
/// platform endpoint that redirects is answered as is, and a bearer token never follows one.
public struct DefaultHTTPTransport: HTTPTransport {
    /// Where the transport takes its proxy from.
    public enum Proxy: Sendable {
        /// `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY` and `NO_PROXY`, read when the transport is made.
        case environment
        /// Always connect directly (the default of ``ManagedIdentityApplicationConfiguration/transport``).
        case direct
        /// These settings, whatever the environment says.
        case settings(ProxySettings)
    }

    /// Bodies larger than this are refused (a hostile or broken server cannot exhaust memory).
    public var maximumResponseSize: Int
    /// The deadline of a whole request.
    public var timeout: Duration
    private let trustRoots: AdditionalTrustRoots?
    /// The proxy settings in force; `nil` when every request goes directly.
    public let proxySettings: ProxySettings?

    /// A transport on the process's shared HTTP client, trusting `trustedCAPEM` too when given.
    ///
    /// - Parameters:
    ///   - trustedCAPEM: PEM certificates to trust in addition to the system's (for a local CA).
    ///   - timeout: the whole request's deadline.
    ///   - maximumResponseSize: the largest body accepted.
    ///   - proxy: where the proxy comes from (the environment by default).
    /// - Throws: ``MSALError`` `invalidParameter` when the PEM holds no certificate or a block is not a
    ///   certificate's encoding, or a proxy URL is not an `http://` URL. The certificates are parsed on the first
    ///   request, which throws `invalidParameter` when one cannot be.
    public init(
        trustedCAPEM: String? = nil, timeout: Duration = .seconds(30),
        maximumResponseSize: Int = WireSender.maximumResponseSize,
        proxy: Proxy = .environment
    ) throws {
        switch proxy {
        case .environment: proxySettings = try ProxySettings(environment: ProcessInfo.processInfo.environment)
        case .direct: proxySettings = nil
        case .settings(let settings): proxySettings = settings
        }
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        trustRoots = try trustedCAPEM.map(AdditionalTrustRoots.init(pem:))
    }

    /// Sends `request` with `body`, failing at once when the connection is refused and never following a redirect.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` for a request without a URL (scheme, authority and path) or
    ///   a trusted CA that cannot be parsed;
    ///   `timedOut` or `transportFailed` when no answer arrived (with its ``MSALError/transportFailure`` when the
    ///   connection was refused, the host not found, the certificate not trusted or the connection closed);
    ///   `invalidResponse` for a body over
    ///   ``maximumResponseSize``.
    public func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        guard let url = request.url else {
            throw MSALError.internal(.invalidParameter, "The request has no URL (scheme, authority and path).")
        }
        let local = LocalhostNames.connection(for: url)
        var outgoing = HTTPClientRequest(url: (local?.url ?? url).absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        outgoing.headers = HTTPHeaders(request.headerFields)
        if let local { outgoing.headers.replaceOrAdd(name: "Host", value: local.host) }
        if let body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        outgoing.tlsConfiguration = try trustRoots?.tlsConfiguration()
        let proxy = proxySettings?.proxy(for: local?.url ?? url)
        let client = Self.client(through: proxy)
        do {
            guard
                let response = try await Self.within(
                    timeout,
                    { [maximumResponseSize, outgoing] in
                        let response = try await client.execute(outgoing, timeout: .init(timeout))
                        let body = try await response.body.collect(upTo: maximumResponseSize)
                        let status = HTTPResponse.Status(
                            code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase)
                        return (
                            HTTPResponse(
                                status: status, headerFields: HTTPFields(response.headers, splitCookie: false)),
                            Data(body.readableBytesView)
                        )
                    })
            else {
                throw HTTPClientError.deadlineExceeded
            }
            return response
        } catch let error as NIOTooManyBytesError {
            throw MSALError.internal(
                .invalidResponse,
                "The response from \(url.host ?? "the server") exceeds \(maximumResponseSize) bytes (\(error)).",
                underlyingError: error)
        } catch let error as HTTPClientError
            where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout
        {
            throw MSALError.internal(
                .timedOut, "No answer from \(url.host ?? "the server") within \(timeout).", underlyingError: error)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as HTTPClientError where error == .proxyAuthenticationRequired {
            throw MSALError.internal(
                .transportFailed,
                "The proxy at \(Self.hostAndPort(proxy)) asks for credentials (407): give them in the proxy URL, "
                    + "http://user:password@host:port.", underlyingError: error)
        } catch let error as HTTPClientError where error == .invalidProxyResponse {
            throw MSALError.internal(
                .transportFailed,
                "The proxy at \(Self.hostAndPort(proxy)) did not open a tunnel to \(Self.hostAndPort(url)).",
                underlyingError: error)
        } catch let error as NIOConnectionError where proxy != nil {
            let reason = (error.connectionErrors.first?.error as? IOError).map {
                String(cString: strerror($0.errnoCode))
            }
            throw MSALError.internal(
                .transportFailed, "Cannot connect to the proxy at \(Self.hostAndPort(proxy)): \(reason ?? "\(error)").",
                underlyingError: error)
        } catch let error as IOError where proxy != nil {
            throw MSALError.internal(
                .transportFailed,
                "Cannot connect to the proxy at \(Self.hostAndPort(proxy)): \(String(cString: strerror(error.errnoCode))).",
                underlyingError: error)
        } catch {
            throw UnansweredRequest.error(error, url: url)
        }
    }
}

extension DefaultHTTPTransport {
    /// `exchange`'s result, or `nil` when `timeout` passes first (the exchange is then cancelled).
    /// async-http-client's deadline covers the response head only; this bounds the body too, so a
    /// server that drips its answer cannot hold a caller longer than the timeout.
    static func within(
        _ timeout: Duration, _ exchange: @escaping @Sendable () async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data)? {
        try await withThrowingTaskGroup(of: (HTTPResponse, Data)?.self) { group in
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
    static let client = makeClient(proxy: nil)

    /// One client per proxy (async-http-client sets the proxy per client), made on first use and kept.
    private static let proxiedClients = Locked<[URL: HTTPClient]>([:])

    static func client(through proxy: URL?) -> HTTPClient {
        guard let proxy else { return client }
        return proxiedClients.withLock { clients in
            if let known = clients[proxy] { return known }
            let made = makeClient(proxy: proxy)
            clients[proxy] = made
            return made
        }
    }

    private static func makeClient(proxy: URL?) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10)))
        configuration.connectionPool.retryConnectionEstablishment = false
        if let proxy, let host = proxy.host {
            let components = URLComponents(url: proxy, resolvingAgainstBaseURL: false)
            let user = components?.percentEncodedUser?.removingPercentEncoding
            let password = components?.percentEncodedPassword?.removingPercentEncoding
            configuration.proxy = .server(
                host: host, port: proxy.port ?? 80,
                authorization: user.map { .basic(username: $0, password: password ?? "") })
        }
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// `host:port` of `url`, never its credentials.
    static func hostAndPort(_ url: URL?) -> String {
        guard let url else { return "the server" }
        return (url.host ?? "the server") + (url.port.map { ":\($0)" } ?? "")
    }
}

extension TimeAmount {
    fileprivate init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
