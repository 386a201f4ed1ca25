import Foundation
import HTTPTypes
import Locking
import OutsideJSON

/// Where a confidential client's app-token requests go when it has an ``AzureRegion``: the regional token
/// service's endpoint for the region named, or detected once per app (``AzureRegion/autoDetect``), else the global
/// endpoint, as MSAL.NET's region discovery decides.
final class RegionalTokenService: Sendable {
    /// How the region was settled: its name (`nil`: the global endpoint) and where it came from.
    struct Region: Sendable, Equatable {
        /// `named`, `REGION_NAME`, `IMDS`, or `none` when detection found nothing.
        let source: String
        let name: String?
    }

    /// The hosts of the public cloud, whose regional host is `{region}.login.microsoft.com` (MSAL Python's list).
    static let publicCloudHosts: Set<String> = [
        "login.microsoftonline.com", "login.microsoft.com", "login.windows.net", "sts.windows.net",
    ]
    /// The compute metadata's `location` leaf, as MSAL.NET asks IMDS for it.
    static let locationPath = "/metadata/instance/compute/location"
    static let locationAPIVersion = "2021-01-01"

    private let configured: AzureRegion
    private let environment: [String: String]
    private let transport: any HTTPTransport
    private let log: PrivacyLogger
    private let detection = Locked<Task<Region, Never>?>(nil)

    /// - Parameters:
    ///   - environment: where `REGION_NAME` and `AZURE_POD_IDENTITY_AUTHORITY_HOST` (IMDS's address) are read.
    ///   - transport: asks IMDS; by default directly (never through a proxy) with a two-second timeout.
    /// - Throws: ``MSALError`` `invalidParameter` for a named region that is not a DNS label, or an authority that is
    ///   not Microsoft Entra's.
    init(
        _ region: AzureRegion, authority: Authority, environment: [String: String], log: PrivacyLogger,
        transport: (any HTTPTransport)? = nil
    ) throws {
        if case .named(let name) = region, AzureRegion.normalized(name) == nil {
            throw MSALError.internal(
                .invalidParameter, "'\(name)' is not a region's name (a DNS label such as westus2).")
        }
        guard authority.kind == .aad else {
            throw MSALError.internal(
                .invalidParameter, "Regional endpoints serve Microsoft Entra (AAD) authorities only, not \(authority).")
        }
        configured = region
        self.environment = environment
        self.log = log
        self.transport = try transport ?? DefaultHTTPTransport(timeout: .seconds(2), proxy: .direct)
    }

    /// The regional form of `endpoint` (a global token endpoint), or `endpoint` itself when there is no region or
    /// its host is an IP address.
    func tokenEndpoint(replacing endpoint: URL) async -> URL {
        let region = await settled()
        guard let name = region.name, let regional = Self.regional(endpoint, region: name) else {
            log.info("app token from the global endpoint", ["region_source": region.source])
            return endpoint
        }
        log.info("app token from the regional endpoint", ["region": name, "region_source": region.source])
        return regional
    }

    /// The region, settled on the first call.
    func settled() async -> Region {
        if case .named(let name) = configured { return Region(source: "named", name: AzureRegion.normalized(name)) }
        let task = detection.withLock { task in
            if let task { return task }
            let made = Task { await self.detect() }
            task = made
            return made
        }
        return await task.value
    }

    /// `endpoint` on the region's host: `{region}.login.microsoft.com` for the public cloud's hosts, else
    /// `{region}.{host}`, port and path kept; `nil` for an IP address, which has no regional name.
    static func regional(_ endpoint: URL, region: String) -> URL? {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false),
            let host = components.host?.lowercased(), host.contains(where: \.isLetter), !host.contains(":")
        else { return nil }
        components.host = publicCloudHosts.contains(host) ? "\(region).login.microsoft.com" : "\(region).\(host)"
        return components.url
    }

    private func detect() async -> Region {
        if let name = environment["REGION_NAME"].flatMap(AzureRegion.normalized) {
            return Region(source: "REGION_NAME", name: name)
        }
        if let name = await askIMDS() { return Region(source: "IMDS", name: name) }
        log.info("no region detected (REGION_NAME unset, IMDS did not tell)")
        return Region(source: "none", name: nil)
    }

    /// IMDS's compute location, asked again with the newest api-version IMDS names when it refuses the one sent.
    private func askIMDS() async -> String? {
        let host = ManagedIdentityEndpoint.imdsHost(environment)
        var version = Self.locationAPIVersion
        for _ in 0..<2 {
            guard
                let url = URL(string: "\(host)\(Self.locationPath)?format=text&api-version=\(version)"),
                let (response, body) = try? await transport.send(
                    HTTPRequest(method: .get, url: url, headerFields: [HTTPField.Name("Metadata")!: "true"]),
                    body: nil)
            else { return nil }
            if response.status == .ok { return AzureRegion.normalized(String(decoding: body, as: UTF8.self)) }
            guard response.status == .badRequest,
                let object = try? JSONLimits.message.object(body, { "IMDS's answer \($0)." }),
                let newest = (object["newest-versions"] as? [String])?.first, newest != version
            else { return nil }
            version = newest
        }
        return nil
    }
}
