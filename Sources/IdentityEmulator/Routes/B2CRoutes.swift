import Foundation
import Hummingbird

/// A B2C tenant's user flows, as `{tenant}.b2clogin.com` serves them: `/{tenant}/{policy}/…` and the legacy
/// `/tfp/{tenant}/{policy}/…`, each with its own OpenID configuration (endpoints under the policy, the issuer
/// `{origin}/{tenant id}/v2.0/`), keys, authorize, token and logout endpoints. The policy is matched without regard
/// to case and written in lower case in the endpoints, as B2C does; an unknown policy or a tenant that is not a B2C
/// one gets a 404.
struct B2CRoutes: Sendable {
    let core: EmulatorCore
    let authorize: AuthorizeRoutes
    let token: TokenRoutes
    let logout: LogoutRoutes

    func register(on router: Router<EmulatorRequestContext>) {
        for prefix in [":tenant/:policy", "tfp/:tenant/:policy"] {
            let legacy = prefix.hasPrefix("tfp/")
            router.get("\(prefix)/v2.0/.well-known/openid-configuration") { request, context in
                guard let flow = userFlow(context) else { return notFound(context) }
                return configuration(request, segment: segment(context), flow: flow, legacy: legacy)
            }
            router.get("\(prefix)/discovery/v2.0/keys") { request, context in
                guard userFlow(context) != nil else { return notFound(context) }
                return await DiscoveryRoutes(core: core).keys(request, tenant: segment(context))
            }
            router.get("\(prefix)/oauth2/v2.0/authorize") { request, context in
                guard let flow = userFlow(context) else { return notFound(context) }
                return await authorize.authorize(
                    request, tenant: segment(context), params: HTTPExchange.query(request), policy: flow.name)
            }
            router.post("\(prefix)/oauth2/v2.0/authorize") { request, context in
                guard let flow = userFlow(context) else { return notFound(context) }
                let form = try await HTTPExchange.form(request, context: context)
                return await authorize.authorize(request, tenant: segment(context), params: form, policy: flow.name)
            }
            router.post("\(prefix)/oauth2/v2.0/token") { request, context in
                guard let flow = userFlow(context) else { return notFound(context) }
                let form = try await HTTPExchange.form(request, context: context)
                do throws(EntraError) {
                    // B2C's user flows redeem codes and refresh tokens; the other grants are Entra's.
                    guard ["authorization_code", "refresh_token"].contains(form["grant_type"] ?? "") else {
                        throw .unsupportedGrantType
                    }
                    return try await token.token(request, tenant: segment(context), form: form, policy: flow.name)
                } catch {
                    return await core.errorResponse(error, for: request)
                }
            }
            router.get("\(prefix)/oauth2/v2.0/logout") { request, context in
                guard userFlow(context) != nil else { return notFound(context) }
                return await logout.logout(request, params: HTTPExchange.query(request))
            }
        }
    }

    private func segment(_ context: EmulatorRequestContext) -> String { context.parameters.get("tenant") ?? "" }

    /// The user flow the path names, in a B2C tenant.
    private func userFlow(_ context: EmulatorRequestContext) -> B2CUserFlow? {
        guard case .tenant(let tenant)? = core.state.index.selector(segment(context)), tenant.kind == .b2c else {
            return nil
        }
        return tenant.userFlow(context.parameters.get("policy") ?? "")
    }

    private func notFound(_ context: EmulatorRequestContext) -> Response {
        let policy = context.parameters.get("policy") ?? ""
        return HTTPExchange.json(
            .object([
                ("error", .string("invalid_request")),
                (
                    "error_description",
                    .string("The policy '\(policy)' does not exist in the B2C tenant '\(segment(context))'.")
                ),
            ]), status: .notFound)
    }

    private func configuration(_ request: Request, segment: String, flow: B2CUserFlow, legacy: Bool) -> Response {
        guard case .tenant(let tenant)? = core.state.index.selector(segment) else {
            return HTTPExchange.json(.object([]), status: .notFound)
        }
        let base =
            "\(core.origin(of: request))/\(legacy ? "tfp/" : "")\(segment.lowercased())/\(flow.name.lowercased())"
        let strings = { (values: [String]) in JSONValue.array(values.map(JSONValue.string)) }
        var headers = HTTPFields()
        headers[.cacheControl] = "max-age=86400, private"
        return HTTPExchange.json(
            .object([
                ("issuer", .string(TokenIssuer.b2cIssuer(origin: core.issuerOrigin, tenantID: tenant.id))),
                ("authorization_endpoint", .string("\(base)/oauth2/v2.0/authorize")),
                ("token_endpoint", .string("\(base)/oauth2/v2.0/token")),
                ("end_session_endpoint", .string("\(base)/oauth2/v2.0/logout")),
                ("jwks_uri", .string("\(base)/discovery/v2.0/keys")),
                ("response_modes_supported", strings(["query", "fragment", "form_post"])),
                ("response_types_supported", strings(["code", "code id_token", "id_token", "id_token token"])),
                ("scopes_supported", strings(["openid"])),
                ("subject_types_supported", strings(["pairwise"])),
                ("id_token_signing_alg_values_supported", strings(["RS256"])),
                ("token_endpoint_auth_methods_supported", strings(["client_secret_post", "client_secret_basic"])),
                (
                    "claims_supported",
                    strings(["name", "emails", "oid", "sub", "tfp", "iss", "iat", "exp", "aud", "nonce", "auth_time"])
                ),
            ]), headers: headers)
    }
}
