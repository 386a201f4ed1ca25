import MSAL

/// A service principal or workload identity named by azure-identity's `EnvironmentCredential` variables, as
/// kubelogin reads them too: `AZURE_CLIENT_ID`, `AZURE_TENANT_ID`, and one of `AZURE_CLIENT_SECRET`,
/// `AZURE_CLIENT_CERTIFICATE_PATH` (a PEM file with the private key and certificate) or
/// `AZURE_FEDERATED_TOKEN_FILE`; `AZURE_AUTHORITY_HOST` optionally. kubelogin's
/// `AAD_SERVICE_PRINCIPAL_CLIENT_ID`, `…_CLIENT_SECRET` and `…_CLIENT_CERTIFICATE` stand for the first three
/// when those are unset. Given several, the secret wins over the certificate and the certificate over the
/// federated token file, in azure-identity's order.
struct EnvironmentCredential: Sendable, Equatable, CustomStringConvertible {
    let clientID: String
    let tenantID: String
    /// `AZURE_AUTHORITY_HOST`, e.g. `https://login.microsoftonline.com/`; `nil` means msal's own authority's
    /// host (`--authority`, `MSAL_AUTHORITY`, the config file).
    let authorityHost: String?
    let credential: AppCredential

    /// The variables' credential; `nil` when none of the secret, certificate or federated token file variables
    /// is set (`AZURE_CLIENT_ID` alone names a user-assigned managed identity in azure-identity, not this).
    ///
    /// - Throws: ``UsageError`` naming what is missing when a credential is set without its client id or tenant.
    static func read(_ environment: [String: String]) throws -> EnvironmentCredential? {
        func value(_ names: String...) -> String? {
            names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        let credential: AppCredential
        if let secret = value("AZURE_CLIENT_SECRET", "AAD_SERVICE_PRINCIPAL_CLIENT_SECRET") {
            credential = .secret(secret)
        } else if let path = value("AZURE_CLIENT_CERTIFICATE_PATH", "AAD_SERVICE_PRINCIPAL_CLIENT_CERTIFICATE") {
            credential = .certificate(path: path)
        } else if let path = value("AZURE_FEDERATED_TOKEN_FILE") {
            credential = .federatedTokenFile(path: path)
        } else {
            return nil
        }
        let clientID = value("AZURE_CLIENT_ID", "AAD_SERVICE_PRINCIPAL_CLIENT_ID")
        let tenantID = value("AZURE_TENANT_ID")
        let missing = [
            clientID == nil ? "AZURE_CLIENT_ID (the app's client id)" : nil,
            tenantID == nil ? "AZURE_TENANT_ID (its tenant)" : nil,
        ].compactMap { $0 }
        guard let clientID, let tenantID else {
            throw UsageError(
                "The environment gives \(credential) but not \(missing.joined(separator: " or ")): set both, or "
                    + "unset the credential's variable to act as the signed-in user.")
        }
        return EnvironmentCredential(
            clientID: clientID, tenantID: tenantID, authorityHost: value("AZURE_AUTHORITY_HOST"),
            credential: credential)
    }

    /// The authority the app gets its tokens from: `AZURE_AUTHORITY_HOST` (else the scheme, host and port of
    /// `settingsAuthority`) with the tenant as its path.
    ///
    /// - Throws: ``UsageError`` when they do not make a valid authority.
    func authority(settingsAuthority: String) throws -> Authority {
        try AppToken.authority(authorityHost ?? settingsAuthority, tenant: tenantID)
    }

    /// The confidential client the variables describe, on the context's settings, transport and token cache
    /// (its tokens are kept where `msal app token` keeps an app's).
    ///
    /// - Throws: ``UsageError`` for an unreadable certificate or an invalid authority.
    func application(_ context: CommandContext) throws -> ConfidentialClientApplication {
        try AppToken.confidentialApplication(
            clientID: clientID, credential: credential.clientCredential(),
            authority: authority(settingsAuthority: context.settings.authority.value), context: context, store: nil)
    }

    var description: String { "the app \(clientID) in \(tenantID) with \(credential)" }
}
