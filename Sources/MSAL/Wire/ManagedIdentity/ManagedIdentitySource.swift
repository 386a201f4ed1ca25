import Foundation

/// Where a host's managed identity tokens come from, as Azure tells the process through its environment.
public enum ManagedIdentitySource: String, Sendable, CaseIterable, CustomStringConvertible {
    /// App Service, Functions, Container Apps (`IDENTITY_ENDPOINT` and `IDENTITY_HEADER`, api-version 2019-08-01).
    case appService = "app_service"
    /// A Service Fabric cluster (`IDENTITY_ENDPOINT`, `IDENTITY_HEADER`, `IDENTITY_SERVER_THUMBPRINT`): HTTPS to an
    /// endpoint whose certificate is pinned by its SHA-1 thumbprint.
    case serviceFabric = "service_fabric"
    /// Azure Machine Learning compute (`MSI_ENDPOINT` and `MSI_SECRET`, api-version 2017-09-01).
    case machineLearning = "machine_learning"
    /// Azure Cloud Shell (`MSI_ENDPOINT` alone): the signed-in portal user's token.
    case cloudShell = "cloud_shell"
    /// An Azure Arc-enabled server (`IDENTITY_ENDPOINT` and `IMDS_ENDPOINT`, or the agent's `himds` installed):
    /// a challenge answered with a key file only a privileged user can read.
    case azureArc = "azure_arc"
    /// The instance metadata service of a VM, a scale set or an AKS node (`http://169.254.169.254`, or
    /// `AZURE_POD_IDENTITY_AUTHORITY_HOST`).
    case imds

    /// The source's name as Azure's documentation writes it, e.g. "App Service".
    public var description: String {
        switch self {
        case .appService: "App Service"
        case .serviceFabric: "Service Fabric"
        case .machineLearning: "Azure Machine Learning"
        case .cloudShell: "Cloud Shell"
        case .azureArc: "Azure Arc"
        case .imds: "IMDS"
        }
    }

    /// The source the environment names, in MSAL's order (Service Fabric, App Service, Machine Learning, Cloud
    /// Shell, Azure Arc, then IMDS when nothing else is set).
    ///
    /// - Parameters:
    ///   - environment: the process's environment by default.
    ///   - arcAgentPath: the Arc agent's `himds`, whose presence means Azure Arc without the variables.
    public static func detect(
        in environment: [String: String] = ProcessInfo.processInfo.environment,
        arcAgentPath: String = ManagedIdentityEndpoint.arcAgentPath
    ) -> ManagedIdentitySource {
        func has(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        if has("IDENTITY_ENDPOINT"), has("IDENTITY_HEADER") {
            return has("IDENTITY_SERVER_THUMBPRINT") ? .serviceFabric : .appService
        }
        if has("MSI_ENDPOINT") { return has("MSI_SECRET") ? .machineLearning : .cloudShell }
        if has("IDENTITY_ENDPOINT") && has("IMDS_ENDPOINT") || FileManager.default.fileExists(atPath: arcAgentPath) {
            return .azureArc
        }
        return .imds
    }
}

/// A detected source with what its requests need: the endpoint, the secret header's value, the pinned thumbprint.
public struct ManagedIdentityEndpoint: Sendable, CustomStringConvertible {
    /// Where the Arc agent installs `himds` on Linux.
    public static let arcAgentPath = "/opt/azcmagent/bin/himds"
    /// Where the Arc agent writes the key files of its challenges on Linux.
    public static let arcKeyFolder = "/var/opt/azcmagent/tokens"
    /// The Arc agent's endpoint when the environment does not name one.
    static let arcDefaultEndpoint = "http://127.0.0.1:40342/metadata/identity/oauth2/token"
    /// IMDS's address when `AZURE_POD_IDENTITY_AUTHORITY_HOST` does not replace it.
    static let imdsDefaultHost = "http://169.254.169.254"

    /// The source.
    public let source: ManagedIdentitySource
    /// The token endpoint.
    public let url: URL
    /// `IDENTITY_HEADER` (App Service, Service Fabric) or `MSI_SECRET` (Machine Learning).
    let secret: String?
    /// `IDENTITY_SERVER_THUMBPRINT`, upper-case hex without separators (Service Fabric).
    let thumbprint: String?
    /// `DEFAULT_IDENTITY_CLIENT_ID` (Machine Learning's system-assigned identity).
    let defaultClientID: String?

    /// The endpoint the environment names.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` when a variable is not a URL (or, for Service Fabric, not an
    ///   `https` URL, or a thumbprint that is not 40 hexadecimal digits).
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        arcAgentPath: String = ManagedIdentityEndpoint.arcAgentPath
    ) throws {
        let source = ManagedIdentitySource.detect(in: environment, arcAgentPath: arcAgentPath)
        self.source = source
        secret = environment[source == .machineLearning ? "MSI_SECRET" : "IDENTITY_HEADER"]
        defaultClientID = environment["DEFAULT_IDENTITY_CLIENT_ID"]
        switch source {
        case .appService, .serviceFabric:
            url = try Self.url(environment, "IDENTITY_ENDPOINT", for: source)
        case .machineLearning, .cloudShell:
            url = try Self.url(environment, "MSI_ENDPOINT", for: source)
        case .azureArc:
            url =
                environment["IDENTITY_ENDPOINT"] == nil
                ? URL(string: Self.arcDefaultEndpoint)! : try Self.url(environment, "IDENTITY_ENDPOINT", for: source)
        case .imds:
            url = try Self.url(
                ["AZURE_POD_IDENTITY_AUTHORITY_HOST": Self.imdsHost(environment) + "/metadata/identity/oauth2/token"],
                "AZURE_POD_IDENTITY_AUTHORITY_HOST", for: source)
        }
        if source == .serviceFabric {
            guard url.scheme?.lowercased() == "https" else {
                throw MSALError.internal(
                    .invalidParameter, "IDENTITY_ENDPOINT must be an https URL for Service Fabric, not \(url).")
            }
            let hex = (environment["IDENTITY_SERVER_THUMBPRINT"] ?? "").filter { $0 != ":" && !$0.isWhitespace }
            guard hex.count == 40, hex.allSatisfy(\.isHexDigit) else {
                throw MSALError.internal(
                    .invalidParameter,
                    "IDENTITY_SERVER_THUMBPRINT must be the SHA-1 thumbprint of the endpoint's certificate (40 hexadecimal digits)."
                )
            }
            thumbprint = hex.uppercased()
        } else {
            thumbprint = nil
        }
    }

    /// IMDS's origin without a trailing slash: `AZURE_POD_IDENTITY_AUTHORITY_HOST`, else ``imdsDefaultHost``.
    static func imdsHost(_ environment: [String: String]) -> String {
        var host = environment["AZURE_POD_IDENTITY_AUTHORITY_HOST"] ?? ""
        if host.isEmpty { host = imdsDefaultHost }
        while host.hasSuffix("/") { host.removeLast() }
        return host
    }

    private static func url(_ environment: [String: String], _ name: String, for source: ManagedIdentitySource) throws
        -> URL
    {
        guard let value = environment[name], let url = URL(string: value),
            ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
        else {
            throw MSALError.internal(
                .invalidParameter,
                "\(name) is not an http or https URL, so \(source)'s managed identity cannot be reached.")
        }
        return url
    }

    /// The source and its endpoint, e.g. "IMDS at http://169.254.169.254/metadata/identity/oauth2/token".
    public var description: String { "\(source) at \(url.absoluteString)" }
}
