import Foundation

/// Microsoft's own applications, present in every Entra tenant whatever the directory file holds (a file may
/// still declare an application of the same client id, which then replaces it): the Azure CLI's and Azure
/// PowerShell's public clients, preconsented as Entra has them, and the Azure APIs they ask for, Azure Resource
/// Manager, Key Vault, the Azure Kubernetes Service's Entra server (with its client, the one kubeconfigs name)
/// and Azure DevOps, which accept v1.0 access tokens. ``DirectoryIndex`` serves them beside the directory's.
enum FirstPartyApplications {
    /// The tenant Microsoft registers its applications in.
    static let microsoftTenant = "f8cdef31-a31e-4b4a-93e4-5f571e91255a"

    /// Azure Resource Manager, known by both of its application id URIs.
    static let azureResourceManager = Application(
        clientId: "797f4846-ba00-4fd7-ba43-dac1f8f63013", displayName: "Windows Azure Service Management API",
        tenant: microsoftTenant, kind: .api, identifierUri: "https://management.azure.com",
        scopes: ["user_impersonation"], otherIdentifierUris: ["https://management.core.windows.net"],
        accessTokenAcceptedVersion: 1)

    /// Azure Key Vault's data plane.
    static let keyVault = Application(
        clientId: "cfa8b339-82a2-471a-a3c9-0fc0be7a4093", displayName: "Azure Key Vault", tenant: microsoftTenant,
        kind: .api, identifierUri: "https://vault.azure.net", scopes: ["user_impersonation"],
        accessTokenAcceptedVersion: 1)

    /// The Azure Kubernetes Service Microsoft Entra server: the API an AKS cluster with AKS-managed Entra
    /// authentication accepts tokens for (`{id}/.default`, kubelogin's `--server-id`), v1.0 tokens whose `aud` is
    /// its client id.
    static let aksServer = Application(
        clientId: "6dae42f8-4368-4678-94ff-3960e28e3630", displayName: "Azure Kubernetes Service AAD Server",
        tenant: microsoftTenant, kind: .api, scopes: ["user.read"], accessTokenAcceptedVersion: 1)

    /// Azure DevOps: Azure Repos takes its access tokens (`{id}/.default`, v1.0 tokens whose `aud` is its client id)
    /// as the password of HTTPS Basic authentication, as Git Credential Manager and `msal git-credential` send them.
    static let azureDevOps = Application(
        clientId: "499b84ac-1321-427f-aa17-267ca6975798", displayName: "Azure DevOps", tenant: microsoftTenant,
        kind: .api, scopes: ["user_impersonation"], accessTokenAcceptedVersion: 1)

    /// What an administrator has consented to for the Azure CLI and Azure PowerShell in every tenant: Resource
    /// Manager, Key Vault, the AKS server, Azure DevOps and Graph's `User.Read` (scopes of a Graph the directory does
    /// not serve are ignored).
    private static let toolConsent = [
        "https://management.azure.com/user_impersonation", "https://vault.azure.net/user_impersonation",
        "https://graph.microsoft.com/User.Read",
        "\(aksServer.clientId)/user.read", "\(azureDevOps.clientId)/user_impersonation",
    ]

    /// The Azure CLI (`az login`): a public client of family `1`, signing in through the browser on
    /// `http://localhost` (any port) or with a device code.
    static let azureCLI = Application(
        clientId: "04b07795-8ddb-461a-bbee-02f9e1bf7b46", displayName: "Microsoft Azure CLI", tenant: microsoftTenant,
        kind: .publicClient,
        redirectUris: ["http://localhost", "https://login.microsoftonline.com/common/oauth2/nativeclient"],
        familyId: "1", adminConsentedScopes: toolConsent)

    /// Azure PowerShell (`Connect-AzAccount`): a public client of family `1`, like the Azure CLI.
    static let azurePowerShell = Application(
        clientId: "1950a258-227b-4e31-a9cf-717495945fc2", displayName: "Microsoft Azure PowerShell",
        tenant: microsoftTenant, kind: .publicClient,
        redirectUris: ["http://localhost", "urn:ietf:wg:oauth:2.0:oob"], familyId: "1",
        adminConsentedScopes: toolConsent)

    /// The Azure Kubernetes Service Microsoft Entra client: the public client `az aks get-credentials` names in a
    /// kubeconfig (kubelogin's `--client-id`), signing in through the browser on `http://localhost` (any port) or
    /// with a device code, preconsented for the AKS server.
    static let aksClient = Application(
        clientId: "80faf920-1908-4b52-b5ef-a8e7bedfc67a", displayName: "Azure Kubernetes Service AAD Client",
        tenant: microsoftTenant, kind: .publicClient, redirectUris: ["http://localhost"],
        adminConsentedScopes: ["\(aksServer.clientId)/user.read"])

    static let all = [azureCLI, azurePowerShell, azureResourceManager, keyVault, aksServer, aksClient, azureDevOps]

    /// The client ids of Microsoft's APIs that accept v1.0 access tokens: Microsoft Graph, Azure AD Graph, Resource
    /// Manager, Key Vault, the AKS server and Azure DevOps.
    private static let v1APIs: Set<String> = [
        "00000003-0000-0000-c000-000000000000", "00000002-0000-0000-c000-000000000000",
        azureResourceManager.clientId, keyVault.clientId,
        aksServer.clientId, azureDevOps.clientId,
    ]

    /// True for Microsoft Graph (by client id or `https://graph.microsoft.com`) and Microsoft's other APIs that
    /// accept v1.0 tokens.
    static func acceptsV1Tokens(_ api: Application) -> Bool {
        v1APIs.contains(api.clientId.lowercased())
            || api.identifierUri.map(DirectoryIndex.withoutTrailingSlash)?.lowercased() == "https://graph.microsoft.com"
    }
}
