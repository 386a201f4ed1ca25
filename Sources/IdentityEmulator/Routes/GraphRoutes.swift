import Foundation
import Hummingbird

/// Microsoft Graph `GET /v1.0/me`, with Graph's headers, default property set and errors, including
/// the continuous access evaluation (CAE) claims challenge after a revocation; `getMemberObjects`
/// (``MemberObjectsRoute``).
struct GraphRoutes: Sendable {
    let core: EmulatorCore

    static let audiences: Set<String> = [
        "00000003-0000-0000-c000-000000000000", "https://graph.microsoft.com", "https://graph.microsoft.com/",
    ]
    static let defaultProperties = [
        "businessPhones", "displayName", "givenName", "jobTitle", "mail", "mobilePhone", "officeLocation",
        "preferredLanguage", "surname", "userPrincipalName", "id",
    ]

    func register(on router: Router<EmulatorRequestContext>) {
        router.get("v1.0/me") { request, _ in await me(request) }
        let userInfo = UserInfoRoute(graph: self)
        router.get("oidc/userinfo") { request, _ in await userInfo.answer(request) }
        router.post("oidc/userinfo") { request, _ in await userInfo.answer(request) }
        MemberObjectsRoute(graph: self).register(on: router)
    }

    func me(_ request: Request) async -> Response {
        let now = core.state.now
        let ids = Self.requestIDs(request, now: now)
        let claims: JSONValue
        switch authenticate(request, ids: ids) {
        case .success(let c): claims = c
        case .failure(let refusal): return refusal.response
        }
        guard claims["idtyp"]?.stringValue == "user", let oid = claims["oid"]?.stringValue,
            let tid = claims["tid"]?.stringValue
        else {
            return Self.error(
                .badRequest, code: "BadRequest",
                message: "/me request is only valid with delegated authentication flow.", ids: ids)
        }
        let index = core.state.index
        guard let user = index.user(objectID: oid), let membership = index.membership(of: user, tenantID: tid) else {
            return Self.error(
                .notFound, code: "Request_ResourceNotFound",
                message:
                    "Resource '\(oid)' does not exist or one of its queried reference-property objects are not present.",
                ids: ids)
        }
        if BearerValidator.isCAECapable(claims), let revoked = await core.state.revocationTime(userID: user.id),
            let iat = claims["iat"]?.intValue, iat < revoked.epochSeconds
        {
            let challenge = #"{"access_token":{"nbf":{"essential":true, "value":"\#(revoked.epochSeconds)"}}}"#
            let extra = #", error="insufficient_claims", claims="\#(Data(challenge.utf8).base64EncodedString())""#
            return Self.error(
                .unauthorized, code: "InvalidAuthenticationToken",
                message:
                    "Continuous access evaluation resulted in claims challenge with result: InteractionRequired and code: TokenIssuedBeforeRevocationTimestamp",
                ids: ids, wwwAuthenticate: Self.challenge(extra: extra))
        }
        let granted = BearerValidator.scopes(claims)
        guard !granted.isDisjoint(with: ["user.read", "user.readwrite", "user.readbasic.all", "user.read.all"]) else {
            return Self.error(
                .forbidden, code: "Authorization_RequestDenied",
                message: "Insufficient privileges to complete the operation.", ids: ids)
        }
        let select = HTTPExchange.query(request).nonEmpty("$select")?.split(separator: ",").map(String.init)
        let properties = select ?? Self.defaultProperties
        let origin = core.origin(of: request)
        let context =
            select.map { "\(origin)/v1.0/$metadata#users(\($0.joined(separator: ",")))/$entity" }
            ?? "\(origin)/v1.0/$metadata#users/$entity"
        var members: [(String, JSONValue)] = [("@odata.context", .string(context))]
        for property in properties {
            if let value = Self.property(property, of: membership) { members.append((property, value)) }
        }
        var headers = Self.graphHeaders(ids)
        headers[.init("x-ms-resource-unit")!] = "1"
        return HTTPExchange.json(
            .object(members), headers: headers,
            contentType:
                "application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8")
    }

    /// The Graph request id, the client's request id (or the same id) and the time, for headers and errors.
    static func requestIDs(_ request: Request, now: Date) -> (String, String, Date) {
        let requestID = GUIDText.random()
        return (requestID, request.headers[.clientRequestID] ?? requestID, now)
    }

    /// A Graph answer that ends the request before it is served.
    struct Refusal: Error {
        let response: Response
    }

    /// The claims of a valid Graph access token, or Graph's 401 `InvalidAuthenticationToken`.
    func authenticate(_ request: Request, ids: (String, String, Date)) -> Result<JSONValue, Refusal> {
        switch BearerValidator(keys: core.keys).validate(request, audiences: Self.audiences, now: ids.2) {
        case .success(let claims): return .success(claims)
        case .failure(let failure):
            let message =
                switch failure {
                case .missing: "Access token is empty."
                case .notAJWT: "IDX14100: JWT is not well formed, there are no dots (.)."
                case .invalid: "Access token validation failure."
                case .expired: "Lifetime validation failed, the token is expired."
                case .wrongAudience: "Access token validation failure. Invalid audience."
                }
            return .failure(
                Refusal(
                    response: Self.error(
                        .unauthorized, code: "InvalidAuthenticationToken", message: message, ids: ids,
                        wwwAuthenticate: Self.challenge(extra: ""))))
        }
    }

    private static func property(_ name: String, of membership: Membership) -> JSONValue? {
        let user = membership.user
        return switch name {
        case "businessPhones": .array(user.businessPhones.map(JSONValue.string))
        case "displayName": .string(user.displayName)
        case "givenName": .optional(user.givenName)
        case "jobTitle": .optional(user.jobTitle)
        case "mail": .optional(user.mail)
        case "mobilePhone": .optional(user.mobilePhone)
        case "officeLocation": .optional(user.officeLocation)
        case "preferredLanguage": .optional(user.preferredLanguage)
        case "surname": .optional(user.surname)
        case "userPrincipalName": .string(user.userPrincipalName)
        case "id": .string(membership.objectID)
        default: nil
        }
    }

    static func challenge(extra: String) -> String {
        #"Bearer realm="", authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", client_id="00000003-0000-0000-c000-000000000000""#
            + extra
    }

    static func graphHeaders(_ ids: (String, String, Date)) -> HTTPFields {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-cache"
        headers[.odataVersion] = "4.0"
        headers[.requestID] = ids.0
        headers[.clientRequestID] = ids.1
        headers[.agsDiagnostic] =
            #"{"ServerInfo":{"DataCenter":"Local","Slice":"E","Ring":"5","ScaleUnit":"000","RoleInstance":"identity-emulator"}}"#
        headers[.strictTransportSecurity] = "max-age=31536000"
        return headers
    }

    /// A Graph OData error: `{"error":{"code","message","innerError":{date, request-id, client-request-id}}}`.
    static func error(
        _ status: HTTPResponse.Status, code: String, message: String, ids: (String, String, Date),
        wwwAuthenticate: String? = nil
    ) -> Response {
        var headers = Self.graphHeaders(ids)
        if let wwwAuthenticate { headers[.wwwAuthenticate] = wwwAuthenticate }
        let body = JSONValue.object([
            (
                "error",
                .object([
                    ("code", .string(code)),
                    ("message", .string(message)),
                    (
                        "innerError",
                        .object([
                            ("date", .string(ids.2.graphTimestamp)),
                            ("request-id", .string(ids.0)),
                            ("client-request-id", .string(ids.1)),
                        ])
                    ),
                ])
            )
        ])
        return HTTPExchange.json(body, status: status, headers: headers, contentType: "application/json")
    }
}
