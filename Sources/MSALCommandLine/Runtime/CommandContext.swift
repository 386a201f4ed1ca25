import Foundation
import Logging
import MSAL

/// Everything a command needs: its settings, the console, and the application they configure.
struct CommandContext: Sendable {
    /// How `login` and the interactive fallbacks show the sign-in page.
    enum BrowserChoice: Sendable { case system, printURL }

    let options: GlobalOptionValues
    /// The process's environment, read once for the command.
    let environment: [String: String]
    let settings: Settings
    let console: Console
    let status: StatusLine
    let app: PublicClientApplication
    /// Where the signed-in users' tokens live.
    let storage: TokenCacheStorage
    /// The same app for native authentication (`msal native …`); `nil` for the other commands.
    let native: NativeAuthApplication?

    /// - Parameters:
    ///   - native: make a native-auth app, with the External ID tenant as the default authority.
    ///   - databaseCache: the command accepts a PostgreSQL URL as its cache (`msal app token`); the public
    ///     app then keeps its tokens in memory.
    /// - Throws: ``UsageError`` for a bad config file, authority, redirect URI or CA bundle, or a PostgreSQL
    ///   cache for a command that keeps a signed-in user's tokens.
    init(
        options: GlobalOptionValues, console: Console, environment: [String: String], browser: BrowserChoice,
        native: Bool = false, databaseCache: Bool = false
    ) async throws {
        self.options = options
        self.environment = environment
        self.console = console
        status = StatusLine(console: console)
        settings = try Settings.resolve(options, environment: environment, native: native)
        if options.verbose {
            for (name, setting) in settings.origins {
                console.err("msal: \(name): \(Self.withoutPassword(setting.value)) (\(setting.origin.rawValue))")
            }
        }
        let authority: Authority
        do {
            authority = try Authority(settings.authority.value)
        } catch {
            throw UsageError("The authority \(settings.authority.value) is not valid: \(ExitCodes.line(for: error))")
        }
        var configuration = try PublicClientApplicationConfiguration(
            clientID: settings.clientID.value, authority: authority,
            redirectURI: settings.redirectURI.value)
        let cachePath = settings.cachePath.value
        if Self.isDatabaseURL(cachePath) {
            guard databaseCache else {
                throw UsageError(
                    "A PostgreSQL token cache (\(Self.withoutPassword(cachePath))) holds app tokens for msal app token; "
                        + "the other commands keep the signed-in user's tokens in a file (--cache PATH).")
            }
            storage = .file(URL(fileURLWithPath: cachePath))
        } else {
            storage = try await TokenCacheStorage.choose(settings: settings, environment: environment, console: console)
            if options.verbose { console.err("msal: token cache storage: \(storage.description)") }
            configuration.cache = TokenCache(
                persistence: Self.persistence(storage, environment: environment, console: console))
            // Beside the token cache, so each cache (and each test's folder) has its own.
            configuration.authorityMetadataFile = AuthorityMetadataFile(
                url: URL(fileURLWithPath: cachePath).deletingLastPathComponent().appendingFilePath(
                    "msal_authority_metadata.json"))
        }
        configuration.piiLoggingEnabled = options.logPII
        if options.verbose { configuration.logger = VerboseLogHandler.logger(console: console) }
        // The proxy from the environment already read, rather than the library's default transport reading it again.
        configuration.transport = try Self.transport(
            trusting: settings, proxy: ProxySettings(environment: environment).map { .settings($0) } ?? .direct)
        let console = console
        configuration.browser =
            switch browser {
            case .system: SystemBrowserLauncher { console.err($0) }
            case .printURL: PrintingBrowserLauncher { console.err($0) }
            }
        if native {
            let nativeApp = try NativeAuthApplication(
                configuration: configuration, capabilities: [.mfaRequired, .registrationRequired])
            self.native = nativeApp
            app = nativeApp.application
        } else {
            self.native = nil
            app = try PublicClientApplication(configuration: configuration)
        }
    }

    /// The persistence behind `storage`; an unreadable file is set aside with a warning.
    private static func persistence(_ storage: TokenCacheStorage, environment: [String: String], console: Console)
        -> any TokenCachePersistence
    {
        switch storage {
        case .file(let url):
            return FileTokenCachePersistence(
                url: url,
                onSetAside: { copy, reason in
                    console.err(
                        "msal: warning: the token cache \(url.filePath) could not be read (\(reason)); kept it as \(copy) and started with an empty cache."
                    )
                })
        case .keyring(let signal):
            #if os(Linux)
                return SecretServiceTokenCachePersistence(signalURL: signal, environment: environment)
            #else
                preconditionFailure("the keyring is chosen on Linux only")
            #endif
        }
    }

    /// Whether a cache setting names a PostgreSQL database rather than a file.
    static func isDatabaseURL(_ value: String) -> Bool {
        value.hasPrefix("postgres://") || value.hasPrefix("postgresql://")
    }

    /// A setting as `--verbose` shows it: a URL's password (a PostgreSQL cache's) replaced by `***`.
    static func withoutPassword(_ value: String) -> String {
        guard var components = URLComponents(string: value), components.password != nil else { return value }
        components.password = "***"
        return components.string ?? "***"
    }

    /// A transport that trusts the CA bundle (`--ca-bundle`, `MSAL_CA_BUNDLE`, `ca_bundle`) and
    /// `SSL_CERT_FILE` besides the system's roots, when they are set, taking its proxy from `proxy`.
    ///
    /// - Throws: ``UsageError`` naming the file, and the variable for `SSL_CERT_FILE`, when one cannot
    ///   be read or holds no PEM certificate; ``MSALError`` for a malformed proxy variable.
    static func transport(trusting settings: Settings, proxy: DefaultHTTPTransport.Proxy = .environment) throws
        -> DefaultHTTPTransport
    {
        let files = [
            settings.caBundle.map { (path: $0.value, name: "The CA bundle \($0.value)") },
            settings.sslCertFile.map { (path: $0.value, name: "SSL_CERT_FILE (\($0.value))") },
        ].compactMap { $0 }
        guard !files.isEmpty else { return try DefaultHTTPTransport(proxy: proxy) }
        let pems = try files.map { file in
            guard let data = try NamedFile.contents(atPath: file.path, name: file.name) else {
                throw UsageError("\(file.name) cannot be read.")
            }
            // Checked here: in the files joined, the PEM reader would skip a file with no certificate.
            let pem = String(decoding: data, as: UTF8.self)
            guard pem.includes("CERTIFICATE-----") else { throw UsageError("\(file.name) holds no PEM certificate.") }
            return pem
        }
        do {
            // Joined by a loop: `joined(separator:)` asks the runtime for a conformance, on every start.
            let joined = pems.reduce(into: "") { $0 += $0.isEmpty ? $1 : "\n" + $1 }
            return try DefaultHTTPTransport(trustedCAPEM: joined, proxy: proxy)
        } catch {
            // Parsed one by one only on failure, to name the file at fault.
            for (file, pem) in zip(files, pems) where (try? DefaultHTTPTransport(trustedCAPEM: pem)) == nil {
                throw UsageError("\(file.name) holds a certificate that cannot be read.")
            }
            throw error
        }
    }

    /// The account a command acts for: `username`'s, else the signed-in one; `nil` when nobody is.
    ///
    /// - Parameter notSignedIn: the failure when `username` has not signed in here; by default, advice to sign
    ///   in as that user (exit code 3).
    /// - Throws: `notSignedIn`'s failure; ``UsageError`` when several accounts are signed in and none was last.
    func account(username: String?, notSignedIn: (String) -> CommandFailure = CommandContext.signInFirst)
        async throws -> Account?
    {
        // Nobody (or nobody by this name) in the cache needs no discovery: say so before any request, offline too.
        guard try await app.hasCachedAccount(username: username) else {
            if let username { throw notSignedIn(username) }
            return nil
        }
        if let username {
            guard let account = try await app.account(username: username) else { throw notSignedIn(username) }
            return account
        }
        do {
            return try await app.currentAccount().current
        } catch let error as MSALError where error.internalCode == .ambiguousAccount {
            throw UsageError("Several accounts are signed in; choose one with --username (see `msal accounts`).")
        }
    }

    /// `username` has not signed in here: sign in as them (exit code 3).
    static func signInFirst(_ username: String) -> CommandFailure {
        CommandFailure(
            "\(username) has not signed in here; run `msal login --login-hint \(username)`.",
            exitCode: ExitCodes.interactionRequired)
    }

    /// A token for `scopes`: silently for the account, else, when `interactive`, by signing in.
    ///
    /// - Throws: ``CommandFailure`` (exit code 3) when nobody is signed in and `interactive` is false;
    ///   ``MSALError`` `interactionRequired` when the account's token cannot be had silently and `interactive`
    ///   is false; whatever the flows throw.
    func token(scopes: [String], username: String?, interactive: Bool, forceRefresh: Bool = false) async throws
        -> AuthenticationResult
    {
        let account = try await account(username: username)
        if let account {
            do {
                return try await app.acquireTokenSilently(
                    SilentParameters(scopes: scopes, account: account, forceRefresh: forceRefresh))
            } catch let error as MSALError where error.code == .interactionRequired && interactive {
                var parameters = InteractiveParameters(scopes: scopes, loginHint: account.username)
                parameters.claims = error.claimsChallenge
                return try await signIn(parameters)
            }
        }
        guard interactive else {
            throw CommandFailure("Nobody is signed in; run `msal login`.", exitCode: ExitCodes.interactionRequired)
        }
        return try await signIn(InteractiveParameters(scopes: scopes))
    }

    /// An interactive sign-in, with the status line while the browser is out.
    func signIn(_ parameters: InteractiveParameters) async throws -> AuthenticationResult {
        try await status.during("Waiting for you to sign in in the browser…") {
            try await app.acquireTokenInteractively(parameters)
        }
    }

    /// Prints a JSON value on standard output, as every `--json` output is printed (``JSONOutput``).
    func printJSON(_ value: Any) throws {
        try JSONOutput.print(value, on: console)
    }
}
