import Crypto
import Foundation
import Hummingbird
import MSAL

/// Keeps a ``PendingSignIn`` in the browser that started it: a Hummingbird cookie whose value MSAL's
/// ``PendingSignInSeal`` seals (AES-256-GCM, bounded in time).
package struct PendingSignInCookie: Sendable {
    /// How long a sign-in may take.
    package static var lifetime: Duration { PendingSignInSeal.lifetime }

    /// The cookie's name.
    package var name: String { seal.name }
    /// The path it is sent to: the sign-in routes'.
    package let path: String
    /// Whether it travels over TLS only.
    package let secure: Bool
    /// `Lax`, or `None` for a `form_post` from another site.
    package let sameSite: Cookie.SameSite
    /// What seals and opens its value.
    package let seal: PendingSignInSeal

    /// A cookie `name` under `path`; `SameSite=None` (which needs `secure`) lets a cross-site `form_post` bring it.
    package init(name: String, path: String, secure: Bool, sameSite: Cookie.SameSite, key: SymmetricKey) {
        self.init(seal: PendingSignInSeal(name: name, key: key), path: path, secure: secure, sameSite: sameSite)
    }

    /// A cookie whose value `seal` seals, under `path`.
    package init(seal: PendingSignInSeal, path: String, secure: Bool, sameSite: Cookie.SameSite) {
        self.seal = seal
        self.path = path
        self.secure = secure
        self.sameSite = sameSite
    }

    /// The cookie that carries `sealed`, a value ``PendingSignInSeal/seal(_:)`` made.
    package func cookie(sealed: String) -> Cookie {
        Cookie(
            name: name, value: sealed, maxAge: Int(Self.lifetime.components.seconds), path: path, secure: secure,
            httpOnly: true, sameSite: sameSite)
    }

    /// The cookie that carries `pending`, sealed.
    ///
    /// - Throws: when it cannot be encoded or sealed.
    package func cookie(_ pending: PendingSignIn) throws -> Cookie {
        cookie(sealed: try seal.seal(pending))
    }

    /// The cookie that removes it from the browser.
    package var removal: Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: path, secure: secure, httpOnly: true, sameSite: sameSite)
    }

    /// The pending sign-in a cookie's `value` holds (``PendingSignInSeal/open(_:now:)``).
    package func open(_ value: String?, now: Date = Date()) -> PendingSignIn? {
        seal.open(value, now: now)
    }
}
