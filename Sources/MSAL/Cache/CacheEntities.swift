import Foundation

/// A cached access token (`AccessToken` section of the unified schema).
struct AccessTokenEntry: Sendable, Equatable {
    var homeAccountID: String
    var environment: String
    var clientID: String
    var realm: String
    /// Granted scopes, space-separated, in the server's case.
    var target: String
    var secret: String
    var tokenType = "Bearer"
    var cachedAt: Date
    var expiresOn: Date
    var extendedExpiresOn: Date
    var refreshOn: Date?
    /// Fields other SDKs wrote that this library does not use; written back unchanged.
    var extra: [String: CacheValue] = [:]

    var scopeSet: Set<String> { Scopes.lowercasedSet(Scopes.split(target)) }
}

/// A cached refresh token; `familyID` marks a family (FOCI) refresh token.
struct RefreshTokenEntry: Sendable, Equatable {
    var homeAccountID: String
    var environment: String
    var clientID: String
    var secret: String
    var target: String?
    var familyID: String?
    var lastModification: Date?
    var extra: [String: CacheValue] = [:]
}

/// A cached ID token, per tenant (`realm`).
struct IDTokenEntry: Sendable, Equatable {
    var homeAccountID: String
    var environment: String
    var realm: String
    var clientID: String
    var secret: String
    var extra: [String: CacheValue] = [:]
}

/// A cached account, per tenant (`realm`).
struct AccountEntry: Sendable, Equatable {
    var homeAccountID: String
    var environment: String
    var realm: String
    var localAccountID: String
    var username: String
    var authorityType = "MSSTS"
    var accountSource: String?
    var extra: [String: CacheValue] = [:]
}

/// What the cache knows about an app: whether it belongs to a token family.
struct AppMetadataEntry: Sendable, Equatable {
    var clientID: String
    var environment: String
    var familyID: String?
    var extra: [String: CacheValue] = [:]
}

/// Any JSON value: the cache's fields and sections this library does not interpret, a token's claims, and for the
/// command line, kubectl's request.
package enum CacheValue: Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    indirect case array([CacheValue])
    indirect case object([String: CacheValue])
}

extension CacheValue {
    /// A number as the cache writes it: whole numbers without a fraction (timestamps), others as Swift prints them.
    /// Infinity (a file's `1e999`) is written as `1e999`, which reads back as it: JSON has no `inf`.
    static func text(of number: Double) -> String {
        if number.isInfinite { return number < 0 ? "-1e999" : "1e999" }
        return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
    }
}
