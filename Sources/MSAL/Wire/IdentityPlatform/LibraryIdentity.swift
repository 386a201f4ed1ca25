import HTTPTypes

/// How the library names itself to the identity platform: the `x-client-SKU`, `x-client-Ver`, `x-client-OS`
/// and `x-client-CPU` headers. The OS and CPU follow MSAL Python's `sys.platform` and MSAL Go's `runtime.GOOS`
/// naming (`linux`, `darwin`, `ios`).
package enum LibraryIdentity {
    static let sku = "MSAL.Swift"
    /// The package's version: the one place it is written (`msal --version` prints it too).
    package static let version = "0.1.0"

    #if os(Linux)
        static let operatingSystem = "linux"
    #elseif os(macOS)
        static let operatingSystem = "darwin"
    #elseif os(iOS)
        static let operatingSystem = "ios"
    #elseif os(tvOS)
        static let operatingSystem = "tvos"
    #elseif os(watchOS)
        static let operatingSystem = "watchos"
    #elseif os(visionOS)
        static let operatingSystem = "visionos"
    #elseif os(Windows)
        static let operatingSystem = "win32"
    #else
        static let operatingSystem = "unknown"
    #endif

    #if arch(x86_64)
        static let cpu = "x86_64"
    #elseif arch(arm64)
        static let cpu = "arm64"
    #else
        static let cpu = "unknown"
    #endif

    /// The headers every request to the identity platform carries.
    static let headers: HTTPFields = [
        .clientSKU: sku, .clientVersion: version, .clientOS: operatingSystem, .clientCPU: cpu,
        .libraryCapability: "retry-after, h429",
    ]
}
