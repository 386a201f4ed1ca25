import Foundation
import Hummingbird

/// OpenID configuration, JWKS, instance discovery and user realm, as `login.microsoftonline.com`
/// serves them: endpoints on the host name the client used, the issuer on the emulator's one origin.
struct DiscoveryRoutes: Sendable {
    let core: EmulatorCore

    func register(on router: Router<EmulatorRequestContext>) {
        router.get(":tenant/v2.0/.well-known/openid-configuration") { request, context in
            await openIDConfiguration(request, tenant: context.parameters.get("tenant") ?? "")
        }
        router.get(":tenant/discovery/v2.0/keys") { request, context in
            await keys(request, tenant: context.parameters.get("tenant") ?? "")
        }
        router.get(":tenant/discovery/instance") { request, _ in await instanceDiscovery(request) }
        router.get(":tenant/userrealm/:username") { request, context in
            await userRealm(request, username: context.parameters.get("username") ?? "")
        }
        router.get(":tenant/UserRealm/:username") { request, context in
            await userRealm(request, username: context.parameters.get("username") ?? "")
        }
    }

    private static var discoveryHeaders: HTTPFields {
        var fields: HTTPFields = [:]
        fields[.cacheControl] = "max-age=86400, private"
        fields[.accessControlAllowOrigin] = "*"
        return fields
    }

    func openIDConfiguration(_ request: Request, tenant segment: String) async -> Response {
        guard let selector = core.state.index.selector(segment) else {
            return await discoveryError(.invalidTenant(segment), request: request)
        }
        let origin = core.origin(of: request)
        let base = "\(origin)/\(selector.pathSegment)"
        let issuerTenant: String
        let region: JSONValue
        switch selector {
        case .tenant(let t): (issuerTenant, region) = (t.id, .string("NA"))
        case .multiTenant: (issuerTenant, region) = ("{tenantid}", .null)
        case .consumers: (issuerTenant, region) = (DirectoryIndex.consumersTenantID, .null)
        }
        let host = origin.split(separator: "/").last.map(String.init) ?? ""
        let body = JSONValue.object([
            ("token_endpoint", .string("\(base)/oauth2/v2.0/token")),
            (
                "token_endpoint_auth_methods_supported",
                .array(["client_secret_post", "private_key_jwt", "client_secret_basic"].map(JSONValue.string))
            ),
            ("jwks_uri", .string("\(base)/discovery/v2.0/keys")),
            ("response_modes_supported", .array(["query", "fragment", "form_post"].map(JSONValue.string))),
            ("subject_types_supported", .array([.string("pairwise")])),
            ("id_token_signing_alg_values_supported", .array([.string("RS256")])),
            (
                "response_types_supported",
                .array(["code", "id_token", "code id_token", "id_token token"].map(JSONValue.string))
            ),
            ("scopes_supported", .array(["openid", "profile", "email", "offline_access"].map(JSONValue.string))),
            ("issuer", .string("\(core.issuerOrigin)/\(issuerTenant)/v2.0")),
            ("request_uri_parameter_supported", .bool(false)),
            ("userinfo_endpoint", .string("\(origin)/oidc/userinfo")),
            ("authorization_endpoint", .string("\(base)/oauth2/v2.0/authorize")),
            ("device_authorization_endpoint", .string("\(base)/oauth2/v2.0/devicecode")),
            ("http_logout_supported", .bool(true)),
            ("frontchannel_logout_supported", .bool(true)),
            ("end_session_endpoint", .string("\(base)/oauth2/v2.0/logout")),
            (
                "claims_supported",
                .array(
                    [
                        "sub", "iss", "cloud_instance_name", "cloud_instance_host_name", "cloud_graph_host_name",
                        "msgraph_host",
                        "aud", "exp", "iat", "auth_time", "acr", "nonce", "preferred_username", "name", "tid", "ver",
                        "at_hash",
                        "c_hash", "email",
                    ].map(JSONValue.string))
            ),
            ("kerberos_endpoint", .string("\(base)/kerberos")),
            ("tenant_region_scope", region),
            ("cloud_instance_name", .string("microsoftonline.com")),
            ("cloud_graph_host_name", .string("graph.windows.net")),
            ("msgraph_host", .string(host)),
            ("rbac_url", .string("https://pas.windows.net")),
        ])
        return HTTPExchange.json(body, headers: Self.discoveryHeaders)
    }

    func keys(_ request: Request, tenant segment: String) async -> Response {
        guard core.state.index.selector(segment) != nil else {
            return await discoveryError(.invalidTenant(segment), request: request)
        }
        let issuer = "\(core.issuerOrigin)/{tenantid}/v2.0"
        guard let jwks = try? core.keys.all.map({ try $0.jwk(issuer: issuer) }) else {
            return await discoveryError(.serverError, request: request)
        }
        return HTTPExchange.json(.object([("keys", .array(jwks))]), headers: Self.discoveryHeaders)
    }

    /// `/common/discovery/instance`: validates the host of `authorization_endpoint` and lists aliases.
    func instanceDiscovery(_ request: Request) async -> Response {
        let query = HTTPExchange.query(request)
        let apiVersion = query["api-version"] ?? "1.1"
        guard let endpoint = query.nonEmpty("authorization_endpoint"), let url = URL(string: endpoint),
            let host = url.host
        else {
            return await discoveryError(.missingParameter("authorization_endpoint"), request: request)
        }
        // The emulator's own names (its origin and the loopback aliases on its port) are one instance.
        let authority = ServedAddress.bracketed(host).lowercased() + (url.port.map { ":\($0)" } ?? "")
        let served = core.address.authorities
        guard served.contains(ServedAddress.normalized(authority, scheme: url.scheme ?? "https")) else {
            return await discoveryError(.invalidInstance, request: request)
        }
        let tenant = url.pathComponents.dropFirst().first ?? "common"
        let aliases = Array(served.union([authority])).sorted().map(JSONValue.string)
        let body = JSONValue.object([
            (
                "tenant_discovery_endpoint",
                .string("\(url.scheme ?? "https")://\(authority)/\(tenant)/v2.0/.well-known/openid-configuration")
            ),
            ("api-version", .string(apiVersion)),
            (
                "metadata",
                .array([
                    .object([
                        ("preferred_network", .string(authority)),
                        ("preferred_cache", .string(authority)),
                        ("aliases", .array(aliases)),
                    ])
                ])
            ),
        ])
        var headers = Self.discoveryHeaders
        headers[.msRequestID] = core.traceID()
        return HTTPExchange.json(body, headers: headers)
    }

    /// The realm of a user name: `Federated` for a tenant's federated domain (``FederatedDomain``), with its
    /// WS-Trust endpoints, else `Managed`.
    func userRealm(_ request: Request, username: String) async -> Response {
        let domain = username.split(separator: "@").last.map(String.init) ?? username
        var members: [(String, JSONValue)] = [("ver", .string("1.0"))]
        if let federated = core.state.index.federatedDomain(domain.lowercased())?.domain {
            members += [
                ("account_type", .string("Federated")),
                ("domain_name", .string(federated.name)),
                ("federation_protocol", .string("WSTrust")),
                ("federation_metadata_url", .string(federated.metadataURL)),
                ("federation_active_auth_url", .string(federated.activeAuthURL)),
            ]
        } else {
            members += [("account_type", .string("Managed")), ("domain_name", .string(domain))]
        }
        members += [
            ("cloud_instance_name", .string("microsoftonline.com")),
            ("cloud_audience_urn", .string("urn:federation:MicrosoftOnline")),
        ]
        return HTTPExchange.json(.object(members))
    }

    private func discoveryError(_ error: EntraError, request: Request) async -> Response {
        var response = await core.errorResponse(error, for: request)
        response.headers[.cacheControl] = "max-age=86400, private"
        return response
    }
}
