import Foundation
import MSAL
import Vapor
import WebText

extension Request {
    /// Identity for this request: its caller, tokens for it, the signed-in user's tokens, the web app's forms.
    ///
    ///     let caller = try req.msal.caller
    ///     let graph = try await req.msal.tokenOnBehalfOfCaller(scopes: ["User.Read"])
    public var msal: MSALIdentity { MSALIdentity(request: self) }

    /// Identity for one ``Vapor/Request``.
    public struct MSALIdentity: Sendable {
        let request: Request

        /// The caller ``AccessTokenAuthenticator`` logged in.
        ///
        /// - Throws: ``BearerChallenge`` (401) when no one is.
        public var caller: AccessTokenPrincipal {
            get throws {
                guard let caller = request.auth.get(AccessTokenPrincipal.self) else {
                    throw BearerChallenge.missingToken
                }
                return caller
            }
        }

        /// Checks that the caller's token carries one of `scopes` (user tokens) or of `appRoles` (app-only tokens).
        ///
        /// - Throws: ``BearerChallenge``: 403 `insufficient_scope` naming what would do; 401 when no caller is
        ///   logged in.
        public func requirePermission(scopes: Set<String> = [], appRoles: Set<String> = []) throws {
            try RequiredPermission(scopes: scopes, appRoles: appRoles).check(
                try caller.token, logger: request.logger, path: request.url.path)
        }

        /// A token for `scopes` on behalf of the caller (cached per incoming token by `app.msal.client`).
        ///
        /// - Throws: ``BearerChallenge`` for the caller when the user must consent or satisfy a policy (a claims
        ///   challenge, passed back); ``MSALError`` otherwise.
        public func tokenOnBehalfOfCaller(scopes: [String]) async throws -> AuthenticationResult {
            try await DownstreamAPI.token(app: try client, scopes: scopes, onBehalfOf: try caller.token)
        }

        /// Calls `api` at `path` on behalf of the caller, the token attached (``DownstreamAPI/call(_:_:body:for:)``).
        ///
        /// - Throws: ``BearerChallenge`` to pass back to the caller, ``MSALError``, transport errors.
        public func call(
            _ api: DownstreamAPI, _ method: HTTPRequest.Method, _ path: String, body: Data? = nil
        ) async throws -> (HTTPResponse, Data) {
            try await api.call(method, path, body: body, for: try caller.token)
        }

        /// The app's own token for `scopes` (`…/.default`), from `app.msal.client`.
        ///
        /// - Throws: ``MSALError``.
        public func appToken(scopes: [String]) async throws -> AppTokenResult {
            try await client.acquireTokenForClient(ClientCredentialParameters(scopes: scopes))
        }

        /// A token for `scopes` for the signed-in user, from their partition of the cache, refreshed when needed.
        ///
        /// - Throws: a redirect to a new sign-in that returns to this page when nobody is signed in or the identity
        ///   platform wants the user back; other ``MSALError``s.
        public func userToken(scopes: [String]) async throws -> AuthenticationResult {
            let client = try client
            guard let account = try await signedInAccount(client) else {
                throw Abort(.found, headers: ["Location": signInPath])
            }
            do {
                return try await client.acquireTokenSilently(SilentParameters(scopes: scopes, account: account))
            } catch let error as MSALError where error.code == .interactionRequired {
                throw Abort(.found, headers: ["Location": signInPath])
            }
        }

        /// The sign-in route's path, returning to this request's page.
        public var signInPath: String {
            let signIn = request.application.msal.signIn?.core
            let page = request.url.path + (request.url.query.map { "?\($0)" } ?? "")
            return signIn?.signInPath(returnTo: page) ?? "/auth/signin"
        }

        /// The hidden field that carries the session's anti-forgery token, for a form of the app's own that changes
        /// something (HTML, the value escaped); `nil` when nobody is signed in.
        public func antiForgeryInput() -> String? {
            antiForgeryToken.map(AntiForgeryToken.input)
        }

        /// The sign-out button: a form that `POST`s to the sign-out route with the session's anti-forgery token
        /// (the button's id is `signout`); `nil` when nobody is signed in.
        public func signOutForm(label: String = "Sign out") -> String? {
            guard let signIn = request.application.msal.signIn, let token = antiForgeryToken else { return nil }
            return signIn.core.signOutForm(token: token, label: label)
        }

        /// The fields of a form posted from one of the app's own pages, which carries the session's anti-forgery
        /// token (``antiForgeryInput()``): a page on another site cannot read it, so it cannot post such a form.
        ///
        /// - Returns: the form's fields; `nil` when nobody is signed in.
        /// - Throws: `Abort(.forbidden)` when the form lacks the session's token; the caller then changes nothing.
        public func postedForm() async throws -> [String: String]? {
            guard let expected = antiForgeryToken else { return nil }
            let form = (try? request.content.decode([String: String].self)) ?? [:]
            guard AntiForgeryToken.isCarried(by: form, expected: expected) else {
                throw Abort(.forbidden, reason: AntiForgeryToken.refusal)
            }
            return form
        }

        // MARK: Support

        private var client: ConfidentialClientApplication {
            get throws {
                guard let client = request.application.msal.client else {
                    throw Abort(.internalServerError, reason: "No confidential client is configured (app.msal.client).")
                }
                return client
            }
        }

        private var antiForgeryToken: String? {
            request.hasSession ? request.session.data[WebAppSignIn.antiForgeryKey] : nil
        }

        private func signedInAccount(_ client: ConfidentialClientApplication) async throws -> Account? {
            if let user = request.auth.get(WebAppUser.self) { return user.account }
            guard request.hasSession, let id = request.session.authenticated(WebAppUser.self) else { return nil }
            return try await client.account(identifier: id)
        }
    }
}
