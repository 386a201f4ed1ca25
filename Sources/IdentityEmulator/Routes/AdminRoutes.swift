import Foundation
import Hummingbird
import OutsideJSON

/// The admin and test API under `/_emulator/`, answered only to loopback peers.
///
/// - `GET directory` (or `export`): tenants, users (with demo passwords) and applications, as a directory file
/// - `POST import`: serve the directory file in the body from now on (kept in the state file, if any)
/// - `POST reset`: forget sessions, grants, consent, outbox, log and scenarios
/// - `POST users/{upn or id}/revoke`: revoke a user's refresh tokens and sessions
/// - `GET|POST clock` (`{"offsetSeconds": N}`): shift the emulator's clock
/// - `GET outbox`: one-time codes "sent" to users
/// - `GET requests` (`?path=…` filter): requests served, for counting network calls
/// - `GET|POST|DELETE scenarios`: inject faults into the next requests to a route
/// - `POST keys/rotate`: roll the token-signing key over (the previous key stays published)
/// - `GET stats`: how many grants, sessions, codes and log entries the emulator holds, and its resident memory
/// - `POST tokens`, `POST claims`: tokens for tests without a sign-in, and claims for the next tokens
///   (``TokensOnDemand``)
///
/// The dashboard (``Dashboard``) is served under the same prefix: `GET /_emulator/` and `/_emulator/ui/…`.
struct AdminRoutes: Sendable {
    let core: EmulatorCore

    func register(on router: Router<EmulatorRequestContext>) {
        let admin = router.group("_emulator").add(middleware: LoopbackOnlyMiddleware())
        // The directory as served now, as a directory file (`--config`, `--state`, `POST import` read it).
        for path in ["directory", "export"] {
            admin.get(RouterPath(stringLiteral: path)) { _, _ in
                let data = (try? core.state.index.directory.fileContents()) ?? Data("{}".utf8)
                return HTTPExchange.text(
                    String(decoding: data, as: UTF8.self), contentType: "application/json; charset=utf-8")
            }
        }
        admin.post("import") { request, context in
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            do {
                let directory = try Directory.decode(Data(buffer: body))
                await core.state.importDirectory(directory)
                return HTTPExchange.json(
                    .object([
                        ("tenants", .int(directory.tenants.count)), ("users", .int(directory.users.count)),
                        ("applications", .int(directory.applications.count)),
                    ]))
            } catch let error as DirectoryConfigurationError {
                return HTTPExchange.json(.object([("error", .string(error.description))]), status: .badRequest)
            }
        }
        admin.post("reset") { _, _ in
            await core.state.reset()
            return HTTPExchange.json(.object([("reset", .bool(true))]))
        }
        admin.post("users/:user/revoke") { _, context in
            let key = context.parameters.get("user") ?? ""
            let index = core.state.index
            guard let user = index.user(named: key) ?? index.user(objectID: key) else {
                return HTTPExchange.json(.object([("error", .string("no such user: \(key)"))]), status: .notFound)
            }
            let at = await core.state.revoke(userID: user.id)
            return HTTPExchange.json(
                .object([("user", .string(user.userPrincipalName)), ("revokedAt", .int(at.epochSeconds))]))
        }
        admin.post("keys/rotate") { _, _ in
            let fresh = try core.keys.rotate(now: core.state.now)
            return HTTPExchange.json(
                .object([
                    ("kid", .string(fresh.kid)), ("published", .array(core.keys.all.map { .string($0.kid) })),
                ]))
        }
        admin.get("stats") { _, _ in
            var members = await core.state.liveCounts().map { ($0.0, JSONValue.int($0.1)) }
            if let bytes = ResidentMemory.bytes() { members.append(("residentBytes", .int(bytes))) }
            return HTTPExchange.json(.object(members))
        }
        admin.get("clock") { _, _ in await clock() }
        admin.post("clock") { request, context in
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            switch Self.clockOffset(Data(buffer: body)) {
            case .success(let seconds):
                core.state.setClockOffset(seconds)
                return await clock()
            case .failure(let message):
                return HTTPExchange.json(.object([("error", .string(message.description))]), status: .badRequest)
            }
        }
        admin.get("outbox") { _, _ in
            HTTPExchange.json(.object([("messages", .array(await core.state.outbox.map(\.json)))]))
        }
        admin.get("requests") { request, _ in
            let filter = HTTPExchange.query(request).nonEmpty("path")
            let served = core.state.servedRequests().filter { filter == nil || $0.path.hasSuffix(filter!) }
            return HTTPExchange.json(.object([("requests", .array(served.map(\.json)))]))
        }
        admin.get("scenarios") { _, _ in
            let data = (try? Self.encoder.encode(await core.state.activeScenarios())) ?? Data("[]".utf8)
            return HTTPExchange.text(
                String(decoding: data, as: UTF8.self), contentType: "application/json; charset=utf-8")
        }
        admin.post("scenarios") { request, context in
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            do {
                let scenario = try Self.scenario(Data(buffer: body))
                await core.state.addScenario(scenario)
                return HTTPExchange.json(
                    .object([("added", .string("\(scenario.route.rawValue):\(scenario.fault.rawValue)"))]),
                    status: .created)
            } catch let refusal as JSONRefusal {
                return HTTPExchange.json(.object([("error", .string("the body \(refusal)"))]), status: .badRequest)
            } catch {
                let routes = Scenario.Route.allCases.map(\.rawValue).joined(separator: ", ")
                let faults = Scenario.Fault.allCases.map(\.rawValue).joined(separator: ", ")
                return HTTPExchange.json(
                    .object([
                        (
                            "error",
                            .string(
                                "expected {\"route\": one of [\(routes)], \"fault\": one of [\(faults)], \"count\"?, \"retryAfter\"?, \"delayMilliseconds\"?}"
                            )
                        )
                    ]),
                    status: .badRequest)
            }
        }
        admin.delete("scenarios") { _, _ in
            await core.state.clearScenarios()
            return Response(status: .noContent)
        }
        TokensOnDemand(core: core).register(on: admin)
    }

    /// The offset a `POST clock` body asks for: `{"offsetSeconds": N}`, within ±100 years.
    static func clockOffset(_ body: Data) -> Result<TimeInterval, AdminBodyError> {
        let usage = AdminBodyError("expected {\"offsetSeconds\": number}")
        let json: JSONValue
        do {
            json = try JSONValue.parse(body)
        } catch let refusal as JSONRefusal {
            return .failure(AdminBodyError("the body \(refusal)"))
        } catch {
            return .failure(usage)
        }
        guard let offset = json["offsetSeconds"] else { return .failure(usage) }
        let seconds: Double? =
            switch offset {
            case .int(let i): Double(i)
            case .double(let d): d
            default: nil
            }
        return checkedClockOffset(seconds)
    }

    /// `seconds` as a clock offset (the admin API's and the dashboard's): a number within ±100 years.
    static func checkedClockOffset(_ seconds: Double?) -> Result<TimeInterval, AdminBodyError> {
        guard let seconds, seconds.isFinite, abs(seconds) <= 100 * 365 * 86_400 else {
            return .failure(AdminBodyError("offsetSeconds must be a number of seconds within ±100 years"))
        }
        return .success(seconds)
    }

    /// The scenario a `POST scenarios` body describes.
    ///
    /// - Throws: `JSONRefusal` past `JSONLimits.message`, a decoding error, or ``DirectoryConfigurationError`` for a
    ///   count below 1.
    static func scenario(_ body: Data) throws -> Scenario {
        try checked(JSONLimits.message.decode(Scenario.self, from: body))
    }

    /// `scenario` if it can be armed (the admin API's and the dashboard's rule).
    ///
    /// - Throws: ``DirectoryConfigurationError`` for a count below 1.
    static func checked(_ scenario: Scenario) throws -> Scenario {
        guard scenario.count > 0 else {
            throw DirectoryConfigurationError(field: "count", reason: "must be at least 1")
        }
        return scenario
    }

    private func clock() async -> Response {
        let now = core.state.now
        return HTTPExchange.json(
            .object([
                ("now", .int(now.epochSeconds)), ("offsetSeconds", .double(core.state.clockOffset)),
            ]))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// Refuses admin requests from anything but loopback, with 403; changes must be JSON, so a web page
/// in the local browser cannot forge them with a plain form post (415 otherwise).
struct LoopbackOnlyMiddleware: RouterMiddleware {
    func handle(
        _ request: Request, context: EmulatorRequestContext,
        next: (Request, EmulatorRequestContext) async throws -> Response
    ) async throws -> Response {
        guard context.isFromLoopback else {
            return HTTPExchange.json(
                .object([("error", .string("the admin API answers loopback clients only"))]), status: .forbidden)
        }
        if request.method != .get, request.headers[.contentType]?.lowercased().hasPrefix("application/json") != true {
            return HTTPExchange.json(
                .object([("error", .string("admin changes need Content-Type: application/json"))]),
                status: .unsupportedMediaType)
        }
        return try await next(request, context)
    }
}

/// Why an admin request's body was refused (the message is the answer's `error`).
struct AdminBodyError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
