import Foundation
import Hummingbird

/// What every route shares: the state actor, the signing key and how the server is reached.
struct EmulatorCore: Sendable {
    let state: EmulatorState
    let issuer: TokenIssuer
    let secure: Bool
    /// A fixed access-token lifetime in seconds, or `nil` for Entra's random 3600–5399.
    let accessTokenLifetime: Int?
    /// The canonical origin and the host names requests may use.
    let address: ServedAddress
    /// The built-in workload identity issuer (federated credentials), with a key of its own.
    let workload = WorkloadIssuer()
    /// The Azure Arc agent's challenge keys.
    let arcKeys: ArcKeyFiles

    /// The published signing keys; ``SigningKeyRing/current`` signs.
    var keys: SigningKeyRing { issuer.keys }

    /// The origin the client used (one of ``address``'s names: the host check refuses others), for the
    /// endpoints a response points to.
    func origin(of request: Request) -> String {
        request.head.authority.map(address.origin(reachedThrough:)) ?? address.origin
    }

    /// The origin every issuer names, whichever host name the client used.
    var issuerOrigin: String { address.origin }

    func traceID() -> String { GUIDText.random() }

    /// The next armed scenario for `route` matching `matching`; no actor hop when none is armed.
    func scenario(for route: Scenario.Route, where matching: @Sendable (Scenario) -> Bool) async -> Scenario? {
        guard state.armedScenarios.load(ordering: .relaxed) > 0 else { return nil }
        return await state.takeScenario(for: route, where: matching)
    }

    func errorResponse(_ error: EntraError, for request: Request) async -> Response {
        HTTPExchange.entraError(error, request: request, traceID: traceID(), now: state.now, secure: secure)
    }
}

extension EmulatorCore {
    /// A core on the demo directory that is never served (as if bound to 127.0.0.1:8400), for code that drives
    /// the routes' functions directly: the fuzz targets.
    static func offline() throws -> EmulatorCore {
        let address = ServedAddress(scheme: "http", host: "127.0.0.1", publicURL: nil)
        address.bind(port: 8400)
        return EmulatorCore(
            state: EmulatorState(directory: .demo, clock: EmulatorClock(), seed: 1),
            issuer: TokenIssuer(keys: SigningKeyRing(try SigningKey.generate(now: Date()))), secure: false,
            accessTokenLifetime: 3600, address: address,
            arcKeys: ArcKeyFiles(folder: FileManager.default.temporaryDirectory))
    }
}
