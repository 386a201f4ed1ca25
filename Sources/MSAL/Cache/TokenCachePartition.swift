import Crypto
import Foundation

/// One partition of a confidential client's token cache: the unit a ``TokenCachePartitionStore``
/// loads and saves (MSAL.NET's `SuggestedCacheKey`).
public struct TokenCachePartition: Sendable, Hashable, CustomStringConvertible {
    /// What the partition holds.
    public enum Kind: String, Sendable {
        /// App-only tokens of one client in one tenant (client credentials).
        case appTokens
        /// Tokens obtained on behalf of one incoming user token.
        case onBehalfOf
        /// One user's tokens in a web app.
        case user
    }

    /// What the partition holds.
    public let kind: Kind
    /// The partition's key, safe to use as a database key or file name: `{clientID}_{tenant}_AppTokenCache`
    /// for app tokens, the assertion hash for on-behalf-of, the home account id for users (MSAL.NET's formats).
    public let key: String

    /// A partition; apps name them through the factories below.
    public init(kind: Kind, key: String) {
        self.kind = kind
        self.key = key
    }

    /// The app tokens of `clientID` in `tenant`.
    public static func appTokens(clientID: String, tenant: String) -> TokenCachePartition {
        TokenCachePartition(kind: .appTokens, key: "\(clientID.lowercased())_\(tenant.lowercased())_AppTokenCache")
    }

    /// The tokens obtained on behalf of `userAssertion`, keyed by its hash (never the token itself).
    public static func onBehalfOf(userAssertion: String) -> TokenCachePartition {
        TokenCachePartition(kind: .onBehalfOf, key: assertionHash(userAssertion))
    }

    /// The tokens of the user with this home account id (`uid.utid`).
    public static func user(homeAccountID: String) -> TokenCachePartition {
        // Home account ids are lowercase as the platform issues them; lowercasing one allocates.
        let isLowercase = homeAccountID.utf8.allSatisfy {
            $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
        }
        return TokenCachePartition(kind: .user, key: isLowercase ? homeAccountID : homeAccountID.lowercased())
    }

    /// SHA-256 of the assertion, base64url without padding (MSAL.NET's `user_assertion_hash`).
    static func assertionHash(_ assertion: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(assertion.utf8)))
    }

    /// The kind and key.
    public var description: String { "\(kind.rawValue):\(key)" }
}
