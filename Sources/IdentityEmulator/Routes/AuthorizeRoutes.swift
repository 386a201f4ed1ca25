import Foundation
import Hummingbird

/// `/{tenant}/oauth2/v2.0/authorize` (GET, and POST with a form): validates the request, then hands
/// it to the sign-in pages or, with a usable SSO session, straight to completion.
struct AuthorizeRoutes: Sendable {
    let core: EmulatorCore
    let flow: SignInFlow

    func register(on router: Router<EmulatorRequestContext>) {
        router.get(":tenant/oauth2/v2.0/authorize") { request, context in
            await authorize(
                request, tenant: context.parameters.get("tenant") ?? "", params: HTTPExchange.query(request))
        }
        router.post(":tenant/oauth2/v2.0/authorize") { request, context in
            let form = try await HTTPExchange.form(request, context: context)
            return await authorize(request, tenant: context.parameters.get("tenant") ?? "", params: form)
        }
    }

    /// - Parameter policy: the B2C user flow of `/{tenant}/{policy}/oauth2/v2.0/authorize`.
    func authorize(_ request: Request, tenant segment: String, params: FormBody, policy: String? = nil) async
        -> Response
    {
        let index = core.state.index
        guard let selector = index.selector(segment) else {
            return errorPage(EntraError.invalidTenant(segment))
        }
        guard let clientID = params.nonEmpty("client_id") else { return errorPage(.missingParameter("client_id")) }
        guard let client = index.application(clientID: clientID), client.kind != .api else {
            return errorPage(.unknownClient(clientID, tenant: segment))
        }
        guard let redirectURI = params.nonEmpty("redirect_uri") else {
            return errorPage(.missingParameter("redirect_uri"))
        }
        guard RedirectURI.isRegistered(redirectURI, in: client.redirectUris) else {
            return errorPage(
                EntraError(
                    error: "invalid_request", code: 50011,
                    message:
                        "The redirect URI '\(redirectURI)' specified in the request does not match the redirect URIs configured for the application '\(client.clientId)'. Make sure the redirect URI sent in the request matches one added to your application in the Azure portal."
                ))
        }
        let responseMode = params.nonEmpty("response_mode") ?? "query"
        let supportedMode = ["query", "fragment", "form_post"].contains(responseMode)
        let target = ErrorTarget(
            redirectURI: redirectURI, responseMode: supportedMode ? responseMode : "query", state: params["state"])
        guard supportedMode else {
            return flow.errorRedirect(
                target,
                EntraError(
                    error: "invalid_request", code: 900022,
                    message:
                        "The response_mode '\(responseMode)' is not supported."))
        }
        guard let responseType = params.nonEmpty("response_type") else {
            return flow.errorRedirect(target, .missingParameter("response_type"))
        }
        guard responseType == "code" else {
            return flow.errorRedirect(
                target,
                EntraError(
                    error: "unsupported_response_type", code: 700054,
                    message:
                        "response_type '\(responseType)' is not enabled for the application."))
        }
        guard let rawScope = params.nonEmpty("scope") else {
            return flow.errorRedirect(target, .missingParameter("scope"))
        }
        let scopes: ScopeSet
        do { scopes = try ScopeSet(parsing: rawScope, index: index) } catch { return flow.errorRedirect(target, error) }
        let method =
            params.nonEmpty("code_challenge_method") ?? (params.nonEmpty("code_challenge") == nil ? nil : "plain")
        if let method, method != "S256", method != "plain" {
            return flow.errorRedirect(
                target,
                EntraError(
                    error: "invalid_request", code: 501491,
                    message:
                        "Invalid code_challenge_method '\(method)'. Supported values are S256 and plain."))
        }
        if let claims = params.nonEmpty("claims"), (try? JSONValue.parse(Data(claims.utf8))) == nil {
            return flow.errorRedirect(
                target,
                EntraError(
                    error: "invalid_request", code: 90014,
                    message:
                        "The 'claims' parameter is not valid JSON."))
        }
        if case .consumers = selector {
            return flow.errorRedirect(
                target,
                EntraError(
                    error: "invalid_request", code: 50020,
                    message:
                        "This emulator has no personal Microsoft accounts; use a tenant or 'organizations'."))
        }
        let prompt = params.nonEmpty("prompt")
        let pending = PendingAuthorization(
            completion: .redirect, selectorSegment: segment, client: client, redirectURI: redirectURI,
            responseMode: responseMode, scopes: scopes, rawScope: rawScope, state: params["state"],
            nonce: params.nonEmpty("nonce"), codeChallenge: params.nonEmpty("code_challenge"),
            codeChallengeMethod: method, prompt: prompt, loginHint: params.nonEmpty("login_hint"),
            domainHint: params.nonEmpty("domain_hint"), clientInfo: params["client_info"] == "1",
            claims: params.nonEmpty("claims"), policy: policy)
        return await flow.begin(pending, request: request)
    }

    private func errorPage(_ error: EntraError) -> Response {
        HTTPExchange.html(SignInPages.error(code: error.code, message: error.message), status: .badRequest)
    }
}

/// Where an authorize error is sent once the redirect URI is known to be registered.
struct ErrorTarget: Sendable {
    let redirectURI: String
    let responseMode: String
    let state: String?
}
