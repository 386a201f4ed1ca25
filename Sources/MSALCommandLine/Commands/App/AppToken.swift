import ArgumentParser
import Foundation
import Logging
import MSAL
import MSALPostgres

/// `msal app token`: an app-only token (client credentials, or a managed identity's) for scripts.
struct AppToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print an app-only access token (client credentials, or the host's managed identity).",
        discussion: """
            Give exactly one of --certificate, --client-secret-env, --federated-token-file or --managed-identity. \
            With --managed-identity the token comes from the endpoint Azure gives the host (App Service, Service \
            Fabric, Azure Arc, Cloud Shell, Azure Machine Learning or IMDS, detected from the environment as MSAL \
            does); --client-id, --resource-id or --object-id name a user-assigned identity:
              msal app token --managed-identity --resource https://management.azure.com/
            App tokens are cached where signed-in users' tokens are (the cache file or the keyring, as Azure CLI \
            keeps a service principal's), so the next run takes the token from there until 5 minutes before it \
            expires. With --cache postgres://user@host/db they are kept in PostgreSQL instead, shared by every \
            process that uses the same database (sealed with AES-GCM when MSAL_TOKEN_CACHE_KEY holds a base64 \
            32-byte key). Example:
              MY_SECRET=… msal app token --client-id ID --tenant contoso.onmicrosoft.com \\
                --scopes https://graph.microsoft.com/.default --client-secret-env MY_SECRET
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The tenant id or domain the app gets its token in.", valueName: "tenant"))
    var tenant: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("The resource's scope, e.g. https://graph.microsoft.com/.default.", valueName: "scope"))
    var scopes: [String] = []

    @Flag(name: .customLong("managed-identity"), help: "Get the token as the host's managed identity.")
    var managedIdentity = false

    @Option(
        help: ArgumentHelp(
            "With --managed-identity: the resource, e.g. https://management.azure.com/ (or give --scopes …/.default).",
            valueName: "uri"))
    var resource: String?

    @Option(
        name: .customLong("resource-id"),
        help: ArgumentHelp("With --managed-identity: a user-assigned identity's Azure resource id.", valueName: "id"))
    var resourceID: String?

    @Option(
        name: .customLong("object-id"),
        help: ArgumentHelp(
            "With --managed-identity: a user-assigned identity's object (principal) id.", valueName: "id"))
    var objectID: String?

    @Option(
        help: ArgumentHelp(
            "A PEM file with the private key and the certificate registered on the app.", valueName: "file"))
    var certificate: String?

    @Option(
        name: .customLong("client-secret-env"),
        help: ArgumentHelp("The environment variable that holds the client secret.", valueName: "name"))
    var clientSecretEnvironmentVariable: String?

    /// Refused: a secret on the command line is in the process list and the shell's history.
    @Option(name: .customLong("client-secret"), help: .hidden)
    var clientSecretOnCommandLine: String?

    @Option(
        name: .customLong("federated-token-file"),
        help: ArgumentHelp(
            "A token another identity provider issued to this workload, read on every request.", valueName: "file"))
    var federatedTokenFile: String?

    @Flag(
        name: .customLong("send-x5c"), help: "Send the certificate chain with the assertion (subject name and issuer).")
    var sendX5C = false

    @Flag(name: .customLong("force-refresh"), help: "Skip a cached token.")
    var forceRefresh = false

    @Option(
        help: ArgumentHelp(
            "Get the token from Entra's regional endpoint of this region (e.g. westus2), or of the one detected with "
                + "'auto' (REGION_NAME, then IMDS; the global endpoint when neither tells).", valueName: "region"))
    var region: String?

    /// The region `--region` names.
    var azureRegion: AzureRegion? { region.map { $0.lowercased() == "auto" ? .autoDetect : .named($0) } }

    func validate() throws {
        guard clientSecretOnCommandLine == nil else {
            throw ValidationError(
                "Secrets are never taken on the command line (other users see it in the process list): put the "
                    + "secret in an environment variable and name it with --client-secret-env NAME.")
        }
        let given = [certificate, clientSecretEnvironmentVariable, federatedTokenFile].compactMap { $0 }
        guard given.count + (managedIdentity ? 1 : 0) == 1 else {
            throw ValidationError(
                "Give exactly one credential: --certificate, --client-secret-env, --federated-token-file or --managed-identity."
            )
        }
        if managedIdentity {
            guard region == nil else { throw ValidationError("--region does not go with --managed-identity.") }
            try validateManagedIdentity()
            return
        }
        guard resource == nil, resourceID == nil, objectID == nil else {
            throw ValidationError("--resource, --resource-id and --object-id go with --managed-identity.")
        }
        guard tenant != nil else { throw ValidationError("Name the app's tenant with --tenant.") }
        _ = try ScopeList.required(scopes)
    }

    func run() async throws {
        if managedIdentity { return try await runManagedIdentity() }
        let command = self
        try await withSharedStore { context, store in
            let app = try command.application(context, store: store)
            let result = try await app.acquireTokenForClient(
                ClientCredentialParameters(
                    scopes: ScopeList.split(command.scopes), forceRefresh: command.forceRefresh))
            if command.global.json {
                try context.printJSON(TokenView.json(result))
            } else {
                context.console.out(result.accessToken)
            }
        }
    }

    /// Runs `body` with the PostgreSQL store `--cache` names, if any, and shuts the store down afterwards.
    func withSharedStore(
        _ body: @escaping @Sendable (CommandContext, PostgresTokenCacheStore?) async throws -> Void
    ) async throws {
        let command = self
        try await global.values.run(databaseCache: true) { context in
            let store = try command.sharedStore(context)
            do {
                try await body(context, store)
            } catch {
                await store?.shutdown()
                throw error
            }
            await store?.shutdown()
        }
    }

    /// The confidential client the options describe, on the settings' identity provider and transport.
    ///
    /// - Throws: ``UsageError`` for a missing client id, an unset secret variable or an unreadable certificate.
    func application(_ context: CommandContext, store: PostgresTokenCacheStore?) throws
        -> ConfidentialClientApplication
    {
        let settings = context.settings
        guard settings.clientID.origin != .defaultValue else {
            throw UsageError("msal app token needs the app's --client-id (or MSAL_CLIENT_ID).")
        }
        return try Self.confidentialApplication(
            clientID: settings.clientID.value, credential: try credential().clientCredential(sendX5C: sendX5C),
            authority: try Self.authority(settings.authority.value, tenant: tenant ?? ""), context: context,
            store: store, region: azureRegion)
    }

    /// A confidential client on the context's transport and logging, its tokens cached in front of `store`
    /// (else beside the signed-in users', see ``sharedCache(_:context:logger:)``).
    static func confidentialApplication(
        clientID: String, credential: ClientCredential, authority: Authority, context: CommandContext,
        store: PostgresTokenCacheStore?, region: AzureRegion? = nil
    ) throws -> ConfidentialClientApplication {
        var configuration = ConfidentialClientApplicationConfiguration(
            clientID: clientID, credential: credential, authority: authority)
        configuration.azureRegion = region
        configuration.piiLoggingEnabled = context.options.logPII
        if context.options.verbose { configuration.logger = VerboseLogHandler.logger(console: context.console) }
        configuration.transport = try CommandContext.transport(trusting: context.settings)
        configuration.cache = try sharedCache(store, context: context, logger: configuration.logger)
        // Beside the token cache, as the other commands keep it: a cached token then costs no request at all.
        configuration.authorityMetadataFile = context.app.configuration.authorityMetadataFile
        return try ConfidentialClientApplication(configuration: configuration)
    }

    /// Where the app's tokens are cached: in front of `store`, sealed with the key in `MSAL_TOKEN_CACHE_KEY` when set;
    /// without a store, in the signed-in users' token cache (the file or the keyring the context chose), where
    /// they are entries filed under the app's client id and tenant (a managed identity's id and `managed_identity`).
    static func sharedCache(_ store: PostgresTokenCacheStore?, context: CommandContext, logger: Logger) throws
        -> PartitionedTokenCache
    {
        guard let store else {
            return PartitionedTokenCache(appTokens: context.app.configuration.cache, logger: logger)
        }
        return PartitionedTokenCache(
            store: try sealed(store, keyBase64: ProcessInfo.processInfo.environment["MSAL_TOKEN_CACHE_KEY"]),
            logger: logger)
    }

    /// The PostgreSQL store `--cache postgres://…` names; `nil` for any other cache (app tokens then go to the
    /// signed-in users' token cache).
    ///
    /// - Throws: ``UsageError`` for a URL that is not a PostgreSQL connection URL.
    func sharedStore(_ context: CommandContext) throws -> PostgresTokenCacheStore? {
        let cache = context.settings.cachePath.value
        guard CommandContext.isDatabaseURL(cache) else { return nil }
        do {
            // One run, one connection: waiting longer than a server's 2 s for it beats a run without the cache.
            return try PostgresTokenCacheStore(url: PostgresConnectionURL(cache), operationTimeout: .seconds(10))
        } catch {
            throw UsageError("The cache URL is not valid: \(ExitCodes.line(for: error))")
        }
    }

    /// The store sealed with the key in `MSAL_TOKEN_CACHE_KEY`, when set.
    static func sealed(_ store: any TokenCachePartitionStore, keyBase64: String?) throws -> any TokenCachePartitionStore
    {
        guard let keyBase64 else { return store }
        guard let raw = Data(base64Encoded: keyBase64),
            let key = try? TokenCacheEncryptionKey(id: "msal-cli", rawKey: raw)
        else {
            throw UsageError("MSAL_TOKEN_CACHE_KEY must hold 32 bytes in base64 (e.g. openssl rand -base64 32).")
        }
        return EncryptedTokenCachePartitionStore(store, key: key)
    }

    /// The credential the options name.
    ///
    /// - Throws: ``UsageError`` when the secret's variable is unset or empty.
    private func credential() throws -> AppCredential {
        if let name = clientSecretEnvironmentVariable {
            guard let secret = ProcessInfo.processInfo.environment[name], !secret.isEmpty else {
                throw UsageError("The environment variable \(name) holds no client secret.")
            }
            return .secret(secret)
        }
        if let certificate { return .certificate(path: certificate) }
        return .federatedTokenFile(path: federatedTokenFile ?? "")
    }

    /// The settings' identity provider (scheme, host and port) with `tenant` as the path.
    static func authority(_ base: String, tenant: String) throws -> Authority {
        guard var components = URLComponents(string: base), components.host != nil else {
            throw UsageError("The authority \(base) is not valid.")
        }
        components.path = "/\(tenant)"
        components.query = nil
        do {
            return try Authority(components.string ?? base)
        } catch {
            throw UsageError("The tenant \(tenant) does not make a valid authority: \(ExitCodes.line(for: error))")
        }
    }
}
