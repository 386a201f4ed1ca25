// The authorize endpoint (`AuthorizeRoutes.authorize`) end to end on an emulator core that is never served:
// the query's validation, the error page or error redirect, or the sign-in page it leads to.
//
// Input: the first byte picks the tenant segment, the rest is the query string.
import Foundation
import FuzzSupport
import HTTPTypes
import Hummingbird

@testable import IdentityEmulator

@main
enum FuzzAuthorizeQuery {
    static func main() { runFuzzer(fuzzAuthorizeQuery) }
}

private let core = try! EmulatorCore.offline()
private let routes = AuthorizeRoutes(core: core, flow: SignInFlow(core: core))
private let tenants = [
    "organizations", "common", "consumers", "contoso.onmicrosoft.com", Directory.DemoIDs.contosoTenant,
    "contosocustomers.onmicrosoft.com", "unknown.example", "",
]

func fuzzAuthorizeQuery(_ input: Data) {
    guard let selector = input.first else { return }
    let tenant = tenants[Int(selector) % tenants.count]
    let query = String(decoding: input.dropFirst(), as: UTF8.self)
    let params = FormBody(encoded: Substring(query))
    let head = HTTPRequest(
        method: .get, scheme: "http", authority: "127.0.0.1:8400", path: "/\(tenant)/oauth2/v2.0/authorize")
    let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))
    let response = runBlocking { await routes.authorize(request, tenant: tenant, params: params) }
    let status = response.status.code
    invariant([200, 302, 400].contains(status), "a page, a redirect or an error page, never \(status)")
    if status == 302 {
        // Never an open redirect: only to the client's registered redirect URI.
        let location = response.headers[.location] ?? ""
        let client = core.state.index.application(clientID: params["client_id"] ?? "")
        let redirectURI = params["redirect_uri"] ?? ""
        invariant(
            client.map { RedirectURI.isRegistered(redirectURI, in: $0.redirectUris) } == true,
            "a redirect only for a registered redirect URI")
        invariant(location.hasPrefix(RedirectURI.withPath(redirectURI)), "the redirect goes to that URI")
    }
}
