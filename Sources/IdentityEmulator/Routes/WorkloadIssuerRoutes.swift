import Foundation
import Hummingbird

/// The built-in workload identity issuer under `/_emulator/workload`, for loopback clients only:
///
/// - `GET .well-known/openid-configuration`: its discovery document
/// - `GET keys`: its JWKS (its own key, not the emulator's)
/// - `POST token` (`{"subject": "…", "audience"?: "api://AzureADTokenExchange", "lifetimeSeconds"?: 3600}`):
///   a projected service-account token, `{"token": "…", "expiresOn": N}`, on the emulator's clock
struct WorkloadIssuerRoutes: Sendable {
    let core: EmulatorCore

    /// The longest lifetime a minted token may ask for: a week.
    static let maximumLifetime = 7 * 86_400

    func register(on router: Router<EmulatorRequestContext>) {
        let group = router.group("_emulator/workload").add(middleware: LoopbackOnlyMiddleware())
        group.get(".well-known/openid-configuration") { _, _ in
            HTTPExchange.json(core.workload.discovery(origin: core.issuerOrigin))
        }
        group.get("keys") { _, _ in
            guard let keys = try? core.workload.keys() else {
                return Self.failure("no signing key", .internalServerError)
            }
            return HTTPExchange.json(keys)
        }
        group.post("token") { request, context in
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            return mint(Data(buffer: body))
        }
    }

    /// Answers a `POST token` body: a projected token, or 400 with the usage.
    func mint(_ body: Data) -> Response {
        let usage =
            #"expected {"subject": "system:serviceaccount:<namespace>:<name>", "audience"?: "api://AzureADTokenExchange", "lifetimeSeconds"?: 3600}"#
        guard let json = try? JSONValue.parse(body), let subject = json["subject"]?.stringValue, !subject.isEmpty,
            subject.count <= Application.maximumIssuerOrSubjectLength
        else { return Self.failure(usage, .badRequest) }
        let audience: String
        switch json["audience"] {
        case nil: audience = WorkloadIssuer.defaultAudience
        case .string(let value)? where !value.isEmpty: audience = value
        default: return Self.failure(usage, .badRequest)
        }
        let lifetime: Int
        switch json["lifetimeSeconds"] {
        case nil: lifetime = 3600
        case .int(let value)? where (1...Self.maximumLifetime).contains(value): lifetime = value
        default:
            return Self.failure(
                "lifetimeSeconds must be a whole number of seconds, 1–\(Self.maximumLifetime)", .badRequest)
        }
        guard
            let minted = try? core.workload.token(
                subject: subject, audience: audience, lifetime: lifetime, now: core.state.now,
                origin: core.issuerOrigin, jti: core.state.guid())
        else { return Self.failure("signing failed", .internalServerError) }
        return HTTPExchange.json(.object([("token", .string(minted.token)), ("expiresOn", .int(minted.expiresOn))]))
    }

    private static func failure(_ message: String, _ status: HTTPResponse.Status) -> Response {
        HTTPExchange.json(.object([("error", .string(message))]), status: status)
    }
}
