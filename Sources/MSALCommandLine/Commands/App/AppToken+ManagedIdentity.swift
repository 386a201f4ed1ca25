import ArgumentParser
import Foundation
import Logging
import MSAL

/// `msal app token --managed-identity`: the host's managed identity, as `az login --identity` users expect.
extension AppToken {
    func validateManagedIdentity() throws {
        guard tenant == nil else { throw ValidationError("A managed identity's tenant is the host's: drop --tenant.") }
        guard certificate == nil, !sendX5C else { throw ValidationError("A managed identity holds no certificate.") }
        let resources = (resource.map { [$0] } ?? []) + ScopeList.split(scopes)
        guard resources.count == 1 else {
            throw ValidationError("Name one resource: --resource https://management.azure.com/ or --scopes …/.default.")
        }
        guard [resourceID, objectID].compactMap({ $0 }).count <= 1 else {
            throw ValidationError("Name a user-assigned identity once: --client-id, --resource-id or --object-id.")
        }
    }

    func runManagedIdentity() async throws {
        let command = self
        try await global.run(databaseCache: true) { context in
            let store = try command.sharedStore(context)
            do {
                let app = try command.managedIdentityApplication(context, store: store)
                let result = try await app.acquireToken(
                    resource: command.resource ?? ScopeList.split(command.scopes)[0],
                    forceRefresh: command.forceRefresh)
                if command.global.json {
                    var json = TokenView.json(result)
                    json["managed_identity_source"] = app.source.rawValue
                    try context.printJSON(json)
                } else {
                    context.console.out(result.accessToken)
                }
            } catch {
                await store?.shutdown()
                throw error
            }
            await store?.shutdown()
        }
    }

    /// The app for the identity the options name, from the process's environment as Azure sets it.
    private func managedIdentityApplication(_ context: CommandContext, store: (any TokenCachePartitionStore)?) throws
        -> ManagedIdentityApplication
    {
        let clientID = context.settings.clientID
        let identity: ManagedIdentity
        if let resourceID {
            identity = .userAssignedResourceID(resourceID)
        } else if let objectID {
            identity = .userAssignedObjectID(objectID)
        } else if clientID.origin == .flag {
            identity = .userAssignedClientID(clientID.value)
        } else {
            identity = .systemAssigned
        }
        if identity != .systemAssigned, clientID.origin == .flag, resourceID != nil || objectID != nil {
            throw UsageError("Name a user-assigned identity once: --client-id, --resource-id or --object-id.")
        }
        var configuration = try ManagedIdentityApplicationConfiguration(identity: identity)
        if global.verbose {
            var logger = Logger(label: "MSAL") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = .debug
            configuration.logger = logger
        }
        if let transport = try CommandContext.transport(trusting: context.settings) {
            configuration.transport = transport
        }
        if let store {
            configuration.cache = PartitionedTokenCache(
                store: try Self.sealed(store, keyBase64: ProcessInfo.processInfo.environment["MSAL_TOKEN_CACHE_KEY"]),
                logger: configuration.logger)
        }
        return try ManagedIdentityApplication(configuration: configuration)
    }
}
