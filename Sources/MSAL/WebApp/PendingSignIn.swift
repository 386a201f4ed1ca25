import Crypto
import Foundation

/// A sign-in the browser was sent to the identity platform for, until its redirect comes back.
package struct PendingSignIn: Codable, Sendable, Equatable {
    /// The flow to complete (its PKCE verifier, `state` and `nonce`).
    package var flow: AuthorizationCodeFlow
    /// Where to send the browser once signed in: a `Location` on this site.
    package var returnTo: String
    /// The session id the browser had when the sign-in started, deleted once it is signed in.
    package var previousSessionID: String?
    /// When the sign-in started.
    package var started: Date

    /// A pending sign-in started now.
    package init(flow: AuthorizationCodeFlow, returnTo: String, previousSessionID: String?, started: Date) {
        self.flow = flow
        self.returnTo = returnTo
        self.previousSessionID = previousSessionID
        self.started = started
    }
}

/// Seals a ``PendingSignIn`` into the value of a cookie kept by the browser that started it, as
/// Microsoft.Identity.Web does: AES-256-GCM (encrypted and authenticated), so the server holds nothing per sign-in
/// started (a flood of them costs it no memory) and the browser can neither read the PKCE verifier and nonce nor
/// change anything. A value older than ``lifetime``, sealed with another key or for another cookie name, does not
/// open. The web framework integrations put the value in a cookie of their own kind.
package struct PendingSignInSeal: Sendable {
    /// How long a sign-in may take.
    package static let lifetime: Duration = .seconds(600)

    /// The cookie's name, which the seal authenticates.
    package let name: String
    let key: SymmetricKey

    /// A seal with `key` for the cookie `name`.
    package init(name: String, key: SymmetricKey) {
        self.name = name
        self.key = key
    }

    /// `pending`, sealed, as a cookie value (base64url).
    ///
    /// - Throws: when it cannot be encoded or sealed.
    package func seal(_ pending: PendingSignIn) throws -> String {
        let sealed = try AES.GCM.seal(JSONEncoder().encode(pending), using: key, authenticating: Data(name.utf8))
        guard let combined = sealed.combined else {
            throw MSALError.internal(.unexpected, "The sign-in could not be sealed.")
        }
        return Base64URL.encode(combined)
    }

    /// The pending sign-in a cookie's `value` holds, if it opens with this key and started less than ``lifetime``
    /// before `now` (a minute ahead of it is allowed, for the clocks of a fleet).
    package func open(_ value: String?, now: Date = Date()) -> PendingSignIn? {
        guard let value, !value.isEmpty,
            let combined = Base64URL.decode(value),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let plain = try? AES.GCM.open(box, using: key, authenticating: Data(name.utf8)),
            let pending = try? JSONDecoder().decode(PendingSignIn.self, from: plain)
        else { return nil }
        let age = now.timeIntervalSince(pending.started)
        return (-60..<TimeInterval(Self.lifetime.components.seconds)).contains(age) ? pending : nil
    }
}
