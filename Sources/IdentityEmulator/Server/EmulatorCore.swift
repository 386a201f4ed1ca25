import Foundation
import Hummingbird

/// What every route shares: the state actor, the signing key and how the server is reached.
struct EmulatorCore: Sendable {
    let state: EmulatorState
    let issuer: TokenIssuer
    let secure: Bool
    /// A fixed access-token lifetime in seconds, or `nil` for Entra's random 3600–5399.
    let accessTokenLifetime: Int?
    /// Host and port to use when a request carries no `Host` header.
    let fallbackAuthority: String

    var key: SigningKey { issuer.key }

    func origin(of request: Request) -> String {
        HTTPExchange.origin(of: request, scheme: secure ? "https" : "http", fallback: fallbackAuthority)
    }

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
