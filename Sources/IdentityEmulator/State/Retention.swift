import Foundation

/// How long the emulator keeps what clients and browsers make it create, beyond which it is forgotten
/// (``ExpiringMap``): long enough to answer every use the protocol allows, short enough that memory
/// follows the live state.
enum Retention {
    /// An authorization request waiting on the sign-in pages.
    static let authorizationRequest: TimeInterval = 3600
    /// Codes and device codes after they expire, so a late redemption is told "expired", not "unknown".
    static let afterExpiry: TimeInterval = 3600
    /// A browser's SSO session after its last sign-in (Entra's persistent session cookie lasts 90 days).
    static let session: TimeInterval = 90 * 86_400
}
