import ArgumentParser
import Foundation
import MSAL
import MSALPostgres

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
        try await withSharedStore { context, store in
            let app = try command.managedIdentityApplication(context, store: store)
            let result = try await app.acquireToken(
                ManagedIdentityParameters(
                    resource: command.resource ?? ScopeList.split(command.scopes)[0], forceRefresh: command.forceRefresh
                ))
            if command.global.json {
                var json = TokenView.json(result)
                json["managed_identity_source"] = app.source.rawValue
                try context.printJSON(json)
            } else {
                context.console.out(result.accessToken)
            }
        }
    }

    /// The app for the identity the options name, from the process's environment as Azure sets it.
    private func managedIdentityApplication(_ context: CommandContext, store: PostgresTokenCacheStore?) throws
        -> ManagedIdentityApplication
    {
        let clientID = context.settings.clientID
        if clientID.origin == .flag, resourceID != nil || objectID != nil {
            throw UsageError("Name a user-assigned identity once: --client-id, --resource-id or --object-id.")
        }
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
        return try Self.managedIdentityApplication(identity, context: context, store: store)
    }

    /// The app for `identity`, from the process's environment as Azure sets it, its tokens cached in front of
    /// `store` (else beside the signed-in users', see ``sharedCache(_:context:logger:)``).
    static func managedIdentityApplication(
        _ identity: ManagedIdentity, context: CommandContext, store: PostgresTokenCacheStore?
    ) throws -> ManagedIdentityApplication {
        var configuration = try ManagedIdentityApplicationConfiguration(identity: identity)
        if context.options.verbose { configuration.logger = VerboseLogHandler.logger(console: context.console) }
        // Direct, as the library's default: the identity endpoints are on the host, never behind a proxy.
        configuration.transport = try CommandContext.transport(trusting: context.settings, proxy: .direct)
        configuration.cache = try sharedCache(store, context: context, logger: configuration.logger)
        return try ManagedIdentityApplication(configuration: configuration)
    }
}
