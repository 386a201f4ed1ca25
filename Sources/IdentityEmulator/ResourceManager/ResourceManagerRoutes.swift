import Foundation
import Hummingbird

/// A minimal Azure Resource Manager on the emulator's own origin (give it to Azure CLI as
/// `--endpoint-resource-manager`): `GET /subscriptions`, `GET /subscriptions/{id}` and `GET /tenants` from the
/// directory's tenants and their ``Tenant/subscriptions``, answering only to a valid Resource Manager token
/// (``ResourceManagerAuthentication``), and `GET /metadata/endpoints` (``CloudMetadata``), which needs none.
struct ResourceManagerRoutes: Sendable {
    let core: EmulatorCore

    func register(on router: Router<EmulatorRequestContext>) {
        router.get("metadata/endpoints") { request, _ in
            CloudMetadata(origin: core.origin(of: request)).response
        }
        router.get("subscriptions") { request, _ in
            authorized(request) { claims, index throws(ResourceManagerError) in
                let tenantID = claims["tid"]?.stringValue ?? ""
                let subscriptions = index.tenant(id: tenantID)?.subscriptions ?? []
                return .object([
                    ("value", .array(subscriptions.map { Self.json($0, tenantID: tenantID) })),
                    ("count", .object([("type", .string("Total")), ("value", .int(subscriptions.count))])),
                ])
            }
        }
        router.get("subscriptions/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            return authorized(request) { claims, index throws(ResourceManagerError) in
                let tenantID = claims["tid"]?.stringValue ?? ""
                guard let (subscription, tenant) = index.subscription(id: id) else {
                    throw ResourceManagerError(
                        .notFound, "SubscriptionNotFound", "The subscription '\(id)' could not be found.")
                }
                guard tenant.id.lowercased() == tenantID.lowercased() else {
                    throw ResourceManagerAuthentication.wrongTenant(
                        tokenTenant: tenantID, subscriptionTenant: tenant.id, origin: core.origin(of: request))
                }
                return Self.json(subscription, tenantID: tenant.id)
            }
        }
        router.get("tenants") { request, _ in
            authorized(request) { claims, index throws(ResourceManagerError) in
                .object([("value", .array(Self.tenants(of: claims, in: index).map(Self.json)))])
            }
        }
    }

    /// Answers `body`'s JSON to a request with an `api-version` and a valid Resource Manager token; Resource
    /// Manager's errors otherwise.
    private func authorized(
        _ request: Request, _ body: (JSONValue, DirectoryIndex) throws(ResourceManagerError) -> JSONValue
    ) -> Response {
        let requestID = GUIDText.random()
        do throws(ResourceManagerError) {
            guard HTTPExchange.query(request).nonEmpty("api-version") != nil else {
                throw ResourceManagerError(
                    .badRequest, "MissingApiVersionParameter",
                    "The api-version query parameter (?api-version=) is required for all requests.")
            }
            let index = core.state.index
            let claims = try ResourceManagerAuthentication(core: core).claims(of: request, index: index)
            return HTTPExchange.json(try body(claims, index), headers: ResourceManagerError.headers(requestID))
        } catch {
            return error.response(requestID: requestID)
        }
    }

    /// The tenants the token's principal is in: a user's home tenant and those it is a guest of, an
    /// application's or managed identity's own.
    private static func tenants(of claims: JSONValue, in index: DirectoryIndex) -> [Tenant] {
        let tenantID = claims["tid"]?.stringValue ?? ""
        guard claims["idtyp"]?.stringValue == "user", let oid = claims["oid"]?.stringValue,
            let user = index.user(objectID: oid)
        else { return index.tenant(id: tenantID).map { [$0] } ?? [] }
        return index.directory.tenants.filter { index.membership(of: user, tenantID: $0.id) != nil }
    }

    /// A subscription in Resource Manager's shape (api-version 2022-12-01).
    static func json(_ subscription: AzureSubscription, tenantID: String) -> JSONValue {
        .object([
            ("id", .string("/subscriptions/\(subscription.id)")),
            ("authorizationSource", .string("RoleBased")),
            ("managedByTenants", .array([])),
            ("subscriptionId", .string(subscription.id)),
            ("tenantId", .string(tenantID)),
            ("displayName", .string(subscription.displayName)),
            ("state", .string(subscription.state.rawValue)),
            (
                "subscriptionPolicies",
                .object([
                    ("locationPlacementId", .string("Public_2014-09-01")),
                    ("quotaId", .string("PayAsYouGo_2014-09-01")), ("spendingLimit", .string("Off")),
                ])
            ),
        ])
    }

    /// A tenant in Resource Manager's shape (api-version 2022-12-01).
    static func json(_ tenant: Tenant) -> JSONValue {
        .object([
            ("id", .string("/tenants/\(tenant.id)")),
            ("tenantId", .string(tenant.id)),
            ("countryCode", .string("US")),
            ("displayName", .string(tenant.displayName)),
            ("domains", .array([.string(tenant.domain)])),
            ("tenantCategory", .string("Home")),
            ("defaultDomain", .string(tenant.domain)),
            ("tenantType", .string(tenant.kind == .external ? "CIAM" : "AAD")),
        ])
    }
}
