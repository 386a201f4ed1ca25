import Foundation

/// Where an app keeps its tokens (MSAL's `MSALCacheConfig`). On Linux the keychain becomes a file in
/// MSAL's unified cache format, `${XDG_CACHE_HOME:-~/.cache}/msal/token_cache.json` by default,
/// shareable with MSAL Python and Azure CLI.
public final class MSALCacheConfig {
    /// The cache the app reads and writes. Replace it for another file
    /// (`TokenCache(persistence: FileTokenCachePersistence(url: …))`), the keyring
    /// (`SecretServiceTokenCachePersistence`) or memory only (`TokenCache()`).
    public var tokenCache: TokenCache

    init() {
        tokenCache = TokenCache(persistence: FileTokenCachePersistence())
    }
}
