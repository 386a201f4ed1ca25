import Logging

/// The permissions a protected route accepts, as Microsoft.Identity.Web's `RequiredScopeOrAppPermission` checks
/// them: a delegated scope (`scp`) for a token issued for a user, an app role (`roles`) for an app-only token.
/// The web framework integrations' permission middleware apply it.
package struct RequiredPermission: Sendable, Equatable {
    /// Delegated permissions, any one of which a user's token must have.
    package let scopes: Set<String>
    /// App roles, any one of which an app-only token must have (empty: app-only tokens are refused).
    package let appRoles: Set<String>

    /// Any one of `scopes` (user tokens) or of `appRoles` (app-only tokens).
    package init(scopes: Set<String>, appRoles: Set<String>) {
        self.scopes = scopes
        self.appRoles = appRoles
    }

    /// Whether `token` carries a permission the route accepts.
    package func allows(_ token: ValidatedAccessToken) -> Bool {
        token.isAppOnly ? !token.roles.isDisjoint(with: appRoles) : !token.scopes.isDisjoint(with: scopes)
    }

    /// `nil` when `token` carries a permission the route accepts, else the 403 `insufficient_scope` naming what
    /// would do for a token of its kind.
    package func challenge(for token: ValidatedAccessToken) -> BearerChallenge? {
        guard !allows(token) else { return nil }
        return .insufficientScope((token.isAppOnly ? appRoles : scopes).sorted().joined(separator: " "))
    }

    /// Returns when `token` carries a permission the route at `path` accepts; otherwise records the refusal in
    /// `logger` (never the token) and throws its challenge. The path is only read for a refusal.
    ///
    /// - Throws: ``BearerChallenge`` (403 `insufficient_scope`).
    package func check(
        _ token: ValidatedAccessToken, logger: Logger, path: @autoclosure () -> String
    ) throws(BearerChallenge) {
        guard let challenge = challenge(for: token) else { return }
        logger.info(
            "token lacks the route's permission", metadata: ["app_only": "\(token.isAppOnly)", "path": "\(path())"])
        throw challenge
    }
}
