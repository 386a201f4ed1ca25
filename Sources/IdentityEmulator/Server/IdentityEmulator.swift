import Crypto
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import ListeningPort
import Logging
import ServiceLifecycle
import UnixSignals

/// An offline stand-in for `login.microsoftonline.com`, `{tenant}.ciamlogin.com` and Microsoft Graph.
public enum IdentityEmulator {
    /// Why the emulator could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts an emulator, runs `body` with it, and shuts it down cleanly when `body` returns or throws.
    ///
    /// - Parameters:
    ///   - configuration: where to listen and what to serve; port `0` picks a free port.
    ///   - body: work to do while the emulator runs.
    /// - Throws: ``StartError`` when it cannot start (a port out of range or in use, a TLS folder others can write
    ///   to); ``DirectoryConfigurationError`` for a bad directory; whatever `body` throws.
    public static func withRunning<Result: Sendable>(
        _ configuration: EmulatorConfiguration,
        _ body: @Sendable (RunningEmulator) async throws -> Result
    ) async throws -> Result {
        try await serve(configuration, signals: [], untilSignalled: false, body)
    }

    /// Runs until SIGINT or SIGTERM, calling `onReady` once the port is bound.
    ///
    /// - Throws: ``StartError`` when it cannot start (a port out of range or in use, a TLS folder others can write
    ///   to); ``DirectoryConfigurationError`` for a bad directory.
    public static func run(
        _ configuration: EmulatorConfiguration,
        onReady: @Sendable (RunningEmulator) async -> Void
    ) async throws {
        try await serve(configuration, signals: [.sigint, .sigterm], untilSignalled: true) { running in
            await onReady(running)
        }
    }

    private static func serve<Result: Sendable>(
        _ configuration: EmulatorConfiguration,
        signals: [UnixSignal],
        untilSignalled: Bool,
        _ body: @Sendable (RunningEmulator) async throws -> Result
    ) async throws -> Result {
        if let problem = ListeningPort.problem(configuration.port) { throw StartError(description: "port \(problem)") }
        let stateFile = configuration.stateFile.map { DirectoryStateFile(url: $0, logger: configuration.logger) }
        let directory: Directory
        do {
            directory = try stateFile?.load() ?? configuration.directory
        } catch {
            throw StartError(description: "\(configuration.stateFile?.path ?? ""): \(error)")
        }
        try directory.validate()
        do {
            try stateFile?.write(directory)
        } catch {
            throw StartError(
                description: "the state file \(configuration.stateFile?.path ?? "") cannot be written: \(error)")
        }
        let now = configuration.clock.now(offset: 0)
        let key = try SigningKey.generate(now: now)
        // TLS certificates face real clients, so they follow the real clock, not the emulator's.
        let kept = try configuration.tlsDirectory.map { folder in
            try LocalCertificateAuthority.kept(in: folder, now: Date(), extraName: configuration.publicURL?.host)
        }
        let authority = kept?.0
        let address = ServedAddress(
            scheme: authority == nil ? "http" : "https", host: configuration.host,
            publicURL: configuration.publicURL)
        let core = EmulatorCore(
            state: EmulatorState(
                directory: directory, clock: configuration.clock, seed: configuration.seed,
                onChange: stateFile.map { file in { @Sendable directory in file.save(directory) } }),
            issuer: TokenIssuer(keys: SigningKeyRing(key)), secure: authority != nil,
            accessTokenLifetime: configuration.accessTokenLifetime,
            address: address, arcKeys: ArcKeyFiles(folder: configuration.arcKeyFolder))
        let caFile = configuration.tlsDirectory?.appendingPathComponent(LocalCertificateAuthority.certificateFileName)
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let http1 = HTTPServerBuilder.http1(
            configuration: .init(
                additionalChannelHandlers: [
                    RequestHeadDeadline(
                        timeout: .init(configuration.requestHeadTimeout), keepAlive: .init(configuration.idleTimeout))
                ],
                idleTimeout: .init(configuration.idleTimeout)))
        let server: HTTPServerBuilder =
            if let authority {
                try .tls(http1, tlsConfiguration: authority.serverTLSConfiguration())
            } else {
                http1
            }
        let app = Hummingbird.Application(
            router: EmulatorRouter.make(core: core, caFile: caFile),
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                address.bind(port: port)
                portContinuation.yield(port)
                portContinuation.finish()
            },
            logger: configuration.logger)
        let group = ServiceGroup(
            configuration: .init(
                services: [app], gracefulShutdownSignals: signals, logger: configuration.logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { portContinuation.finish() }
                try await group.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                do {
                    try await tasks.next()
                } catch {
                    let explanation = ListeningPort.explanation(
                        of: error, host: configuration.host, port: configuration.port)
                    throw explanation.map { StartError(description: $0) } ?? error
                }
                throw StartError(description: "the emulator stopped before it was listening")
            }
            let scheme = authority == nil ? "http" : "https"
            let host = ServedAddress.bracketed(configuration.host)
            let running = RunningEmulator(
                baseURL: URL(string: "\(scheme)://\(host):\(port)")!, issuerOrigin: URL(string: address.origin)!,
                port: port,
                caCertificatePEM: authority?.caCertificatePEM, caCertificateFile: caFile,
                caCertificateIsNew: kept?.isNew ?? false,
                directory: directory,
                serverCertificateThumbprint: authority.map {
                    Insecure.SHA1.hash(data: $0.serverCertificateDER).map { String(format: "%02X", $0) }.joined()
                })
            do {
                let result = try await body(running)
                if !untilSignalled { await group.triggerGracefulShutdown() }
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    /// Creates `folder` `0700`, or checks that an existing one belongs to this user and nobody else can
    /// write to it: clients trust the CA file kept there, so another local user must not be able
    /// to put theirs in its place (`--tls-directory` may name a folder in the shared temporary directory).
    static func ensurePrivateFolder(_ folder: URL) throws {
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var info = stat()
        guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(),
            info.st_mode & 0o022 == 0
        else {
            throw StartError(
                description:
                    "\(folder.path) is not a folder of this user's that only they can write to; choose another with --tls-directory"
            )
        }
    }
}

/// Assembles the routes.
enum EmulatorRouter {
    /// - Parameter caFile: the local CA's certificate file when serving TLS, which the dashboard says how to trust.
    static func make(core: EmulatorCore, caFile: URL? = nil) -> Router<EmulatorRequestContext> {
        let router = Router(context: EmulatorRequestContext.self)
        router.add(
            middleware: HostCheckMiddleware(
                address: core.address, isCustomURLDomain: { core.state.index.isCustomURLDomain($0) }))
        router.add(middleware: FaultInjectionMiddleware(core: core))
        let signIn = SignInFlow(core: core)
        DiscoveryRoutes(core: core).register(on: router)
        AuthorizeRoutes(core: core, flow: signIn).register(on: router)
        signIn.register(on: router)
        TokenRoutes(core: core, minting: TokenMinting(core: core)).register(on: router)
        DeviceCodeRoutes(core: core, flow: signIn).register(on: router)
        LogoutRoutes(core: core).register(on: router)
        B2CRoutes(
            core: core, authorize: AuthorizeRoutes(core: core, flow: signIn),
            token: TokenRoutes(core: core, minting: TokenMinting(core: core)), logout: LogoutRoutes(core: core)
        ).register(on: router)
        GraphRoutes(core: core).register(on: router)
        ResourceManagerRoutes(core: core).register(on: router)
        SampleAPIRoutes(core: core).register(on: router)
        AdminRoutes(core: core).register(on: router)
        // The dashboard's pages and forms, under the admin API's prefix, behind a guard of their own (its forms post
        // HTML forms, which the admin API's middleware refuses).
        Dashboard(core: core, caFile: caFile?.path).register(on: router)
        WorkloadIssuerRoutes(core: core).register(on: router)
        ManagedIdentityRoutes(issuer: ManagedIdentityIssuer(core: core)).register(on: router)
        let native = NativeAuthSupport(core: core)
        NativeSignInRoutes(support: native).register(on: router)
        NativeSignUpRoutes(support: native).register(on: router)
        NativeResetPasswordRoutes(support: native).register(on: router)
        NativeRegisterRoutes(support: native).register(on: router)
        return router
    }
}
