import Foundation
import Hummingbird
import WebText

/// The device authorization grant (RFC 8628): `/{tenant}/oauth2/v2.0/devicecode` and the
/// `/devicelogin` page where the user enters the code and signs in.
struct DeviceCodeRoutes: Sendable {
    let core: EmulatorCore
    let flow: SignInFlow

    static let lifetime: TimeInterval = 900
    static let interval = 5

    func register(on router: Router<EmulatorRequestContext>) {
        router.post(":tenant/oauth2/v2.0/devicecode") { request, context in
            let form = try await HTTPExchange.form(request, context: context)
            do throws(EntraError) {
                return try await deviceCode(request, tenant: context.parameters.get("tenant") ?? "", form: form)
            } catch {
                return await core.errorResponse(error, for: request)
            }
        }
        router.get("devicelogin") { _, _ in codeEntryPage(error: nil) }
        router.post("devicelogin") { request, context in
            let form = try await HTTPExchange.form(request, context: context)
            return await enterCode(request, code: form["otc"] ?? "")
        }
    }

    func deviceCode(_ request: Request, tenant segment: String, form: FormBody) async throws(EntraError) -> Response {
        let index = core.state.index
        guard index.selector(segment) != nil else { throw .tenantNotFoundAtToken(segment) }
        guard let clientID = form.nonEmpty("client_id") else { throw .missingParameter("client_id") }
        guard let client = index.application(clientID: clientID), client.kind == .publicClient else {
            throw .unknownClient(clientID, tenant: segment)
        }
        guard let rawScope = form.nonEmpty("scope") else { throw .missingParameter("scope") }
        let scopes = try ScopeSet(parsing: rawScope, index: index)
        let device = await core.state.startDeviceAuthorization(
            client: client, selectorSegment: segment, scopes: scopes, rawScope: rawScope,
            claims: form.nonEmpty("claims"),
            lifetime: Self.lifetime)
        let uri = "\(core.origin(of: request))/devicelogin"
        let body = JSONValue.object([
            ("user_code", .string(device.userCode)),
            ("device_code", .string(device.deviceCode)),
            ("verification_uri", .string(uri)),
            ("expires_in", .int(Int(Self.lifetime))),
            ("interval", .int(Self.interval)),
            (
                "message",
                .string(
                    "To sign in, use a web browser to open the page \(uri) and enter the code \(device.userCode) to authenticate."
                )
            ),
        ])
        return HTTPExchange.json(body, headers: HTTPExchange.estsHeaders(traceID: core.traceID(), secure: core.secure))
    }

    private func enterCode(_ request: Request, code: String) async -> Response {
        guard let device = await core.state.deviceAuthorization(userCode: code), case .pending = device.status else {
            return codeEntryPage(error: "That code didn't work. Check the code and try again.")
        }
        guard device.expiresAt > (core.state.now) else {
            return codeEntryPage(error: "That code has expired. Go back to your device and request a new one.")
        }
        let pending = PendingAuthorization(
            completion: .device(userCode: device.userCode), selectorSegment: device.selectorSegment,
            client: device.client,
            redirectURI: "", responseMode: "query", scopes: device.scopes, rawScope: device.rawScope, state: nil,
            nonce: nil,
            codeChallenge: nil, codeChallengeMethod: nil, prompt: "select_account", loginHint: nil, domainHint: nil,
            clientInfo: false, claims: nil)
        return await flow.begin(pending, request: request)
    }

    private func codeEntryPage(error: String?) -> Response {
        HTTPExchange.html(
            HTML.page(
                title: "Enter code",
                body: """
                    <h1>Enter code</h1>
                    <p>Enter the code displayed on your app or device.</p>
                    \(error.map { "<p class=\"error\" id=\"error\">\(HTMLText.escape($0))</p>" } ?? "")
                    <form method="post" action="/devicelogin">
                    <input type="text" id="otc" name="otc" autocomplete="off" placeholder="Code">
                    <button class="primary" type="submit" id="next">Next</button>
                    </form>
                    """))
    }
}
