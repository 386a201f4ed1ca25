import ArgumentParser
import AsyncHTTPClient
import Foundation
import IdentityEmulator

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
        guard global.given.isEmpty else {
            throw ValidationError(
                "msal demo takes no global options (\(global.given.joined(separator: ", "))): "
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
                    let steps = try await DemoStory(emulator: emulator, http: http, clock: clock, narrator: narrator)
                        .run()
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
}
