import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// The transports' one reading of why a request got no answer: the error of async-http-client, NIO or NIOSSL
/// becomes an ``MSALError`` `transportFailed` that names the server, says what happened in a user's terms and
/// what to do next, with its ``MSALError/TransportFailure`` and the original error as ``MSALError/underlyingError``.
enum UnansweredRequest {
    /// The error for `error`, thrown while sending to `url`.
    static func error(_ error: any Error & Sendable, url: URL) -> MSALError {
        let host = url.host ?? "the server"
        let failure = { (reason: MSALError.TransportFailure.Reason) in
            MSALError.TransportFailure(reason, host: host, port: url.port)
        }
        let server = DefaultHTTPTransport.hostAndPort(url)
        let https = url.scheme?.lowercased() == "https"
        switch error {
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return refused(failure(.connectionRefused), underlyingError: error)
        case let error as NIOConnectionError
        where error.connectionErrors.isEmpty && (error.dnsAError != nil || error.dnsAAAAError != nil):
            return MSALError.internal(
                .transportFailed,
                "The host \(host) is not found (its name does not resolve); check the URL's host name.",
                underlyingError: error, transportFailure: failure(.hostNotFound))
        case let error as NIOConnectionError
        where error.connectionErrors.allSatisfy { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }:
            return refused(failure(.connectionRefused), underlyingError: error)
        case let error as IOError:
            return MSALError.internal(
                .transportFailed, "Cannot connect to \(server): \(String(cString: strerror(error.errnoCode))).",
                underlyingError: error)
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return MSALError.internal(
                .transportFailed,
                "The certificate of \(server) is not trusted: it is not issued for \(host). Use the host name the "
                    + "certificate names.", underlyingError: error, transportFailure: failure(.untrustedCertificate))
        case let error as NIOSSLError:
            let reasons = handshakeReasons(error)
            if reasons.contains("certificate verify failed") {
                return MSALError.internal(
                    .transportFailed,
                    "The certificate of \(server) is not trusted (no trusted CA issued it). Trust the CA that "
                        + "issued it, or use a certificate from a CA the system trusts.",
                    underlyingError: error, transportFailure: failure(.untrustedCertificate))
            }
            let plainHTTP =
                reasons.contains("wrong version number") ? " The server may speak plain http: try an http:// URL." : ""
            return MSALError.internal(
                .transportFailed,
                "The TLS handshake with \(server) failed (\(reasons.isEmpty ? "\(error)" : reasons.joined(separator: ", "))).\(plainHTTP)",
                underlyingError: error, transportFailure: failure(.handshakeFailed))
        case let error as HTTPClientError where error == .remoteConnectionClosed:
            return MSALError.internal(
                .transportFailed,
                "\(server) closed the connection without answering."
                    + (https ? "" : " The server may expect https: try an https:// URL."),
                underlyingError: error, transportFailure: failure(.connectionClosed))
        default:
            return MSALError.internal(
                .transportFailed, "The request to \(server) failed: \(error)", underlyingError: error)
        }
    }

    /// Connection refused: nothing listens there; on this machine, perhaps the emulator is not started.
    private static func refused(_ failure: MSALError.TransportFailure, underlyingError: any Error & Sendable)
        -> MSALError
    {
        let next =
            failure.isLoopback
            ? " If it is the identity emulator, start it: swift run identity-emulator."
            : " Check the URL's host and port."
        return MSALError.internal(
            .transportFailed,
            "Cannot connect to \(failure.hostAndPort): nothing listens there (connection refused)."
                + next, underlyingError: underlyingError, transportFailure: failure)
    }

    /// BoringSSL's reasons for a failed handshake in words (`CERTIFICATE_VERIFY_FAILED` is "certificate verify
    /// failed"), without its codes and source paths; empty for another NIOSSL error.
    static func handshakeReasons(_ error: NIOSSLError) -> [String] {
        guard case .handshakeFailed(.sslError(let errors)) = error else { return [] }
        // Each reads "Error: <code> error:<hex>:<library>:<function>:<REASON> at <file>:<line>"; NIOSSL gives
        // the text only.
        return errors.compactMap { failure in
            let text = "\(failure)"
            let withoutPlace = text.range(of: " at ").map { String(text[..<$0.lowerBound]) } ?? text
            guard let reason = withoutPlace.split(separator: ":").last?.trimmingCharacters(in: .whitespaces),
                !reason.isEmpty
            else { return nil }
            return reason.lowercased().replacingOccurrences(of: "_", with: " ")
        }
    }
}
