import ArgumentParser
import Foundation
import MSAL

/// `msal`: the tutorials' sample app as a command-line tool.
public struct MSALCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "msal",
        abstract: "Sign in with the Microsoft identity platform, get tokens, call Microsoft Graph and other APIs.",
        usage: "msal [<global-options>] <subcommand> [<options>]",
        discussion: """
            Settings come from flags, then MSAL_AUTHORITY, MSAL_CLIENT_ID, MSAL_TOKEN_CACHE, MSAL_GRAPH_ENDPOINT \
            and MSAL_CA_BUNDLE, then ${XDG_CONFIG_HOME:-~/.config}/msal/config.json (`msal config set KEY VALUE` stores a setting \
            there), then defaults that point at identity-emulator on 127.0.0.1:8400.

            The global options go before or after the subcommand (`msal --authority URL login` is \
            `msal login --authority URL`); given twice, the last one wins. SSL_CERT_FILE adds its \
            certificates to the system's roots, as --ca-bundle does.

            Proxies: HTTPS_PROXY and HTTP_PROXY (or ALL_PROXY; either case, the lower-case one first) name an \
            http:// proxy, with credentials in the URL when it asks for them (http://user:password@host:3128); \
            https goes through it with CONNECT. NO_PROXY lists the hosts reached directly: names and their \
            subdomains, IP addresses, CIDR blocks, each optionally with :port, or * alone for none. \
            `app token --managed-identity` never uses a proxy: its endpoints are on the host.

            Exit codes: 0 ok, 1 error, 2 usage, 3 interaction required, 4 error from the identity platform, \
            5 network, 130 cancelled.
            """,
        version: LibraryIdentity.version,
        subcommands: [
            Login.self, Me.self, Token.self, Accounts.self, Logout.self, DeviceInfo.self, Call.self, Native.self,
            App.self, Config.self, Demo.self, Decode.self, GitCredential.self, Kube.self,
        ])

    /// The global options given before the subcommand. The parser keys a value by its property's path
    /// (`global.authority`), so each subcommand's own `@OptionGroup var global` receives them too: the
    /// root only declares them, and a subcommand's property must keep the name `global`.
    @OptionGroup(title: "Global Options") var global: GlobalOptions

    public init() {}

    /// Runs the command line and exits: the commands tools run on every call (``HotCommand``) on this thread
    /// (``CommandRunLoop``), the others as ArgumentParser parses them, on the global executor. A usage error exits 2
    /// (not the parser's 64). Call it from the main thread.
    public static func start(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        if let command = HotCommandLine.command(arguments) {
            CommandRunLoop.run { await exiting { try await command.run() } }
        }
        Task { await exiting { try await parsedAndRun(arguments) } }
        dispatchMain()
    }

    private static func parsedAndRun(_ arguments: [String]) async throws {
        var command = try parseAsRoot(arguments)
        if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try command.run()
        }
    }

    /// Runs `body`, then exits 0, or with the code of its error after printing the error's message.
    private static func exiting(_ body: () async throws -> Void) async -> Never {
        do {
            try await body()
            Foundation.exit(0)
        } catch {
            let code = exitCode(for: error)
            // Help and version: ArgumentParser prints them.
            if code.isSuccess { exit(withError: error) }
            // Error messages quote the identity platform and the redirect: printed without control characters.
            let message = TerminalText.safe(fullMessage(for: error))
            if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            Foundation.exit(code == .validationFailure ? ExitCodes.usage : code.rawValue)
        }
    }
}
