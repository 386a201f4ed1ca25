import Foundation

extension RunningEmulator {
    /// The environment Azure gives the processes of the directory's host `name`, pointing at this emulator: the
    /// variables that select its managed identity source, as MSAL, azure-identity and this library read them.
    /// `nil` for an unknown host. A Service Fabric host needs the emulator on HTTPS (its thumbprint is pinned).
    public func managedIdentityEnvironment(host name: String) -> [String: String]? {
        guard let host = directory.hosts.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
            return nil
        }
        let base = baseURL.absoluteString + "/hosts/\(host.name)"
        switch host.kind {
        case .virtualMachine:
            return ["AZURE_POD_IDENTITY_AUTHORITY_HOST": base]
        case .appService:
            return ["IDENTITY_ENDPOINT": base + "/msi/token", "IDENTITY_HEADER": host.secret ?? ""]
        case .serviceFabric:
            return [
                "IDENTITY_ENDPOINT": base + "/metadata/identity/oauth2/token", "IDENTITY_HEADER": host.secret ?? "",
                "IDENTITY_SERVER_THUMBPRINT": serverCertificateThumbprint ?? "",
            ]
        case .machineLearning:
            return [
                "MSI_ENDPOINT": base + "/msi/token", "MSI_SECRET": host.secret ?? "",
                "DEFAULT_IDENTITY_CLIENT_ID": host.systemAssignedIdentity ?? "",
            ]
        case .cloudShell:
            return ["MSI_ENDPOINT": base + "/oauth2/token"]
        case .azureArc:
            return [
                "IDENTITY_ENDPOINT": base + "/metadata/identity/oauth2/token", "IMDS_ENDPOINT": baseURL.absoluteString,
            ]
        }
    }
}
