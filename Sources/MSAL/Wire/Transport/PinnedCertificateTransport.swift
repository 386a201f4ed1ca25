import Crypto
import Foundation
import HTTPTypes
import Locking
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import NIOPosix
import NIOSSL

/// Sends each request on a TLS connection of its own to a server that is trusted for one reason only: its leaf
/// certificate has the expected SHA-1 thumbprint. Service Fabric's managed identity endpoint presents a
/// self-signed certificate that no CA vouches for and the cluster tells the process its thumbprint; a
/// certificate with any other thumbprint ends the handshake. Redirects are not followed.
struct PinnedCertificateTransport: HTTPTransport {
    /// The leaf certificate's SHA-1 thumbprint, upper-case hexadecimal.
    let thumbprint: String
    var timeout: Duration = .seconds(30)
    var maximumResponseSize = 1 << 20

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        guard let url = request.url, url.scheme?.lowercased() == "https", let host = url.host else {
            throw MSALError.internal(
                .invalidParameter,
                "A pinned certificate needs an https URL, not \(request.url.map { "\($0)" } ?? "none").")
        }
        let port = url.port ?? 443
        let operation: @Sendable () async throws -> (HTTPResponse, Data) = { [self] in
            try await exchange(request, url: url, body: body, host: host, port: port)
        }
        do {
            guard let response = try await DefaultHTTPTransport.within(timeout, operation) else {
                throw MSALError.internal(.timedOut, "No answer from \(host):\(port) within \(timeout).")
            }
            return response
        } catch let error as MSALError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw UnansweredRequest.error(error, url: url)
        }
    }

    /// The exchange; a certificate with another thumbprint is reported as such, whatever error the handshake's end
    /// surfaces as.
    private func exchange(_ request: HTTPRequest, url: URL, body: Data?, host: String, port: Int) async throws
        -> (HTTPResponse, Data)
    {
        let presented = PresentedCertificate()
        do {
            return try await exchange(request, url: url, body: body, host: host, port: port, presented: presented)
        } catch {
            guard let other = presented.thumbprint.withLock({ $0 }), other != thumbprint else { throw error }
            throw MSALError.internal(
                .transportFailed,
                "The TLS handshake with \(host):\(port) failed: its certificate's SHA-1 thumbprint is \(other), not \(thumbprint).",
                underlyingError: error)
        }
    }

    private func exchange(
        _ request: HTTPRequest, url: URL, body requestBody: Data?, host: String, port: Int,
        presented: PresentedCertificate
    ) async throws -> (HTTPResponse, Data) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .noHostnameVerification
        let context = try NIOSSLContext(configuration: tls)
        let expected = thumbprint
        let isAddress = (try? SocketAddress(ipAddress: host, port: port)) != nil
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = try NIOSSLClientHandler(
                        context: context, serverHostname: isAddress ? nil : host,
                        customVerificationCallback: { certificates, promise in
                            let leaf = certificates.first.flatMap { try? $0.toDERBytes() }
                            let thumbprint = leaf.map(Self.thumbprint(of:)) ?? "absent"
                            presented.thumbprint.withLock { $0 = thumbprint }
                            promise.succeed(thumbprint == expected ? .certificateVerified : .failed)
                        })
                    try channel.pipeline.syncOperations.addHandler(handler)
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            components.percentEncodedPath = ""
            let target = path + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
            var head = HTTPRequestHead(
                version: .http1_1, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue), uri: target)
            head.headers.add(name: "Host", value: url.port == nil ? host : "\(host):\(port)")
            head.headers.add(contentsOf: HTTPHeaders(request.headerFields))
            head.headers.add(name: "Content-Length", value: String(requestBody?.count ?? 0))
            head.headers.add(name: "Connection", value: "close")
            try await outbound.write(.head(head))
            if let requestBody { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: requestBody)))) }
            try await outbound.write(.end(nil))
            var responseHead: HTTPResponseHead?
            var body = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let received):
                    responseHead = received
                case .body(var chunk):
                    guard body.readableBytes + chunk.readableBytes <= maximumResponseSize else {
                        throw MSALError.internal(
                            .invalidResponse, "The response from \(host) exceeds \(maximumResponseSize) bytes.")
                    }
                    body.writeBuffer(&chunk)
                case .end:
                    guard let responseHead else { break }
                    return (try HTTPResponse(responseHead), Data(body.readableBytesView))
                }
            }
            throw MSALError.internal(.transportFailed, "\(host):\(port) closed the connection before its answer ended.")
        }
    }

    /// The SHA-1 thumbprint of a DER certificate, upper-case hexadecimal (as `IDENTITY_SERVER_THUMBPRINT`).
    static func thumbprint(of der: [UInt8]) -> String {
        Insecure.SHA1.hash(data: der).map { String(format: "%02X", $0) }.joined()
    }
}

/// The thumbprint of the certificate a server presented, noted by the verification callback.
private final class PresentedCertificate: Sendable {
    let thumbprint = Locked<String?>(nil)
}
