import ArgumentParser
import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import NIOSSL

/// `emulator-browser URL`: a scripted user for the identity emulator's sign-in pages, to put in
/// `$BROWSER` for scripts and CI (`BROWSER=emulator-browser msal login`). It signs in, picks an
/// account or consents as told, follows the redirect back to the app, and exits.
@main
struct EmulatorBrowser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulator-browser",
        abstract: "Sign in on identity-emulator's pages as a scripted user (for $BROWSER in scripts and tests).",
        discussion:
            "Credentials come from the options or EMULATOR_USERNAME and EMULATOR_PASSWORD; an emulator started with --tls needs its CA (--ca-bundle or MSAL_CA_BUNDLE)."
    )

    @Argument(help: "The sign-in URL the app opened.")
    var url: String

    @Option(help: "The username to sign in with (env EMULATOR_USERNAME).")
    var username: String?

    @Option(help: "The password (env EMULATOR_PASSWORD).")
    var password: String?

    @Option(
        name: .customLong("ca-bundle"),
        help: "PEM certificates to trust, e.g. the emulator's local CA (env MSAL_CA_BUNDLE).")
    var caBundle: String?

    @Flag(help: "Cancel the sign-in instead.")
    var cancel = false

    @Flag(name: .customLong("decline-consent"), help: "Decline the consent page.")
    var declineConsent = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let url = URL(string: url) else { throw ValidationError("\(url) is not a URL.") }
        let choice: AutomatedUser.Choice
        if cancel {
            choice = .cancel
        } else {
            guard let username = username ?? environment["EMULATOR_USERNAME"],
                let password = password ?? environment["EMULATOR_PASSWORD"]
            else {
                throw ValidationError("Give --username and --password (or EMULATOR_USERNAME and EMULATOR_PASSWORD).")
            }
            choice = .signIn(username: username, password: password)
        }
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        if let bundle = caBundle ?? environment["MSAL_CA_BUNDLE"] {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.file(bundle)]
            configuration.tlsConfiguration = tls
        }
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do {
            try await AutomatedUser(http: http, choices: [choice], consent: !declineConsent).open(url)
            try await http.shutdown()
        } catch {
            try? await http.shutdown()
            throw error
        }
    }
}
