import Hummingbird
import MSAL

/// Lets a request through when its validated token carries one of the permissions the route accepts: a delegated
/// scope (`scp`) for a token issued for a user, an app role (`roles`) for an app-only token, as Microsoft.Identity.Web's
/// `RequiredScopeOrAppPermission` does. Otherwise 403 `insufficient_scope` (RFC 6750), naming what would do.
///
///     api.add(middleware: RequiredPermissionMiddleware<APIContext>(
///         scopes: ["ToDoList.Read", "ToDoList.ReadWrite"], appRoles: ["ToDoList.Read.All"]))
public struct RequiredPermissionMiddleware<Context: AccessTokenRequestContext>: RouterMiddleware {
    /// Delegated permissions, any one of which a user's token must have.
    public let scopes: Set<String>
    /// App roles, any one of which an app-only token must have (empty: app-only tokens are refused).
    public let appRoles: Set<String>

    /// A check for any one of `scopes` (user tokens) or of `appRoles` (app-only tokens).
    public init(scopes: Set<String> = [], appRoles: Set<String> = []) {
        self.scopes = scopes
        self.appRoles = appRoles
    }

    /// Calls `next` when the token has a permission the route accepts; throws a ``BearerChallenge`` otherwise.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        try RequiredPermission(scopes: scopes, appRoles: appRoles).check(
            try context.requireAccessToken(), logger: context.logger, path: request.uri.path)
        return try await next(request, context)
    }
}
