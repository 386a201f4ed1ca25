import Crypto
import Foundation
import Hummingbird
import MSAL

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

/// Keeps a ``PendingSignIn`` in the browser that started it, as Microsoft.Identity.Web does: a cookie sealed with
/// AES-256-GCM (encrypted and authenticated), so the server holds nothing per sign-in started (a flood of them costs
/// it no memory) and the browser can neither read the PKCE verifier and nonce nor change anything. A cookie older
/// than ``lifetime``, sealed with another key or for another cookie name, does not open.
package struct PendingSignInCookie: Sendable {
    /// How long a sign-in may take.
    package static let lifetime: Duration = .seconds(600)

    /// The cookie's name.
    package let name: String
    /// The path it is sent to: the sign-in routes'.
    package let path: String
    /// Whether it travels over TLS only.
    package let secure: Bool
    /// `Lax`, or `None` for a `form_post` from another site.
    package let sameSite: Cookie.SameSite
    let key: SymmetricKey

    /// A cookie `name` under `path`; `SameSite=None` (which needs `secure`) lets a cross-site `form_post` bring it.
    package init(name: String, path: String, secure: Bool, sameSite: Cookie.SameSite, key: SymmetricKey) {
        self.name = name
        self.path = path
        self.secure = secure
        self.sameSite = sameSite
        self.key = key
    }

    /// The cookie that carries `pending`, sealed.
    ///
    /// - Throws: when it cannot be encoded or sealed.
    package func cookie(_ pending: PendingSignIn) throws -> Cookie {
        let sealed = try AES.GCM.seal(JSONEncoder().encode(pending), using: key, authenticating: Data(name.utf8))
        guard let combined = sealed.combined else {
            throw HTTPError(.internalServerError, message: "The sign-in could not be sealed.")
        }
        return Cookie(
            name: name, value: Base64URL.encode(combined), maxAge: Int(Self.lifetime.components.seconds), path: path,
            secure: secure, httpOnly: true, sameSite: sameSite)
    }

    /// The cookie that removes it from the browser.
    package var removal: Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: path, secure: secure, httpOnly: true, sameSite: sameSite)
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
