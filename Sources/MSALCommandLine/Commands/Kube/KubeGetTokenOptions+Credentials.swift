import Foundation
import MSAL

/// Who `msal kube get-token` signs in as: the authority, service principal, workload or managed identity its
/// options and the environment name.
extension KubeGetTokenOptions {
    /// The authority a user signs in at: the sign-in host (``authorityHost``, `AZURE_AUTHORITY_HOST`, the
    /// ``environment``'s) with the tenant; `nil` when neither a host nor a tenant is given (msal's own authority).
    func userAuthority(_ variables: [String: String]) throws -> String? {
        let host =
            authorityHost ?? variables["AZURE_AUTHORITY_HOST"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment.flatMap(AzureCloud.authorityHost)
        let tenant = tenantID ?? variables["AZURE_TENANT_ID"].flatMap { $0.isEmpty ? nil : $0 }
        guard host != nil || tenant != nil else { return nil }
        let base = try host ?? Settings.resolve(global, environment: variables).authority.value
        return try AppToken.authority(base, tenant: tenant ?? "organizations").url.absoluteString
    }

    /// The service principal (`spn`) or workload identity the variables name, the flags standing in for the
    /// variables that are unset (kubelogin's order: its variables win over its flags).
    ///
    /// - Throws: ``UsageError`` when no credential is given, or one without its client id or tenant.
    func appCredential(_ mode: KubeLoginMode, _ variables: [String: String]) throws -> EnvironmentCredential {
        var variables = variables
        func fill(_ name: String, _ value: String?, alias: String? = nil) {
            guard let value, [name, alias].compactMap({ $0 }).allSatisfy({ variables[$0]?.isEmpty ?? true }) else {
                return
            }
            variables[name] = value
        }
        fill("AZURE_CLIENT_ID", global.clientID, alias: "AAD_SERVICE_PRINCIPAL_CLIENT_ID")
        fill("AZURE_TENANT_ID", tenantID)
        fill("AZURE_AUTHORITY_HOST", authorityHost ?? environment.flatMap(AzureCloud.authorityHost))
        let needs: String
        if mode == .workloadidentity {
            fill("AZURE_FEDERATED_TOKEN_FILE", federatedTokenFile)
            for name in [
                "AZURE_CLIENT_SECRET", "AAD_SERVICE_PRINCIPAL_CLIENT_SECRET", "AZURE_CLIENT_CERTIFICATE_PATH",
                "AAD_SERVICE_PRINCIPAL_CLIENT_CERTIFICATE",
            ] {
                variables[name] = nil
            }
            needs = "AZURE_FEDERATED_TOKEN_FILE (or --federated-token-file)"
        } else {
            fill("AZURE_CLIENT_CERTIFICATE_PATH", clientCertificate, alias: "AAD_SERVICE_PRINCIPAL_CLIENT_CERTIFICATE")
            variables["AZURE_FEDERATED_TOKEN_FILE"] = nil
            needs = "AZURE_CLIENT_SECRET or AZURE_CLIENT_CERTIFICATE_PATH (or --client-certificate)"
        }
        guard let credential = try EnvironmentCredential.read(variables) else {
            throw UsageError("--login \(mode.rawValue) needs \(needs), with AZURE_CLIENT_ID and AZURE_TENANT_ID.")
        }
        return credential
    }

    /// The managed identity kubelogin's options name: `--identity-resource-id`, else a client id
    /// (`AZURE_CLIENT_ID` over `--client-id`), else the system-assigned one.
    func managedIdentity(_ variables: [String: String]) -> ManagedIdentity {
        if let identityResourceID { return .userAssignedResourceID(identityResourceID) }
        if let clientID = variables["AZURE_CLIENT_ID"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return .userAssignedClientID(clientID)
        }
        if let clientID = global.clientID { return .userAssignedClientID(clientID) }
        return .systemAssigned
    }
}
