import Foundation

/// The region of Microsoft Entra's regional token service (ESTS-R) a confidential client's app tokens
/// (``ConfidentialClientApplication/acquireTokenForClient(_:)``) come from, so that an app running in Azure keeps
/// its token traffic in its region: `https://{region}.login.microsoft.com/{tenant}` for the public cloud's hosts,
/// `https://{region}.{host}/{tenant}` for the other clouds'.
///
/// Tokens are the same as the global endpoint's (the issuer stays the global one) and are cached the same way. Other
/// flows keep to the global endpoint. As MSAL.NET does, a region that cannot be detected means the global endpoint;
/// a regional endpoint that fails is an error, not a reason to ask the global endpoint.
public enum AzureRegion: Sendable, Hashable {
    /// A region by its short name, e.g. `westus2` (`az account list-locations --query "[].name"`).
    case named(String)
    /// The region the app runs in: `REGION_NAME` (set by Azure Functions), else the `location` of the instance
    /// metadata service's compute metadata (virtual machines, scale sets, AKS nodes), asked once per app with a
    /// two-second timeout; the global endpoint when neither tells.
    case autoDetect

    /// `name` lower-cased and without spaces (as MSAL.NET reads `REGION_NAME`), or `nil` when it is not a DNS
    /// label (a letter, then letters, digits or hyphens, at most 63, not ending with a hyphen).
    static func normalized(_ name: String) -> String? {
        let region = name.filter { !$0.isWhitespace }.lowercased()
        guard let first = region.unicodeScalars.first, ("a"..."z").contains(first), region.count <= 63,
            region.last != "-",
            region.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
        else { return nil }
        return region
    }
}
