import ArgumentParser
import AsyncHTTPClient
import Foundation
import IdentityEmulator
import Logging
import MSAL
import TodoAPI

/// `msal demo`: the tutorials end to end, offline, with an automated user.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Walk the tutorials end to end against an in-process identity emulator, with an automated user.",
        discussion:
            "Nothing of yours is touched: the emulator runs on an ephemeral port and the token cache lives in memory.")

    /// Parsed only to be refused: `msal --verbose demo` would otherwise be accepted and ignored.
    @OptionGroup(visibility: .private) var global: GlobalOptions

    func validate() throws {
        let given = global.values.given
        guard given.isEmpty else {
            throw ValidationError(
                "msal demo takes no global options (\(given.joined(separator: ", "))): "
                    + "it runs its own emulator with an in-memory cache.")
        }
    }

    func run() async throws {
        let clock = DemoClock()
        let narrator = Narrator()
        let started = ContinuousClock.now
        let configuration = EmulatorConfiguration(port: 0, clock: EmulatorClock(base: { clock.now() }))
        do {
            let steps = try await IdentityEmulator.withRunning(configuration) { emulator in
                let http = HTTPClient(
                    eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                    configuration: .init(redirectConfiguration: .disallow))
                do {
                    // The story is the narration: the services log only what goes wrong on their side.
                    let logger = {
                        var logger = Logger(label: "todo-api")
                        logger.logLevel = .warning
                        return logger
                    }()
                    let steps = try await TodoAPIServer.withRunning(
                        try Self.todoAPI(emulator, clock: clock), logger: logger
                    ) { todoAPI in
                        narrator.say(
                            "todo-api (API 1 and API 2) is running at \(todoAPI.absoluteString) (in this process).")
                        var onVapor = try Self.todoAPI(emulator, clock: clock)
                        onVapor.framework = .vapor
                        return try await TodoAPIServer.withRunning(onVapor, logger: logger) { todoAPIOnVapor in
                            narrator.say(
                                "todo-api on Vapor is running at \(todoAPIOnVapor.absoluteString) (in this process).")
                            return try await DemoStory(
                                emulator: emulator, http: http, clock: clock, narrator: narrator, todoAPI: todoAPI,
                                todoAPIOnVapor: todoAPIOnVapor
                            ).run()
                        }
                    }
                    try await http.shutdown()
                    return steps
                } catch {
                    try? await http.shutdown()
                    throw error
                }
            }
            let elapsed = ContinuousClock.now - started
            narrator.say(
                "Done: \(steps) steps passed in \(elapsed.formatted(.units(allowed: [.seconds, .milliseconds], width: .abbreviated)))."
            )
        } catch let failure as Narrator.StepFailure {
            narrator.say("The demo stopped at step \(failure.step).")
            throw ExitCodes.code(for: failure.underlying)
        }
    }

    /// todo-api on the emulator's tokens (External ID users and Contoso's daemon), on the demo's clock, on Hummingbird
    /// unless the caller changes its framework.
    static func todoAPI(_ emulator: RunningEmulator, clock: DemoClock) throws -> TodoAPIConfiguration {
        let ids = Directory.DemoIDs.self
        var configuration = try TodoAPIConfiguration(
            authority: Authority(emulator.authority("organizations").absoluteString),
            allowedTenants: [ids.externalTenant, ids.contosoTenant],
            apis: [.init(name: "api1", clientID: ids.api1), .init(name: "api2", clientID: ids.api2)],
            api1Credential: .secret(ids.api1Secret), api1Tenant: ids.externalTenant,
            graphBaseURL: emulator.baseURL.appendingPathComponent("v1.0/"))
        configuration.clock = clock
        return configuration
    }
}
