import Foundation
import HTTPTypes
import Locking

/// A configuration's default transport: a ``DefaultHTTPTransport`` with the proxy the environment names, made when the
/// app is made (``make()``), not with the configuration. An app that sets its own transport never has the proxy
/// variables read; one that keeps the default fails to be made when they are malformed (``MSALError``
/// `invalidParameter`, naming the variable).
final class DeferredDefaultTransport: HTTPTransport {
    /// The variables the proxy is read from: the process's.
    private let environment: @Sendable () -> [String: String]
    /// The transport once made, or why it could not be (not a `Result`, whose `Failure: Error` requirement costs a
    /// conformance search when an app that brings its own transport lets this one go: see "Start-up" in the
    /// library's README).
    private enum Made {
        case transport(DefaultHTTPTransport)
        case failure(MSALError)
    }

    private let made = Locked<Made?>(nil)

    init(environment: @escaping @Sendable () -> [String: String] = { ProcessInfo.processInfo.environment }) {
        self.environment = environment
    }

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        try await make().send(request, body: body)
    }

    /// Makes `transport` when it is a configuration's default (see ``make()``); any other transport is the app's own.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` for a malformed proxy variable.
    static func make(ifDefault transport: any HTTPTransport) throws {
        // The types are compared first: a cast that fails costs a conformance search (the library's README, "Start-up").
        guard type(of: transport) == DeferredDefaultTransport.self,
            let deferred = transport as? DeferredDefaultTransport
        else { return }
        try deferred.make()
    }

    /// The transport, made on the first call; the same error on every call when it cannot be made.
    @discardableResult
    func make() throws -> DefaultHTTPTransport {
        let made = made.withLock { made in
            if let made { return made }
            do {
                let proxy = try ProxySettings(environment: environment())
                made = .transport(try DefaultHTTPTransport(proxy: proxy.map { .settings($0) } ?? .direct))
            } catch let error as MSALError {
                made = .failure(error)
            } catch {
                made = .failure(
                    .internal(.unexpected, "The default transport could not be made.", underlyingError: error))
            }
            return made!
        }
        switch made {
        case .transport(let transport): return transport
        case .failure(let error): throw error
        }
    }
}
